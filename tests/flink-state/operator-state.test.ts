import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, bytesSource, SNAPPY_STREAM_IDENTIFIER } from '../../src/core/io';
import { writeSnappyFramedSegments } from '../../src/core/io/write-snappy-framed';
import { createSnapshotRegistry, type StateEntry } from '../../src/core/flink';
import { readOperatorStateEntries } from '../../src/core/flink/operator/read-operator-state-entries';
import { readOperatorStateHeader } from '../../src/core/flink/headers/read-operator-state-header';
import type { OperatorStateEntry } from '../../src/core/flink/metadata/metadata-types';
import { CLS, simple, writeStateMetaInfo, type StateSpec } from '../helpers/write-test-snapshots';

const registry = createSnapshotRegistry();

const listState = (name: string, mode: string, element = simple(CLS.string)): StateSpec => ({
  name,
  type: 1,
  options: { OPERATOR_STATE_DISTRIBUTION_MODE: mode },
  serializers: [['VALUE_SERIALIZER', element]],
});
const broadcastState = (name: string): StateSpec => ({
  name,
  type: 2,
  options: { OPERATOR_STATE_DISTRIBUTION_MODE: 'BROADCAST' },
  serializers: [
    ['KEY_SERIALIZER', simple(CLS.long)],
    ['VALUE_SERIALIZER', simple(CLS.string)],
  ],
});

function writeHeader(version: number, compressed: boolean, states: StateSpec[], broadcast: StateSpec[]): ByteWriter {
  const w = new ByteWriter().i32(version);
  if (version >= 6) w.bool(compressed);
  w.i16(states.length);
  for (const s of states) writeStateMetaInfo(w, s);
  w.i16(broadcast.length);
  for (const s of broadcast) writeStateMetaInfo(w, s);
  return w;
}

async function readAll(bytes: Uint8Array, states: OperatorStateEntry[], warnings: string[] = []): Promise<StateEntry[]> {
  const fence = Math.min(...states.flatMap((s) => s.offsets));
  const header = readOperatorStateHeader(new ByteReader(bytes.subarray(0, fence), { file: 'op' }), registry, { fence });
  expect(header.warnings).toEqual(warnings);
  const out: StateEntry[] = [];
  for await (const e of readOperatorStateEntries({ operatorId: 'o', subtask: 1, source: bytesSource('op', bytes), file: 'op', baseOffset: 0, states }, header))
    out.push(e);
  return out;
}

describe('operator state', () => {
  it('reads list and union elements at their offsets and broadcast maps', async () => {
    const w = writeHeader(6, false, [listState('split', 'SPLIT_DISTRIBUTE'), listState('union', 'UNION')], [broadcastState('bc')]);
    const off = (fn: () => void) => {
      const at = w.length;
      fn();
      return at;
    };
    const a = off(() => w.stringValue('Here be dragons!'));
    const b = off(() => w.stringValue('Here be more dragons!'));
    const c = off(() => w.stringValue('u'));
    const d = off(() => w.i32(2).i64(0).stringValue('0').i64(1).stringValue('1'));
    const entries = await readAll(w.finish(), [
      { name: 'split', mode: 'SPLIT_DISTRIBUTE', offsets: [a, b] },
      { name: 'union', mode: 'UNION', offsets: [c] },
      { name: 'bc', mode: 'BROADCAST', offsets: [d] },
    ]);
    expect(entries.map((e) => [e.state, e.keyGroup, e.subtask, e.userKey, e.value])).toEqual([
      ['split', -1, 1, undefined, { kind: 'string', value: 'Here be dragons!' }],
      ['split', -1, 1, undefined, { kind: 'string', value: 'Here be more dragons!' }],
      ['union', -1, 1, undefined, { kind: 'string', value: 'u' }],
      ['bc', -1, 1, { kind: 'long', value: '0' }, { kind: 'string', value: '0' }],
      ['bc', -1, 1, { kind: 'long', value: '1' }, { kind: 'string', value: '1' }],
    ]);
    expect(entries[0]!.valueRange).toEqual({ offset: a, length: 17 });
  });

  it('an element offset past the end of the stream is a located error, not a read of a negative length', async () => {
    const w = writeHeader(6, false, [listState('split', 'SPLIT_DISTRIBUTE')], []);
    const a = w.length;
    w.stringValue('x');
    const bytes = w.finish();
    const e = await readAll(bytes, [{ name: 'split', mode: 'SPLIT_DISTRIBUTE', offsets: [a, 10_000_000] }]).catch((x: unknown) => x as Error);
    expect((e as Error).message).toBe(
      `expected element #1 of operator state "split" at an offset inside the ${bytes.length}-byte state stream, found offset 10000000, past its end — at op, offset ${bytes.length} (0x${bytes.length.toString(16)})`,
    );
  });

  it('reads version 5 headers (no compression flag)', () => {
    const w = writeHeader(5, false, [listState('s', 'UNION')], []);
    const h = readOperatorStateHeader(new ByteReader(w.finish()), registry);
    expect([h.version, h.compressed, h.states.map((s) => [s.name, s.kind])]).toEqual([5, false, [['s', 'OPERATOR_UNION']]]);
  });

  it('rejects unknown header versions', () => {
    expect(() => readOperatorStateHeader(new ByteReader(new ByteWriter().i32(7).finish(), { file: 'op' }), registry)).toThrow(
      'expected operator backend header version 5 or 6, found 7 — at op, offset 0 (0x0)',
    );
  });

  it('reads a compressed stream: one framed stream after the header, offsets at chunk starts', async () => {
    const header = writeHeader(6, true, [listState('split', 'SPLIT_DISTRIBUTE')], [broadcastState('bc')]).finish();
    const segs = [
      new ByteWriter().stringValue('first').finish(),
      new ByteWriter().stringValue('second').finish(),
      new ByteWriter().i32(1).i64(7).stringValue('seven').finish(),
    ];
    const { bytes: framed, segmentOffsets } = writeSnappyFramedSegments(segs, { chunks: 'compressed' });
    expect(segmentOffsets[0]).toBe(SNAPPY_STREAM_IDENTIFIER.length);
    const bytes = new ByteWriter().bytes(header).bytes(framed).finish();
    const at = segmentOffsets.map((o) => header.length + o);
    const entries = await readAll(bytes, [
      { name: 'split', mode: 'SPLIT_DISTRIBUTE', offsets: [at[0]!, at[1]!] },
      { name: 'bc', mode: 'BROADCAST', offsets: [at[2]!] },
    ]);
    expect(entries.map((e) => [e.state, e.userKey, e.value])).toEqual([
      ['split', undefined, { kind: 'string', value: 'first' }],
      ['split', undefined, { kind: 'string', value: 'second' }],
      ['bc', { kind: 'long', value: '7' }, { kind: 'string', value: 'seven' }],
    ]);
  });

  it('keeps elements of an unknown element serializer as opaque bytes, recovering the header via the fence', async () => {
    const w = writeHeader(6, false, [listState('m', 'SPLIT_DISTRIBUTE', { raw: CLS.unknown, version: 3, content: (x) => x.utf('cfg') })], []);
    const at = w.length;
    w.bytes([1, 2, 3]);
    const entries = await readAll(
      w.finish(),
      [{ name: 'm', mode: 'SPLIT_DISTRIBUTE', offsets: [at] }],
      [`state m: unknown serializer snapshot ${CLS.unknown} v3 skipped by resynchronising on the header fence`],
    );
    expect(entries[0]!.value).toEqual({ kind: 'opaque', reason: `unknown serializer snapshot ${CLS.unknown} v3`, length: 3, base64: 'AQID' });
  });
});
