/**
 * The app's state statistics read canonical keyed entries in place (rows whose key checks in place and
 * whose value is one Protobuf frame, KeyedEntryRun) and decode the rest; with readInPlace: false every
 * entry is decoded. Both give the same statistics and the same entry index, for every state of every
 * canonical fixture savepoint (plain, Snappy, inline; Flink 1.20 and 2.3) and of a generated one,
 * whole and sampled.
 */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createSnapshotRegistry, KeyedEntryRun, openSavepoint, type StateSample } from '../core/flink';
import { readSubtaskKeyedStream } from '../core/flink/headers/read-subtask-state-headers';
import { openNodeInput } from '../cli/sources';
import { useGeneratedBenchSavepoint } from '../../tests/helpers/use-generated-bench-savepoint';
import { registerProtobufSnapshotReaders } from '../core/protobuf';
import { scanStateStatistics } from './scan-state-statistics';
import { requireCommitted } from '../../tests/helpers/committed-data';

// every canonical fixture (RocksDB has no inline variant); committed, so a missing one fails the file
const FIXTURES = ['flink-1.20', 'flink-2.3'].flatMap((v) =>
  ['hashmap', 'rocksdb'].flatMap((b) =>
    (b === 'rocksdb' ? ['canonical', 'canonical-compressed'] : ['canonical', 'canonical-compressed', 'canonical-inline']).map((k) =>
      path.resolve(process.cwd(), 'fixtures/savepoints', v, b, k, 'savepoint'),
    ),
  ),
);
for (const dir of FIXTURES) requireCommitted(path.join(dir, '_metadata'));

/** Statistics of every state with the in-place read on and off; the number of states, and of entries read in place. */
async function compareStates(dir: string, sample?: StateSample): Promise<{ states: number; inPlace: number; rows: number }> {
  let inPlaceRows = 0;
  let rows = 0;
  const files = await openNodeInput(dir);
  const opened = await openSavepoint(files);
  let states = 0;
  for (const op of opened.metadata.operators) {
    const names = new Set<string>();
    for (const s of op.subtasks) for (const st of s.managedOperatorState?.states ?? []) names.add(st.name);
    // keyed state names come from the headers: read them through the scan of any state (its parts list them)
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    for (const s of op.subtasks) for (const st of (await readSubtaskKeyedStream(opened, op, s, registry))?.header?.states ?? []) names.add(st.name);
    for (const state of names) {
      const run = async (readInPlace: boolean) => {
        const r = createSnapshotRegistry();
        registerProtobufSnapshotReaders(r);
        return scanStateStatistics(
          opened,
          r,
          { operatorId: op.id, state, ...(sample ? { sample } : {}) },
          { signal: { aborted: false }, bytesRead: () => 0, readInPlace },
        );
      };
      // entries read in place are the ones the in-place run did not decode
      const decodeRow = vi.spyOn(KeyedEntryRun.prototype, 'decodeRow');
      const inPlace = await run(true);
      const decodedRows = decodeRow.mock.calls.length;
      decodeRow.mockRestore();
      const decoded = await run(false);
      expect(inPlace, `${dir} ${state}`).toEqual(decoded);
      inPlaceRows += decoded.index.total - decodedRows;
      rows += decoded.index.total;
      states++;
    }
  }
  return { states, inPlace: inPlaceRows, rows };
}

describe("the app's state statistics read in place equal those of every entry decoded", () => {
  const bench = useGeneratedBenchSavepoint('app-stats-', { targetBytes: 768 * 1024, parallelism: 2 });

  it('every state of every canonical fixture savepoint', async () => {
    let states = 0;
    let inPlace = 0;
    for (const dir of FIXTURES) {
      const r = await compareStates(dir);
      states += r.states;
      inPlace += r.inPlace;
    }
    expect(states).toBeGreaterThan(20);
    // the fixtures' Protobuf value states are read in place (a comparison alone would pass if nothing were)
    expect(inPlace).toBeGreaterThan(100);
  });

  it('a generated savepoint, whole, every other key group and the first 100 entries', async () => {
    for (const sample of [undefined, { kind: 'key-groups', every: 2 } as const, { kind: 'first-entries', count: 100 } as const]) {
      const r = await compareStates(bench.dir, sample);
      expect(r.states).toBe(2);
      // String keys and Protobuf values only: every entry is read in place
      expect(r.rows).toBeGreaterThanOrEqual(100);
      expect(r.inPlace).toBe(r.rows);
    }
  });
});
