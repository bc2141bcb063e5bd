import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, isDecodeError } from '../../io';
import { createSnapshotRegistry } from './snapshot-registry';
import { readNestedSerializerSnapshot } from './read-serializer-snapshot';
import type { DecodedValue, SerializerSnapshot } from './snapshot-types';

const registry = createSnapshotRegistry();
const NFA = 'org.apache.flink.cep.nfa.';
const SB = `${NFA}sharedbuffer.`;
const CLS = {
  eventId: `${SB}EventId$EventIdSerializer$EventIdSerializerSnapshot`,
  dewey: `${NFA}DeweyNumber$DeweyNumberSerializer$DeweyNumberSerializerSnapshot`,
  nodeId: `${SB}NodeId$NodeIdSerializer$NodeIdSerializerSnapshot`,
  edge: `${SB}SharedBufferEdge$SharedBufferEdgeSerializer$SharedBufferEdgeSerializerSnapshot`,
  lockable: `${SB}LockableTypeSerializerSnapshot`,
  nodeV2: `${SB}SharedBufferNodeSerializerSnapshotV2`,
  nfaState: `${NFA}NFAStateSerializerSnapshot`,
  string: 'org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot',
};

/** The nested form as Flink writes it: a simple snapshot (version 3, empty) or a composite one (magic, outer version 1, no outer content, the nested delegate). */
function simple(w: ByteWriter, cls: string): ByteWriter {
  return w.utf(cls).i32(3);
}
function composite(w: ByteWriter, cls: string, ...nested: ((w: ByteWriter) => void)[]): ByteWriter {
  w.utf(cls).i32(3).i32(911108).i32(1).i32(1333245).i32(1).i32(nested.length);
  for (const n of nested) n(w);
  return w;
}
const eventId = (w: ByteWriter) => simple(w, CLS.eventId);
const dewey = (w: ByteWriter) => simple(w, CLS.dewey);
const nodeId = (w: ByteWriter) => composite(w, CLS.nodeId, eventId);

function read(bytes: Uint8Array): SerializerSnapshot {
  const r = new ByteReader(bytes, { file: 'snapshot' });
  const s = readNestedSerializerSnapshot(r, registry);
  expect(r.remaining).toBe(0);
  return s;
}

function decode(s: SerializerSnapshot, bytes: Uint8Array): DecodedValue {
  const r = new ByteReader(bytes, { file: 'value' });
  const v = s.codec!.decode(r);
  expect(r.remaining).toBe(0);
  return v;
}

function errorOf(s: SerializerSnapshot, bytes: Uint8Array): string {
  try {
    s.codec!.decode(new ByteReader(bytes, { file: 'value' }));
  } catch (e) {
    if (isDecodeError(e)) return `${e.code} @${e.offset}: ${e.detail}`;
    throw e;
  }
  throw new Error('expected a DecodeError');
}

/** A StringSerializer string (StringValue.writeString): length + 1 as a varint, then the chars (ASCII here). */
const str = (w: ByteWriter, s: string) => w.u8(s.length + 1).bytes([...s].map((c) => c.charCodeAt(0)));
const eventIdValue = (w: ByteWriter, id: number, ts: bigint) => w.i32(id).i64(ts);
const deweyValue = (w: ByteWriter, ...digits: number[]) => {
  w.i32(digits.length);
  for (const d of digits) w.i32(d);
};
const pojo = (className: string, fields: Record<string, unknown>) => ({
  kind: 'pojo',
  className,
  fields: Object.entries(fields).map(([name, value]) => ({ name, value })),
});
const int = (value: number) => ({ kind: 'int', type: 'Int', value });
const long = (value: string) => ({ kind: 'long', value });
const ev = (id: number, ts: string) => pojo(`${SB}EventId`, { id: int(id), timestamp: long(ts) });
const dn = (text: string) => ({ kind: 'other', type: 'DeweyNumber', text });

