/**
 * Golden tests over the six real Flink savepoints in ../shared/flink-savepoints (README there lists
 * their contents). Skipped, and counted at the end of the run, when that folder is absent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource, type SavepointFiles } from '../../src/core/io';
import { computeKeyGroup, computeOwningSubtask } from '../../src/core/flink/keyed/compute-key-group';
import { computeOperatorId } from '../../src/core/flink/metadata/compute-operator-id';
import { openSavepoint } from '../../src/core/flink/savepoint/open-savepoint';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import type { CheckpointMetadata, KeyedStateHandle, OperatorState } from '../../src/core/flink/metadata/metadata-types';
import { writeCheckpointMetadata } from '../../src/core/flink/metadata/write-checkpoint-metadata';
import { NEEDS_SHARED, SHARED_SAVEPOINTS as ROOT } from '../helpers/shared-savepoints';

const COMPLEX = 'operatorstate/complexKeyed-flink1.20';
const NON_KEYED = 'operatorstate/nonKeyed-flink1.20';
const HEAP = 'new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint';
const ROCKS = 'new-stateful-udf-migration-itcase-flink1.20-rocksdb-savepoint';
const BROADCAST = 'new-stateful-broadcast-udf-migration-itcase-flink1.20-hashmap-savepoint';
const V5 = 'new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint';

const read = (folder: string): { bytes: Uint8Array; m: CheckpointMetadata } => {
  const bytes = new Uint8Array(readFileSync(path.join(ROOT, folder, '_metadata')));
  return { bytes, m: readCheckpointMetadata(bytes, `${folder}/_metadata`) };
};
const op = (m: CheckpointMetadata, idPrefix: string): OperatorState => {
  const found = m.operators.find((o) => o.id.startsWith(idPrefix));
  if (!found) throw new Error(`no operator ${idPrefix}`);
  return found;
};
const keyed = (o: OperatorState, subtask: number): KeyedStateHandle => {
  const h = o.subtasks.find((s) => s.index === subtask)?.managedKeyedState;
  if (!h) throw new Error(`no keyed state in subtask ${subtask}`);
  return h;
};
function folderFiles(folder: string): SavepointFiles {
  const dir = path.join(ROOT, folder);
  const sources = new Map(readdirSync(dir).map((n) => [n, bytesSource(`${folder}/${n}`, new Uint8Array(readFileSync(path.join(dir, n))))]));
  return { name: folder, metadata: sources.get('_metadata')!, files: [...sources.values()], resolveRelative: (p) => sources.get(p), warnings: [] };
}

// operator ids of the 1.20 udf-migration job, by uid (README); the V5 file stores the uids
const MIGRATION_JOB: Record<string, string> = {
  CheckpointingSource1: '69f32d314b97c6f7f9ed7873983167f2',
  CheckpointingSource2: '1f2b5df5a66154aca61fcb26193792be',
  CheckpointingKeyedStateFlatMap1: 'd5c8b168c6cbfe8c507a10f88b325243',
  CheckpointingKeyedStateFlatMap2: 'dab25811652d3d4983a30c6e4afacb1c',
  CheckpointingTimelyStatefulOperator1: '4b818c7923a927796d24b727201ba34d',
  CheckpointingTimelyStatefulOperator2: '41e91aae0bee218c44306cf7d21940ad',
};

describe('golden: the six real savepoints', NEEDS_SHARED, () => {
  it('have the README versions, checkpoint ids and savepoint/CANONICAL trailers', () => {
    const expected: [string, number, bigint, number][] = [
      [COMPLEX, 4, 382n, 4],
      [NON_KEYED, 4, 54n, 5],
      [HEAP, 4, 2n, 8],
      [ROCKS, 4, 1n, 8],
      [BROADCAST, 4, 1n, 8],
      [V5, 5, 2n, 8],
    ];
    for (const [folder, version, id, operators] of expected) {
      const { m } = read(folder);
      expect([m.version, m.checkpointId, m.operators.length, m.masterStates.length], folder).toEqual([version, id, operators, 0]);
      expect(m.properties, folder).toMatchObject({
        type: 'savepoint',
        formatType: 'CANONICAL',
        name: 'Savepoint',
        snapshotTypeClass: 'org.apache.flink.runtime.checkpoint.SavepointType',
      });
      expect(m.properties!.warning, folder).toBeUndefined();
      expect([745].includes(m.properties!.trailerSize), folder).toBe(true);
    }
  });

  it('write back byte for byte (reader and writer agree on every field)', () => {
    for (const folder of [COMPLEX, NON_KEYED, HEAP, ROCKS, BROADCAST, V5]) {
      const { bytes, m } = read(folder);
      const again = writeCheckpointMetadata({ ...m, trailer: bytes.subarray(m.properties!.trailerOffset!) });
      expect(Buffer.compare(Buffer.from(again), Buffer.from(bytes)), folder).toBe(0);
    }
  });

  it('complexKeyed: operators, inline operator state `_default_` at offset 180, inline code-7 keyed handles', () => {
    const { m, bytes } = read(COMPLEX);
    expect(m.operators.map((o) => [o.id, o.parallelism, o.maxParallelism, o.subtasks.length])).toEqual([
      ['6730ef7375fb60f9d9bbdfdfd174d803', 4, 128, 4],
      ['01203aa9a12dc1ec725e03853dd7c8f2', 4, 128, 4],
      ['bc764cd8ddf7a0cff126f51c16239658', 1, 128, 0],
      ['adf090656b210b1609ad3203d4ee7329', 4, 128, 4],
    ]);
    const second = op(m, '6730ef73').subtasks[0]!;
    expect(second.index).toBe(0);
    expect(second.managedOperatorState?.code).toBe(4);
    expect(second.managedOperatorState?.states).toEqual([{ name: '_default_', mode: 'SPLIT_DISTRIBUTE', offsets: [180] }]);
    const d = second.managedOperatorState!.delegate!;
    expect(d.kind).toBe('inline');
    if (d.kind !== 'inline') return;
    expect([d.name.length, d.size]).toEqual([36, 194]);
    expect(Buffer.from(bytes.subarray(d.offset, d.offset + d.size)).equals(Buffer.from(d.data))).toBe(true);
    const window = op(m, '01203aa9');
    for (let i = 0; i < 4; i++) {
      const h = keyed(window, i);
      expect(h.kind === 'key-groups' && h.code === 7 && h.delegate?.kind === 'inline', `subtask ${i}`).toBe(true);
      expect(h.kind === 'key-groups' && h.range).toEqual({ start: i * 32, end: i * 32 + 31 });
    }
  });

  it('complexKeyed: keys (0)…(9) hash to key groups whose owning subtask has data for them', () => {
    const window = op(read(COMPLEX).m, '01203aa9');
    const groups = [];
    for (let k = 0; k < 10; k++) {
      const kg = computeKeyGroup({ kind: 'tuple', fields: [{ kind: 'int', value: k }] }, 128);
      groups.push(kg);
      const h = keyed(window, computeOwningSubtask(kg, 4, 128));
      if (h.kind !== 'key-groups') throw new Error('not key-groups');
      expect(kg >= h.range.start && kg <= h.range.end).toBe(true);
      expect(h.offsets[kg - h.range.start], `key ${k}`).toBeGreaterThan(0);
    }
    expect(groups).toEqual([94, 86, 127, 113, 7, 126, 18, 113, 15, 51]);
  });

  it('nonKeyed: uids first/second/third hash to the stored ids', () => {
    const { m } = read(NON_KEYED);
    expect(m.operators.map((o) => o.id)).toEqual([
      '6730ef7375fb60f9d9bbdfdfd174d803',
      'bc764cd8ddf7a0cff126f51c16239658',
      'adf090656b210b1609ad3203d4ee7329',
      '013ef814c76e319e5fe9a82a3ba14933',
      '1265f98db15949b4489d98bcba215148',
    ]);
    for (const uid of ['first', 'second', 'third']) {
      const o = op(m, computeOperatorId(uid));
      expect(o.subtasks.map((s) => s.managedOperatorState?.states[0]?.name)).toEqual(['_default_', '_default_', '_default_', '_default_']);
    }
  });

  it('1.20 heap and RocksDB: relative file handles (code 6), keyed code 7, subtask 0 of the flat maps absent', () => {
    for (const folder of [HEAP, ROCKS]) {
      const { m } = read(folder);
      for (const [uid, id] of Object.entries(MIGRATION_JOB)) {
        expect(computeOperatorId(uid)).toBe(id);
        expect(op(m, id).maxParallelism, uid).toBe(4);
      }
      const src2 = op(m, MIGRATION_JOB.CheckpointingSource2!);
      expect(src2.parallelism).toBe(1);
      expect(src2.subtasks[0]!.managedOperatorState?.states).toEqual([{ name: 'source-state', mode: 'UNION', offsets: [188, 205, 227, 253] }]);
      expect(op(m, MIGRATION_JOB.CheckpointingSource1!).subtasks[0]!.managedOperatorState?.states).toEqual([
        { name: 'source-state', mode: 'SPLIT_DISTRIBUTE', offsets: [199, 216, 238, 264] },
      ]);
      const flatMap = op(m, MIGRATION_JOB.CheckpointingKeyedStateFlatMap1!);
      expect(flatMap.subtasks.map((s) => s.index).sort()).toEqual([1, 2, 3]);
      for (const s of flatMap.subtasks) {
        const h = s.managedKeyedState!;
        expect(h.kind === 'key-groups' && h.code === 7 && h.delegate?.kind === 'relative-file', `${folder} subtask ${s.index}`).toBe(true);
        expect(h.range).toEqual({ start: s.index, end: s.index });
      }
      // keys 0,1 → key group 2; 2 → 3; 3 → 1 (Tuple1<Long>, m = 4)
      for (const [k, kg] of [
        [0n, 2],
        [1n, 2],
        [2n, 3],
        [3n, 1],
      ] as const) {
        expect(computeKeyGroup({ kind: 'tuple', fields: [{ kind: 'long', value: k }] }, 4)).toBe(kg);
        expect(flatMap.subtasks.some((s) => s.index === computeOwningSubtask(kg, 4, 4))).toBe(true);
      }
    }
  });

  it('broadcast: BROADCAST entries with one offset each, plus header-only keyed files', () => {
    const { m } = read(BROADCAST);
    expect(computeOperatorId('BrProcess1')).toBe('12d7d939fd56473cac7cff0603179a41');
    expect(computeOperatorId('BrProcess2')).toBe('56a26c4c54bda3adf3700194db4afe93');
    expect(computeOperatorId('BrCheckpointingSource1')).toBe('81afaf64abeedc40a0f29989b81a3659');
    expect(computeOperatorId('BrCheckpointingSource2')).toBe('63dd9c79b328282531c0a8c5cb466735');
    const p1 = op(m, '12d7d939');
    for (const s of p1.subtasks) {
      const byName = Object.fromEntries(s.managedOperatorState!.states.map((e) => [e.name, e]));
      expect(byName['broadcast-state-1']).toEqual({ name: 'broadcast-state-1', mode: 'BROADCAST', offsets: [637] });
      expect(byName['broadcast-state-2']).toEqual({ name: 'broadcast-state-2', mode: 'BROADCAST', offsets: [593] });
      expect(s.managedKeyedState?.kind === 'key-groups' && s.managedKeyedState.offsets).toEqual([0]);
    }
    expect(op(m, '56a26c4c').subtasks[0]!.managedOperatorState!.states).toEqual([{ name: 'broadcast-state-3', mode: 'BROADCAST', offsets: [303] }]);
  });

  it('2.0 (V5): names and uids, uids hash to the ids, the sinks have no uid', () => {
    const { m } = read(V5);
    const named = m.operators.map((o) => [o.name, o.uid ?? '']);
    expect(named).toEqual([
      ['Source: Custom Source', 'CheckpointingSource2'],
      ['Flat Map', 'CheckpointingKeyedStateFlatMap1'],
      ['timely_stateful_operator', 'CheckpointingTimelyStatefulOperator2'],
      ['Sink: Unnamed', ''],
      ['Sink: Unnamed', ''],
      ['Flat Map', 'CheckpointingKeyedStateFlatMap2'],
      ['timely_stateful_operator', 'CheckpointingTimelyStatefulOperator1'],
      ['Source: Custom Source', 'CheckpointingSource1'],
    ]);
    for (const o of m.operators) if (o.uid) expect(o.id, o.uid).toBe(computeOperatorId(o.uid));
  });

  it('openSavepoint: every referenced file present, none unreferenced, totals equal the folder sizes', async () => {
    const expectedTotals: [string, number, number][] = [
      [COMPLEX, 14525, 0],
      [NON_KEYED, 4450, 0],
      [HEAP, 18068, 16],
      [ROCKS, 18068, 16],
      [BROADCAST, 14675, 20],
      [V5, 18406, 16],
    ];
    for (const [folder, total, fileCount] of expectedTotals) {
      const opened = await openSavepoint(folderFiles(folder));
      expect(opened.totals.totalSize, folder).toBe(total);
      expect(opened.totals.referencedFiles.length, folder).toBe(fileCount);
      expect(opened.totals.missingFiles, folder).toEqual([]);
      expect(opened.totals.unreferencedFiles, folder).toEqual([]);
      expect(opened.warnings, folder).toEqual([]);
      expect(opened.totals.stateSize, folder).toBe(total - opened.totals.metadataSize + opened.totals.inlineSize);
    }
  });

  it('openSavepoint: a relative handle resolves to the file next to _metadata, inline to a view into _metadata', async () => {
    const opened = await openSavepoint(folderFiles(HEAP));
    const s = op(opened.metadata, MIGRATION_JOB.CheckpointingKeyedStateFlatMap1!).subtasks[0]!;
    const h = s.managedKeyedState!;
    if (h.kind !== 'key-groups' || !h.delegate || h.delegate.kind !== 'relative-file') throw new Error('expected a relative handle');
    const r = opened.resolveStreamHandle(h.delegate);
    expect(r.source.name).toBe(`${HEAP}/${h.delegate.relativePath}`);
    expect(r.source.size).toBe(h.delegate.size);
    expect(r.baseOffset).toBe(0);

    const complex = await openSavepoint(folderFiles(COMPLEX));
    const inline = op(complex.metadata, '6730ef73').subtasks[0]!.managedOperatorState!.delegate!;
    const ri = complex.resolveStreamHandle(inline);
    expect(ri.file).toBe(`${COMPLEX}/_metadata`);
    expect(inline.kind === 'inline' && ri.baseOffset === inline.offset).toBe(true);
    expect(ri.source.name.startsWith(`${COMPLEX}/_metadata#`)).toBe(true);
    expect((await ri.source.read(0, 4)).length).toBe(4);
  });
});
