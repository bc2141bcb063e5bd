import { describe, expect, it } from 'vitest';
import { ByteWriter, bytesSource } from '../../io';
import type { ChangelogRecord } from './decode-changelog-changes';
import type { StateEntry, StateKind, StateMetaInfo } from '../savepoint/inspection-types';
import type { DecodedValue, SerializerSnapshot } from '../snapshots/snapshot-types';
import { decodeChangelogChanges, type ChangelogReplayInput } from './decode-changelog-changes';
import { replayChangelogEntries } from './replay-changelog-entries';

const long: SerializerSnapshot = {
  className: 'org.apache.flink.api.common.typeutils.base.LongSerializer$LongSerializerSnapshot',
  version: 3,
  typeLabel: 'Long',
  status: 'known',
  nested: [],
  fixedLength: 8,
  codec: { decode: (r) => ({ kind: 'long', value: r.readI64().toString() }) },
};
const voidNs: SerializerSnapshot = {
  className: 'org.apache.flink.runtime.state.VoidNamespaceSerializer$VoidNamespaceSerializerSnapshot',
  version: 1,
  typeLabel: 'VoidNamespace',
  status: 'known',
  nested: [],
  fixedLength: 0,
  codec: { decode: (r) => (r.readU8(), { kind: 'void-namespace' }) },
};
const string: SerializerSnapshot = {
  className: 'org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot',
  version: 1,
  typeLabel: 'String',
  status: 'known',
  nested: [],
  fixedLength: -1,
  codec: { decode: (r) => ({ kind: 'string', value: r.readUtf() }) },
};
const listOf = (e: SerializerSnapshot): SerializerSnapshot => ({
  className: 'org.apache.flink.api.common.typeutils.base.ListSerializerSnapshot',
  version: 1,
  typeLabel: `List<${e.typeLabel}>`,
  status: 'known',
  nested: [e],
  fixedLength: -1,
  codec: {
    decode: (r) => {
      const n = r.readI32();
      const items: DecodedValue[] = [];
      for (let i = 0; i < n; i++) items.push(e.codec!.decode(r));
      return { kind: 'list', items };
    },
  },
});

function meta(name: string, kind: StateKind, namespace: SerializerSnapshot, value: SerializerSnapshot): StateMetaInfo {
  return {
    name,
    backendStateType: 'KEY_VALUE',
    kind,
    options: { KEYED_STATE_TYPE: kind },
    serializers: { NAMESPACE_SERIALIZER: namespace, VALUE_SERIALIZER: value },
  };
}

/** The in-memory changes written one after the other into one `_metadata`-like buffer. */
function changelog(
  states: { id: number; state: StateMetaInfo }[],
  changes: { keyGroup: number; write: (w: ByteWriter) => void }[],
  options: { key?: SerializerSnapshot; metadataOperation?: number } = {},
): ChangelogReplayInput {
  const w = new ByteWriter();
  const records: ChangelogRecord[] = states.map(({ id, state }) => ({ kind: 'meta', stateId: id, state, backendStateType: 0, ttl: false }));
  for (const c of changes) {
    const offset = w.length;
    c.write(w);
    records.push({ kind: 'data', keyGroup: c.keyGroup, offset, length: w.length - offset });
  }
  return {
    operatorId: 'op',
    subtask: 0,
    maxParallelism: 128,
    range: { start: 0, end: 127 },
    records,
    metadataOperation: options.metadataOperation ?? 8,
    ...(options.key ? { key: { serializer: options.key, source: 'the test' } } : {}),
    source: bytesSource('_metadata', w.finish()),
    file: '_metadata',
  };
}

const L = (v: number): DecodedValue => ({ kind: 'long', value: String(v) });
const entry = (state: string, keyGroup: number, key: number, namespace: DecodedValue, value: DecodedValue | null, userKey?: DecodedValue): StateEntry => ({
  operatorId: 'op',
  state,
  subtask: 0,
  keyGroup,
  key: L(key),
  namespace,
  ...(userKey ? { userKey } : {}),
  value,
  file: 'state-file',
  valueRange: { offset: 0, length: 0 },
});

async function* each<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

async function replay(input: ChangelogReplayInput, materialized: StateEntry[] = []) {
  const changes = await decodeChangelogChanges(input, 'decode');
  const out: [string, number, string, string, string][] = [];
  for await (const e of replayChangelogEntries(each(materialized), changes, { operatorId: 'op', subtask: 0, file: '_metadata' })) {
    const show = (v: DecodedValue | null | undefined) =>
      v === undefined
        ? '-'
        : JSON.stringify(v === null ? null : 'value' in v ? v.value : 'items' in v ? v.items.map((i) => ('value' in i ? i.value : i.kind)) : v.kind);
    out.push([e.state, e.keyGroup, show(e.key), show(e.userKey ?? e.namespace), show(e.value)]);
  }
  return { out, changes };
}

