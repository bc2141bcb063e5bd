/**
 * The app's state statistics name the largest values (key, key group, subtask, value bytes) and the
 * key-group skew that `stats` gives for the same state: one core tally (core/report's value-size tally)
 * under both, on a canonical and a RocksDB native fixture savepoint.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, openSavepoint } from '../core/flink';
import { openNodeInput } from '../cli/sources';
import { runParallelScan } from '../cli/scan/run-parallel-scan';
import { registerProtobufSnapshotReaders } from '../core/protobuf';
import { scanStateStatistics } from './scan-state-statistics';
import { requireCommitted } from '../../tests/helpers/committed-data';

const FIXTURES = ['flink-1.20/hashmap/canonical', 'flink-2.3/rocksdb/native'].map((f) =>
  requireCommitted(path.resolve(process.cwd(), 'fixtures/savepoints', f, 'savepoint')),
);

describe("the app's state statistics: largest values and key-group skew", () => {
  for (const dir of FIXTURES) {
    it(`${path.relative(process.cwd(), dir)}: every state's as stats gives them`, async () => {
      const cli = await runParallelScan(dir, { workers: 1 });
      const opened = await openSavepoint(await openNodeInput(dir));
      let compared = 0;
      for (const s of cli.states.filter((x) => x.entries > 0)) {
        const registry = createSnapshotRegistry();
        registerProtobufSnapshotReaders(registry);
        const { stats } = await scanStateStatistics(
          opened,
          registry,
          { operatorId: s.operatorId, state: s.state },
          { signal: { aborted: false }, bytesRead: () => 0 },
        );
        expect(stats.largestValues, `${s.operatorId} ${s.state}`).toEqual(s.largestValues);
        expect(stats.keyGroupSkew, `${s.operatorId} ${s.state}`).toEqual(s.keyGroupSkew);
        compared++;
      }
      expect(compared).toBeGreaterThan(3);
      // the fixture's largest value, named as stats names it
      const large = cli.states.find((x) => x.state === 'large-event')!;
      expect(large.largestValues![0]).toMatchObject({ key: '"user-0"', keyGroup: 8, subtask: 0 });
    });
  }
});
