/**
 * The app's TTL numbers for a state (its values, entries, oldest and newest access, and the values and
 * entries expired under a TTL the user types, at the newest access or a time given) equal `stats --ttl X
 * --format json`'s: the worker keeps core/report's TTL tally and a histogram of the access times, and
 * counts the expired values again from it for each TTL and time, without scanning again.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, openSavepoint } from '../core/flink';
import { countTtlExpired, parseTtlAt, parseTtlDuration, type TtlTally } from '../core/report';
import { registerProtobufSnapshotReaders } from '../core/protobuf';
import { openNodeInput } from '../cli/sources';
import { runCli } from '../cli/run-cli';
import { scanStateStatistics } from './scan-state-statistics';
import { requireCommitted } from '../../tests/helpers/committed-data';

const FIXTURES = {
  // the fixture savepoint of the e2e: its TTL state's three values share one access time
  canonical: requireCommitted(path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint')),
  // an incremental RocksDB checkpoint whose TTL values were written at two times (its manifest)
  checkpoint: requireCommitted(path.resolve(process.cwd(), 'fixtures/rocksdb-checkpoints/flink-2.3/zstd/chk-2')),
};

interface StatsJson {
  states: { operatorId: string; state: string; ttl?: TtlTally }[];
  ttlExpiry?: { ttlMs: number; atMs: number | null; at: string };
}

async function statsJson(input: string, ...args: string[]): Promise<StatsJson> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['stats', input, '--format', 'json', '--workers', '1', ...args], {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
  });
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as StatsJson;
}

describe("the app's TTL numbers of a state", () => {
  // [fixture, TTL state, TTL, --ttl-at (none: the newest access), how many values stats finds expired]
  const cases: [keyof typeof FIXTURES, string, string, (newest: number, oldest: number) => string | undefined, 'none' | 'some' | 'all'][] = [
    ['canonical', 'ttl-last-event', '7d', () => undefined, 'none'],
    ['canonical', 'ttl-last-event', '7d', (newest) => new Date(newest + 7 * 86_400_000).toISOString(), 'all'],
    ['checkpoint', 'ttl-last', '1ms', () => undefined, 'some'],
    ['checkpoint', 'ttl-last', '30s', (newest, oldest) => String(oldest + 30_000), 'some'],
  ];
  for (const [fixture, state, ttl, atOf, expect_] of cases) {
    it(`${fixture} ${state}: its tally, and --ttl ${ttl} ${atOf(0, 0) === undefined ? 'at the newest access' : 'at a time given'}, as stats --format json gives them`, async () => {
      const input = FIXTURES[fixture];
      const plain = await statsJson(input);
      const cliState = plain.states.find((s) => s.state === state)!;
      // the input's only TTL state: stats' default time (the savepoint's newest access) is this state's, which the app takes
      expect(plain.states.filter((s) => s.ttl).map((s) => s.state)).toEqual([state]);

      const opened = await openSavepoint(await openNodeInput(input));
      const registry = createSnapshotRegistry();
      registerProtobufSnapshotReaders(registry);
      const { stats } = await scanStateStatistics(
        opened,
        registry,
        { operatorId: cliState.operatorId, state },
        { signal: { aborted: false }, bytesRead: () => 0 },
      );
      expect(stats.ttl).toEqual(cliState.ttl);
      expect(stats.ttlAccess!.widthMs).toBe(1);

      const { oldestAccess, newestAccess } = cliState.ttl!;
      const at = atOf(newestAccess!, oldestAccess!);
      const judged = await statsJson(input, '--ttl', ttl, ...(at === undefined ? [] : ['--ttl-at', at]));
      const c = judged.states.find((s) => s.state === state)!.ttl!;
      const atMs = at === undefined ? stats.ttl!.newestAccess! : parseTtlAt(at)!;
      expect(judged.ttlExpiry!.atMs).toBe(atMs);
      const app = countTtlExpired(stats.ttlAccess!, { ttlMs: parseTtlDuration(ttl)!, atMs });
      expect(app).toEqual({ expiredValues: c.expiredValues, expiredEntries: c.expiredEntries, undecidedValues: 0, undecidedEntries: 0 });
      // each case is what it says: none, some or all of the values expired
      const n = c.values;
      expect(expect_ === 'none' ? app.expiredValues === 0 : expect_ === 'all' ? app.expiredValues === n : app.expiredValues > 0 && app.expiredValues < n).toBe(
        true,
      );
    });
  }
});