describe('replaying a changelog over its materialized snapshot', () => {
  it('VALUE: SET replaces and adds, CLEAR removes; untouched key groups pass through; key groups come out in order per state', async () => {
    const value = meta('v', 'VALUE', voidNs, long);
    const set = (key: number, v: number) => (w: ByteWriter) => w.u8(1).i16(0).i64(key).u8(0).i64(v);
    const input = changelog(
      [{ id: 0, state: value }],
      [
        { keyGroup: 9, write: set(90, 1) },
        { keyGroup: 3, write: set(30, 7) },
        { keyGroup: 3, write: set(31, 8) },
        { keyGroup: 3, write: (w) => w.u8(0).i16(0).i64(32).u8(0) },
        { keyGroup: 1, write: set(10, 5) },
      ],
      { key: long },
    );
    const materialized = [
      entry('v', 3, 30, { kind: 'void-namespace' }, L(1)),
      entry('v', 3, 32, { kind: 'void-namespace' }, L(2)),
      entry('v', 5, 50, { kind: 'void-namespace' }, L(3)),
    ];
    expect((await replay(input, materialized)).out).toEqual([
      ['v', 1, '"10"', '"void-namespace"', '"5"'],
      ['v', 3, '"30"', '"void-namespace"', '"7"'],
      ['v', 3, '"31"', '"void-namespace"', '"8"'],
      ['v', 5, '"50"', '"void-namespace"', '"3"'],
      ['v', 9, '"90"', '"void-namespace"', '"1"'],
    ]);
  });

  it('LIST: ADD_ELEMENT appends, ADD appends a list, MERGE_NS moves the sources onto the target, an empty SET removes', async () => {
    const list = meta('l', 'LIST', long, listOf(long));
    const scope = (w: ByteWriter, op: number, ns: number) => w.u8(op).i16(4).i64(1).i64(ns);
    const input = changelog(
      [{ id: 4, state: list }],
      [
        { keyGroup: 2, write: (w) => scope(w, 5, 10).i64(2) },
        { keyGroup: 2, write: (w) => scope(w, 3, 11).i32(2).i64(7).i64(8) },
        { keyGroup: 2, write: (w) => scope(w, 4, 10).i64(10).i32(1).i64(11) },
        { keyGroup: 2, write: (w) => scope(w, 1, 12).i32(0) },
      ],
      { key: long },
    );
    const materialized = [entry('l', 2, 1, L(10), { kind: 'list', items: [L(1)] }), entry('l', 2, 1, L(12), { kind: 'list', items: [L(5)] })];
    expect((await replay(input, materialized)).out).toEqual([['l', 2, '"1"', '"10"', '["1","2","7","8"]']]);
  });

  it('MAP: ADD_OR_UPDATE_ELEMENT puts, REMOVE_ELEMENT removes a user key, ADD puts every pair (a null value kept as null)', async () => {
    const map: StateMetaInfo = {
      name: 'm',
      backendStateType: 'KEY_VALUE',
      kind: 'MAP',
      options: { KEYED_STATE_TYPE: 'MAP' },
      serializers: {
        NAMESPACE_SERIALIZER: voidNs,
        VALUE_SERIALIZER: { ...listOf(long), className: 'org.apache.flink.api.common.typeutils.base.MapSerializerSnapshot', nested: [string, long] },
      },
    };
    const scope = (w: ByteWriter, op: number) => w.u8(op).i16(1).i64(1).u8(0);
    const input = changelog(
      [{ id: 1, state: map }],
      [
        { keyGroup: 0, write: (w) => scope(w, 6).utf('a').i64(10) },
        { keyGroup: 0, write: (w) => scope(w, 7).utf('b') },
        { keyGroup: 0, write: (w) => scope(w, 3).i32(2).utf('c').bool(false).i64(3).utf('d').bool(true) },
      ],
      { key: long },
    );
    const materialized = [
      entry('m', 0, 1, { kind: 'void-namespace' }, L(1), { kind: 'string', value: 'a' }),
      entry('m', 0, 1, { kind: 'void-namespace' }, L(2), { kind: 'string', value: 'b' }),
    ];
    expect((await replay(input, materialized)).out).toEqual([
      ['m', 0, '"1"', '"a"', '"10"'],
      ['m', 0, '"1"', '"c"', '"3"'],
      ['m', 0, '"1"', '"d"', 'null'],
    ]);
  });

  it("a MERGE_NS of an AGGREGATING state needs the job's function: the state is not replayed, with the reason; the other states are", async () => {
    const agg = meta('agg', 'AGGREGATING', long, long);
    const value = meta('v', 'VALUE', voidNs, long);
    const input = changelog(
      [
        { id: 0, state: agg },
        { id: 1, state: value },
      ],
      [
        { keyGroup: 0, write: (w) => w.u8(4).i16(0).i64(1).i64(5).i64(5).i32(1).i64(6) },
        { keyGroup: 0, write: (w) => w.u8(1).i16(1).i64(1).u8(0).i64(9) },
      ],
      { key: long },
    );
    const { out, changes } = await replay(input);
    expect(changes.get('agg')).toEqual({
      kind: 'unreadable',
      state: agg,
      reason:
        "subtask 0: its changelog cannot be replayed: expected no MERGE_NS in a AGGREGATING state (merging its namespaces runs the job's aggregate function, which is not in the checkpoint), found one — at _metadata, offset 0 (0x0) [subtask 0 / changelog change #0]",
    });
    expect(out).toEqual([['v', 0, '"1"', '"void-namespace"', '"9"']]);
  });

  it('without a key serializer: keys kept as their bytes where namespace and payload have fixed lengths; else the state is not replayed', async () => {
    const value = meta('v', 'VALUE', voidNs, long);
    const list = meta('l', 'LIST', voidNs, listOf(long));
    const input = changelog(
      [
        { id: 0, state: value },
        { id: 1, state: list },
      ],
      [
        { keyGroup: 0, write: (w) => w.u8(1).i16(0).i32(7).u8(0).i64(9) },
        { keyGroup: 0, write: (w) => w.u8(1).i16(1).i32(7).u8(0).i32(1).i64(9) },
      ],
    );
    const { out, changes } = await replay(input);
    expect(out).toEqual([['v', 0, '"opaque"', '"void-namespace"', '"9"']]);
    const v = changes.get('v');
    expect(v?.kind === 'changes' && v.changes[0]!.key).toEqual({
      kind: 'opaque',
      reason: 'the key serializer is not recorded in the changelog',
      length: 4,
      base64: 'AAAABw==',
    });
    expect(v?.kind === 'changes' && v.rawKeys).toBe(
      'keys shown as their bytes: the changelog does not record the key serializer, and the subtask has no materialized snapshot or timer queue whose serializer names it',
    );
    expect(changes.get('l')?.kind === 'unreadable' && changes.get('l')).toMatchObject({
      reason: expect.stringContaining(
        'expected a SET change whose key length follows from fixed-length namespace and payload (the key serializer is not recorded), found a variable-length payload',
      ) as unknown,
    });
  });

  it('a writer before Flink 1.15 (METADATA = 9): its operation 8 is a queue poll, not replayed; changes outside the key-group range are not applied', async () => {
    const timers: StateMetaInfo = {
      name: 't',
      backendStateType: 'PRIORITY_QUEUE',
      kind: 'PRIORITY_QUEUE',
      options: {},
      serializers: { VALUE_SERIALIZER: long },
    };
    const value = meta('v', 'VALUE', voidNs, long);
    const input = changelog(
      [
        { id: 0, state: timers },
        { id: 1, state: value },
      ],
      [
        { keyGroup: 0, write: (w) => w.u8(5).i16(0).i32(2).i64(4).i64(4) },
        { keyGroup: 0, write: (w) => w.u8(8).i16(0) },
        { keyGroup: 200, write: (w) => w.u8(1).i16(1).i64(1).u8(0).i64(9) },
      ],
      { key: long, metadataOperation: 9 },
    );
    const { out, changes } = await replay(input);
    expect(changes.get('t')).toMatchObject({
      kind: 'unreadable',
      reason: expect.stringContaining('found REMOVE_FIRST_ELEMENT (a queue poll, whose element a pre-1.15 writer does not record)') as unknown,
    });
    expect(out).toEqual([]);
  });

  it('PRIORITY_QUEUE: ADD_ELEMENT adds each element once, REMOVE_ELEMENT removes it', async () => {
    const timers: StateMetaInfo = {
      name: 't',
      backendStateType: 'PRIORITY_QUEUE',
      kind: 'PRIORITY_QUEUE',
      options: {},
      serializers: { VALUE_SERIALIZER: long },
    };
    const input = changelog(
      [{ id: 0, state: timers }],
      [
        { keyGroup: 0, write: (w) => w.u8(5).i16(0).i32(3).i64(4).i64(5).i64(4) },
        { keyGroup: 0, write: (w) => w.u8(7).i16(0).i64(5) },
        { keyGroup: 0, write: (w) => w.u8(5).i16(0).i32(1).i64(6) },
      ],
    );
    const materialized: StateEntry = { operatorId: 'op', state: 't', subtask: 0, keyGroup: 0, value: L(1), file: 'f', valueRange: { offset: 0, length: 8 } };
    expect((await replay(input, [materialized])).out).toEqual([
      ['t', 0, '-', '-', '"1"'],
      ['t', 0, '-', '-', '"4"'],
      ['t', 0, '-', '-', '"6"'],
    ]);
  });
});
