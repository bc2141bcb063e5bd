import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, type DecodedValue, type SavepointInspection, type StateEntry } from '../../src/core/flink';
import { readStateEntries } from '../helpers/read-state-entries';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';
import { NEEDS_SHARED, SHARED_SAVEPOINTS } from '../helpers/shared-savepoints';

const registry = createSnapshotRegistry();
const open = (name: string) => openFolderSavepoint(path.join(SHARED_SAVEPOINTS, name));

async function entries(name: string, operatorId: string, state: string): Promise<StateEntry[]> {
  const out: StateEntry[] = [];
  for await (const e of readStateEntries(open(name), registry, { operatorId, state })) out.push(e);
  return out;
}

/** Compact text of a decoded value: longs/ints as numbers, tuples as (..), strings quoted. */
function show(v: DecodedValue | null | undefined): string {
  if (v === null || v === undefined) return String(v);
  switch (v.kind) {
    case 'long':
    case 'int':
      return String(v.value);
    case 'string':
      return JSON.stringify(v.value);
    case 'tuple':
      return `(${v.fields.map(show).join(',')})`;
    case 'list':
      return `[${v.items.map(show).join(',')}]`;
    case 'void-namespace':
      return 'void';
    case 'java-serialized':
      return `java:${v.text}`;
    case 'timer':
      return `timer@${v.timestamp}:${show(v.key)}/${show(v.namespace)}`;
    default:
      return JSON.stringify(v);
  }
}

const row = (e: StateEntry) => `${e.subtask}|${e.keyGroup}|${show(e.key)}|${show(e.namespace)}|${show(e.userKey)}|${show(e.value)}`;

function state(ins: SavepointInspection, op: string, name: string) {
  const s = ins.operators.find((o) => o.id === op)?.states.find((x) => x.name === name);
  if (!s) throw new Error(`no state ${name} in ${op}`);
  return s;
}

const UDF = [
  'new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-udf-migration-itcase-flink1.20-rocksdb-savepoint',
  'new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint',
];
const DRAGONS = ['"Here be dragons!"', '"Here be more dragons!"', '"Here be yet more dragons!"', '"Here be the mostest dragons!"'];