describe('CEP serializer snapshots (NFA state and shared buffer)', () => {
  it("NFAState: the partial and completed matches' ComputationStates (name, previous entry, version, start timestamp and event)", () => {
    const s = read(composite(new ByteWriter(), CLS.nfaState, dewey, nodeId, eventId).finish());
    expect([s.typeLabel, s.status, s.nested.map((n) => n.typeLabel)]).toEqual(['NFAState', 'known', ['DeweyNumber', 'NodeId', 'EventId']]);
    const v = new ByteWriter().i32(2);
    // partial 1: at "middle", previous entry (event 3 @ 1000, page "start"), version 1.0, start 900, start event 1 @ 900
    str(v, 'middle');
    v.u8(1);
    eventIdValue(v, 3, 1000n);
    str(v, 'start');
    deweyValue(v, 1, 0);
    v.i64(900n).u8(1);
    eventIdValue(v, 1, 900n);
    // partial 2: the start state, no previous entry, version 2, no start event
    str(v, 'start');
    v.u8(0);
    deweyValue(v, 2);
    v.i64(-1n).u8(0);
    v.i32(0); // no completed matches
    expect(decode(s, v.finish())).toEqual(
      pojo(`${NFA}NFAState`, {
        partialMatches: {
          kind: 'list',
          items: [
            pojo(`${NFA}ComputationState`, {
              currentStateName: { kind: 'string', value: 'middle' },
              previousBufferEntry: pojo(`${SB}NodeId`, { eventId: ev(3, '1000'), pageName: { kind: 'string', value: 'start' } }),
              version: dn('1.0'),
              startTimestamp: long('900'),
              startEventId: ev(1, '900'),
            }),
            pojo(`${NFA}ComputationState`, {
              currentStateName: { kind: 'string', value: 'start' },
              previousBufferEntry: { kind: 'null' },
              version: dn('2'),
              startTimestamp: long('-1'),
              startEventId: { kind: 'null' },
            }),
          ],
        },
        completedMatches: { kind: 'list', items: [] },
      }),
    );
  });

  it('shared buffer entries: Lockable<SharedBufferNode> with its Lockable edges (target NodeId, DeweyNumber); events: Lockable<event>', () => {
    const node = read(composite(new ByteWriter(), CLS.lockable, (w) => composite(w, CLS.nodeV2, (e) => composite(e, CLS.edge, nodeId, dewey))).finish());
    expect([node.typeLabel, node.status]).toEqual(['Lockable<SharedBufferNode>', 'known']);
    const v = new ByteWriter().i32(2).i32(1).i32(1); // node refcount 2, one edge, edge refcount 1
    v.u8(1);
    eventIdValue(v, 7, 5n);
    str(v, 'a');
    deweyValue(v, 1, 0, 1);
    expect(decode(node, v.finish())).toEqual(
      pojo(`${SB}Lockable`, {
        refCounter: int(2),
        element: pojo(`${SB}SharedBufferNode`, {
          edges: {
            kind: 'list',
            items: [
              pojo(`${SB}Lockable`, {
                refCounter: int(1),
                element: pojo(`${SB}SharedBufferEdge`, {
                  target: pojo(`${SB}NodeId`, { eventId: ev(7, '5'), pageName: { kind: 'string', value: 'a' } }),
                  deweyNumber: dn('1.0.1'),
                }),
              }),
            ],
          },
        }),
      }),
    );
    const events = read(composite(new ByteWriter(), CLS.lockable, (w) => simple(w, CLS.string)).finish());
    expect(events.typeLabel).toBe('Lockable<String>');
    expect(decode(events, str(new ByteWriter().i32(3), 'e1').finish())).toEqual(
      pojo(`${SB}Lockable`, { refCounter: int(3), element: { kind: 'string', value: 'e1' } }),
    );
    const keys = read(nodeId(new ByteWriter()).finish());
    expect(decode(keys, str(eventIdValue(new ByteWriter().u8(1), 4, 2n), 'p').finish())).toEqual(
      pojo(`${SB}NodeId`, { eventId: ev(4, '2'), pageName: { kind: 'string', value: 'p' } }),
    );
  });

  it('NFAState outer version 2 (Flink 1.20): a `bool` says each ComputationState holds its previous timestamp after the start timestamp', () => {
    const head = (outerVersion: number, outer: number[]) =>
      new ByteWriter().utf(CLS.nfaState).i32(3).i32(911108).i32(outerVersion).bytes(outer).i32(1333245).i32(1).i32(3);
    const v2 = head(2, [1]);
    dewey(v2);
    nodeId(v2);
    eventId(v2);
    const s = read(v2.finish());
    expect(s.details).toEqual({ supportsPreviousTimestamp: true });
    const v = new ByteWriter().i32(1);
    str(v, 'start');
    v.u8(0);
    deweyValue(v, 3);
    v.i64(-1n).i64(42n).u8(0).i32(0);
    expect(decode(s, v.finish())).toEqual(
      pojo(`${NFA}NFAState`, {
        partialMatches: {
          kind: 'list',
          items: [
            pojo(`${NFA}ComputationState`, {
              currentStateName: { kind: 'string', value: 'start' },
              previousBufferEntry: { kind: 'null' },
              version: dn('3'),
              startTimestamp: long('-1'),
              previousTimestamp: long('42'),
              startEventId: { kind: 'null' },
            }),
          ],
        },
        completedMatches: { kind: 'list', items: [] },
      }),
    );
    const e = (() => {
      try {
        read(head(3, []).finish());
      } catch (err) {
        return isDecodeError(err) ? `${err.code} @${err.offset}: ${err.detail}` : String(err);
      }
      return 'no error';
    })();
    expect(e).toBe(`unsupported-version @${2 + CLS.nfaState.length + 12}: expected NFAStateSerializerSnapshot outer version 1 or 2, found 3`);
  });

  it('says where truncated or corrupt values end', () => {
    const s = read(composite(new ByteWriter(), CLS.nfaState, dewey, nodeId, eventId).finish());
    expect(errorOf(s, new ByteWriter().i32(1).finish())).toBe('truncated @0: expected 1 partial matches (at least 15 bytes), found 0 bytes left');
    expect(errorOf(s, new ByteWriter().i32(-1).finish())).toBe('invalid-value @0: expected a non-negative number of partial matches, found -1');
    const dewey5 = new ByteWriter().i32(1);
    str(dewey5, 's');
    dewey5.u8(0).i32(70_000).bytes(new Uint8Array(16));
    expect(errorOf(s, dewey5.finish())).toBe('limit-exceeded @7: expected at most 65536 DeweyNumber digits, found 70000');
    const cut = new ByteWriter().i32(1);
    str(cut, 's');
    cut.u8(0);
    deweyValue(cut, 1);
    cut.i64(5n).u8(1).i32(9).bytes([0, 0]);
    expect(errorOf(s, cut.finish())).toBe('truncated @28: expected 8 bytes for EventId timestamp, found 2');
  });

  it('a snapshot with the wrong number of nested serializers is corrupt, an unknown nested one is named', () => {
    const two = composite(new ByteWriter(), CLS.nodeId, eventId, eventId).finish();
    expect(() => read(two)).toThrow(
      /expected 1 nested serializer snapshot in org\.apache\.flink\.cep\.nfa\.sharedbuffer\.NodeId\$NodeIdSerializer\$NodeIdSerializerSnapshot, found 2/,
    );
    const unknown = composite(new ByteWriter(), CLS.lockable, (w) => simple(w, 'com.example.MyEventSerializerSnapshot')).finish();
    expect(() => read(unknown)).toThrow('unknown serializer snapshot com.example.MyEventSerializerSnapshot v3 — at snapshot, offset 94 (0x5e)');
  });
});
