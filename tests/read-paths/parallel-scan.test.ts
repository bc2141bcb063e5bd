/**
 * The parallel statistics scan (worker threads + structural Protobuf scan): the same result with
 * 1 and 2 workers, entry counts equal to the full decoder's, every state byte read exactly once,
 * and the `stats` command's text for a sampled scan.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, openSavepoint } from '../../src/core/flink';
import { countStateEntries } from '../../src/core/flink/scan/count-state-entries';
import { readStateEntries } from '../helpers/read-state-entries';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { runCli } from '../../src/cli/run-cli';
import { runParallelScan, splitUnits } from '../../src/cli/scan/run-parallel-scan';
import { useGeneratedBenchSavepoint } from '../helpers/use-generated-bench-savepoint';

const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const sp = useGeneratedBenchSavepoint('perf-scan-', { targetBytes: 2 * 1024 * 1024, parallelism: 4 });

describe('parallel statistics scan', () => {
  it('gives the same statistics with 1 and 2 workers, reading every state byte once', async () => {
    const one = await runParallelScan(sp.dir, { workers: 1 });
    const two = await runParallelScan(sp.dir, { workers: 2 });
    expect(one.workers).toBe(1);
    expect(two.workers).toBe(2);
    expect(two.states).toEqual(one.states);
    expect(two.errors).toEqual([]);
    const stateFileBytes = sp.manifest.files.reduce((s, f) => s + f.size, 0);
    expect(one.bytesRead).toBe(stateFileBytes);
    expect(two.bytesRead).toBe(stateFileBytes);
    expect(one.states.map((s) => [s.state, s.entries, s.protobuf?.values, s.protobuf?.unreadableValues])).toEqual([
      ['events', sp.manifest.keys, sp.manifest.keys, 0],
      ['last-event', sp.manifest.entries - sp.manifest.keys, sp.manifest.entries - sp.manifest.keys, 0],
    ]);
    for (const s of one.states) expect(s.protobuf!.totalPayloadBytes).toBe(s.valueBytes - 4 * s.entries);
  });

  it('agrees with the full decoder on a real Flink savepoint with Protobuf state (entries, payload sizes, unknown fields)', async () => {
    const stats = await runParallelScan(FIXTURE, { workers: 2 });
    expect(stats.errors).toEqual([]);
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const counts = await countStateEntries(await openSavepoint(await openNodeInput(FIXTURE)), registry);
    const byKey = (x: { operatorId: string; scope: string; state: string }) => `${x.operatorId}/${x.scope}/${x.state}`;
    expect(Object.fromEntries(stats.states.map((s) => [byKey(s), s.entries]))).toEqual(Object.fromEntries(counts.counts.map((c) => [byKey(c), c.entries])));
    const keyed = stats.states.find((s) => s.state === 'last-event')!;
    let payload = 0;
    let unknown = 0;
    let values = 0;
    for await (const e of readStateEntries(await openNodeInput(FIXTURE), registry, { operatorId: keyed.operatorId, state: 'last-event' })) {
      if (e.value?.kind !== 'message') continue;
      values++;
      payload += e.value.payloadSize;
      unknown += e.value.unknownFieldCount;
    }
    expect(values).toBeGreaterThan(0);
    expect(keyed.protobuf).toMatchObject({ values, totalPayloadBytes: payload, unknownFields: unknown });
  });

  it('splits subtasks over workers largest first to the least loaded', () => {
    const u = (subtask: number, bytes: number) => ({ operatorId: 'a', subtask, bytes });
    expect(splitUnits([u(0, 10), u(1, 70), u(2, 30), u(3, 40)], 2)).toEqual([
      [u(1, 70), u(0, 10)],
      [u(3, 40), u(2, 30)],
    ]);
    expect(splitUnits([u(0, 5)], 2)).toEqual([[u(0, 5)]]);
  });

  it('the stats command shows the sample size and rejects two sampling modes', async () => {
    let out = '';
    let err = '';
    const io = { stdout: (t: string) => void (out += t), stderr: (t: string) => void (err += t) };
    expect(await runCli(['stats', sp.dir, '--every-key-group', '8', '--workers', '1'], io)).toBe(0);
    expect(out).toContain('  SAMPLE (key groups 0, 8, 16, …): 16 of 128 key groups with data read; counts cover the sample only\n');
    // --limit caps every state at N entries, also when more workers are asked for
    out = '';
    expect(await runCli(['stats', sp.dir, '--limit', '3', '--format', 'json', '--workers', '2'], io)).toBe(0);
    const firstThree = JSON.parse(out) as { states: { entries: number; protobuf?: { values: number } }[]; workers: number };
    expect(firstThree.workers).toBe(1);
    expect(firstThree.states.length).toBeGreaterThan(0);
    for (const s of firstThree.states) {
      expect(s.entries).toBeLessThanOrEqual(3);
      if (s.protobuf) expect(s.protobuf.values).toBe(s.entries);
    }
    expect(firstThree.states.some((s) => s.entries === 3)).toBe(true);
    expect(await runCli(['stats', sp.dir, '--every-key-group', '8', '--limit', '3'], io)).toBe(2);
    expect(err).toContain('savepoint-inspector stats: use either --every-key-group or --limit, not both');
    expect(await runCli(['stats', sp.dir, '--workers', '0'], io)).toBe(2);
    expect(err).toContain("--workers expects a whole number of at least 1, found '0'");
  });
});