describe('golden: the six shared Flink savepoints', NEEDS_SHARED, () => {
  it('complexKeyed-flink1.20: ListState values [k] for key (k) in the documented key groups, Java strings, serializers', async () => {
    const name = 'operatorstate/complexKeyed-flink1.20';
    const ins = await inspectSavepoint(await openSavepoint(open(name)), registry, { countEntries: true });
    expect(ins.errors).toEqual([]);
    const values = state(ins, '01203aa9a12dc1ec725e03853dd7c8f2', 'values');
    expect([
      values.kind,
      values.keySerializer?.typeLabel,
      values.namespaceSerializer?.typeLabel,
      values.valueSerializer?.typeLabel,
      values.entries,
      values.subtasks,
    ]).toEqual(['LIST', 'Tuple1<Integer>', 'VoidNamespace', 'List<Integer>', 10, [0, 1, 2, 3]]);
    expect(state(ins, '01203aa9a12dc1ec725e03853dd7c8f2', 'count')).toMatchObject({ kind: 'REDUCING', entries: 0 });
    expect(state(ins, '01203aa9a12dc1ec725e03853dd7c8f2', 'count').namespaceSerializer?.typeLabel).toBe('GlobalWindow');
    expect(state(ins, '01203aa9a12dc1ec725e03853dd7c8f2', '_timer_state/event_window-timers').valueSerializer?.typeLabel).toBe(
      'Timer<Tuple1<Integer>, GlobalWindow>',
    );
    const kg = [94, 86, 127, 113, 7, 126, 18, 113, 15, 51];
    const got = (await entries(name, '01203aa9a12dc1ec725e03853dd7c8f2', 'values'))
      .map((e) => `${e.keyGroup}|${show(e.key)}|${show(e.namespace)}|${show(e.value)}`)
      .sort();
    expect(got).toEqual(kg.map((g, k) => `${g}|(${k})|void|[${k}]`).sort());
    for (const [op, prefix] of [
      ['6730ef7375fb60f9d9bbdfdfd174d803', 'second'],
      ['adf090656b210b1609ad3203d4ee7329', 'first'],
    ] as const) {
      expect(state(ins, op, '_default_')).toMatchObject({ scope: 'operator', kind: 'OPERATOR_LIST', entries: 4 });
      expect((await entries(name, op, '_default_')).map(row)).toEqual([0, 1, 2, 3].map((i) => `${i}|-1|undefined|undefined|undefined|java:${prefix}${i}`));
    }
  });

  it('nonKeyed-flink1.20: _default_ Java-serialized strings first0…third3', async () => {
    const name = 'operatorstate/nonKeyed-flink1.20';
    for (const [op, prefix] of [
      ['adf090656b210b1609ad3203d4ee7329', 'first'],
      ['6730ef7375fb60f9d9bbdfdfd174d803', 'second'],
      ['013ef814c76e319e5fe9a82a3ba14933', 'third'],
    ] as const) {
      expect((await entries(name, op, '_default_')).map((e) => show(e.value))).toEqual([0, 1, 2, 3].map((i) => `java:${prefix}${i}`));
    }
  });

  for (const name of UDF) {
    it(`${name}: source strings, ValueState<Long> k→k, Long namespaces, timers`, async () => {
      const ins = await inspectSavepoint(await openSavepoint(open(name)), registry, { countEntries: true });
      expect(ins.errors).toEqual([]);
      expect((await entries(name, '69f32d314b97c6f7f9ed7873983167f2', 'source-state')).map((e) => show(e.value))).toEqual(DRAGONS);
      expect(state(ins, '69f32d314b97c6f7f9ed7873983167f2', 'source-state').kind).toBe('OPERATOR_LIST');
      expect(state(ins, '1f2b5df5a66154aca61fcb26193792be', 'source-state').kind).toBe('OPERATOR_UNION');
      expect((await entries(name, '1f2b5df5a66154aca61fcb26193792be', 'source-state')).map((e) => show(e.value))).toEqual(DRAGONS);
      for (const op of ['d5c8b168c6cbfe8c507a10f88b325243', 'dab25811652d3d4983a30c6e4afacb1c']) {
        const s = state(ins, op, 'state-name');
        expect([s.keySerializer?.typeLabel, s.namespaceSerializer?.typeLabel, s.valueSerializer?.typeLabel, s.subtasks, s.entries]).toEqual([
          'Tuple1<Long>',
          'VoidNamespace',
          'Long',
          [1, 2, 3],
          4,
        ]);
        expect((await entries(name, op, 'state-name')).map(row).sort()).toEqual([
          '1|1|(3)|void|undefined|3',
          '2|2|(0)|void|undefined|0',
          '2|2|(1)|void|undefined|1',
          '3|3|(2)|void|undefined|2',
        ]);
      }
      for (const op of ['4b818c7923a927796d24b727201ba34d', '41e91aae0bee218c44306cf7d21940ad']) {
        expect(state(ins, op, 'state-name').namespaceSerializer?.typeLabel).toBe('Long');
        expect((await entries(name, op, 'state-name')).map(row).sort()).toEqual([
          '1|1|(3)|3|undefined|3',
          '2|2|(0)|0|undefined|0',
          '2|2|(1)|1|undefined|1',
          '3|3|(2)|2|undefined|2',
        ]);
        expect(state(ins, op, '_timer_state/event_timer').valueSerializer?.typeLabel).toBe('Timer<Tuple1<Long>, Long>');
        const events = (await entries(name, op, '_timer_state/event_timer')).map((e) => `${e.keyGroup}|${show(e.value)}`).sort();
        expect(events).toEqual([
          '1|timer@-9223372036854775798:(3)/3',
          '2|timer@-9223372036854775798:(0)/0',
          '2|timer@-9223372036854775798:(1)/1',
          '3|timer@-9223372036854775798:(2)/2',
        ]);
        const processing = await entries(name, op, '_timer_state/processing_timer');
        expect(processing).toHaveLength(4);
        for (const p of processing) {
          const ts = Number((p.value as { timestamp: string }).timestamp);
          expect(new Date(ts).toISOString().slice(0, 4) >= '2024').toBe(true);
        }
      }
    });
  }

  it('flink2.0 rocksdb: operator uids from metadata V5', async () => {
    const ins = await inspectSavepoint(await openSavepoint(open(UDF[2]!)), registry);
    expect(ins.metadataVersion).toBe(5);
    expect(ins.operators.find((o) => o.id === '1f2b5df5a66154aca61fcb26193792be')?.uid).toBe('CheckpointingSource2');
  });

  it('heap and RocksDB canonical savepoints decode to the same entries (as sets; processing timers compared by key)', async () => {
    const collect = async (name: string) => {
      const files = open(name);
      const ins = await inspectSavepoint(await openSavepoint(files), registry);
      const rows: string[] = [];
      for (const op of ins.operators)
        for (const s of op.states)
          for await (const e of readStateEntries(files, registry, { operatorId: op.id, state: s.name }))
            rows.push(`${op.id}|${s.name}|${s.name.includes('processing') ? `${e.keyGroup}|${show(e.key)}` : row(e)}`);
      return rows.sort();
    };
    const heap = await collect(UDF[0]!);
    expect(heap.length).toBe(40);
    expect(await collect(UDF[1]!)).toEqual(heap);
  });

  it('broadcast-1.20 hashmap: broadcast-state-1/2/3 maps in every subtask and header-only keyed files', async () => {
    const name = 'new-stateful-broadcast-udf-migration-itcase-flink1.20-hashmap-savepoint';
    const ins = await inspectSavepoint(await openSavepoint(open(name)), registry, { countEntries: true });
    expect(ins.errors).toEqual([]);
    const p1 = '12d7d939fd56473cac7cff0603179a41';
    const p2 = '56a26c4c54bda3adf3700194db4afe93';
    const expectMap = async (op: string, st: string, fmt: (i: number) => string) => {
      const got = (await entries(name, op, st)).map((e) => `${e.subtask}|${show(e.userKey)}→${show(e.value)}`).sort();
      expect(got).toEqual([0, 1, 2, 3].flatMap((s) => [0, 1, 2, 3].map((i) => `${s}|${fmt(i)}`)).sort());
    };
    await expectMap(p1, 'broadcast-state-1', (i) => `${i}→${i}`);
    await expectMap(p1, 'broadcast-state-2', (i) => `"${i}"→${i}`);
    await expectMap(p2, 'broadcast-state-3', (i) => `${i}→"${i}"`);
    expect(state(ins, p1, 'broadcast-state-2')).toMatchObject({ scope: 'broadcast', kind: 'BROADCAST', entries: 4 }); // one copy; each of the 4 subtasks holds one
    expect(state(ins, p1, 'broadcast-state-2').keySerializer?.typeLabel).toBe('String');
    const timers = state(ins, p2, '_timer_state/event_user-timers');
    expect([timers.keySerializer?.typeLabel, timers.valueSerializer?.typeLabel, timers.entries]).toEqual(['Long', 'Timer<Long, VoidNamespace>', 0]);
    expect((await entries(name, '81afaf64abeedc40a0f29989b81a3659', 'source-state')).map((e) => show(e.value))).toEqual(DRAGONS);
  });
});
