/**
 * `stats`' largest values, key-group skew and timers per operator on a real Flink savepoint: the same with
 * 1 and 2 workers, and what the full decoder's entries give (value sizes, key groups) — computed here
 * independently of the statistics visitor — plus the exact numbers of the fixture's largest value.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry } from '../../src/core/flink';
import { describeEntryKey } from '../../src/core/compat';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { runParallelScan } from '../../src/cli/scan/run-parallel-scan';
import { runCli } from '../../src/cli/run-cli';
import { requireCommitted } from '../helpers/committed-data';
import { readStateEntries } from '../helpers/read-state-entries';

const FIXTURE = requireCommitted(path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint'));

describe('stats: largest values, key-group skew, timers', () => {
  it('gives the largest values and the bytes per key group the full decoder gives, with 1 and 2 workers alike', async () => {
    const one = await runParallelScan(FIXTURE, { workers: 1 });
    const two = await runParallelScan(FIXTURE, { workers: 2 });
    const byName = (a: { operatorId: string; state: string }, b: { operatorId: string; state: string }) =>
      a.operatorId.localeCompare(b.operatorId) || a.state.localeCompare(b.state);
    // (the Protobuf findings' examples follow the workers' order; the value sizes do not)
    const sizesOf = (r: typeof one) =>
      [...r.states].sort(byName).map((s) => ({ op: s.operatorId, state: s.state, entries: s.entries, largest: s.largestValues, skew: s.keyGroupSkew }));
    expect(sizesOf(two)).toEqual(sizesOf(one));
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    for (const s of one.states.filter((x) => x.scope === 'keyed' && x.entries > 0)) {
      const sizes: { key: string; keyGroup: number; subtask: number; valueBytes: number }[] = [];
      const byKeyGroup = new Map<number, number>();
      for await (const e of readStateEntries(await openNodeInput(FIXTURE), registry, { operatorId: s.operatorId, state: s.state })) {
        sizes.push({ key: describeEntryKey(e.key, e.userKey), keyGroup: e.keyGroup, subtask: e.subtask, valueBytes: e.valueRange.length });
        byKeyGroup.set(e.keyGroup, (byKeyGroup.get(e.keyGroup) ?? 0) + e.valueRange.length);
      }
      expect(sizes.length).toBe(s.entries);
      const expected = sizes
        .sort((a, b) => b.valueBytes - a.valueBytes || a.subtask - b.subtask || a.keyGroup - b.keyGroup || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .slice(0, 5);
      expect(s.largestValues, `${s.operatorId} ${s.state}`).toEqual(expected);
      const largest = Math.max(...byKeyGroup.values());
      expect(s.keyGroupSkew).toMatchObject({ keyGroups: byKeyGroup.size, largest: { valueBytes: largest } });
      expect(byKeyGroup.get(s.keyGroupSkew!.largest.keyGroup)).toBe(largest);
    }
  });

  it("names the fixture's largest value and its key group, and the large-event state's skew", async () => {
    const stats = await runParallelScan(FIXTURE, { workers: 1 });
    const large = stats.states.find((s) => s.state === 'large-event')!;
    expect(large.largestValues![0]).toEqual({ key: '"user-0"', keyGroup: 8, subtask: 0, valueBytes: 19994 });
    expect(large.keyGroupSkew).toEqual({ keyGroups: 3, largest: { keyGroup: 8, entries: 1, valueBytes: 19994 }, medianValueBytes: 114, skew: 19994 / 114 });
    // the operator state has no key groups: its largest values, no skew
    const processed = stats.states.find((s) => s.state === 'processed-events')!;
    expect(processed.keyGroupSkew).toBeUndefined();
    expect(processed.largestValues!.map((v) => v.keyGroup)).toEqual([-1, -1, -1, -1, -1]);
    // three operators with timer queues, all empty in this savepoint
    expect([...stats.timers].sort((a, b) => a.operatorId.localeCompare(b.operatorId))).toEqual([
      { operatorId: '69ee92ec1299dfd00071bfb77ad99663', timers: 0 },
      { operatorId: '6d821971c3bfd7ae2c972e89d7414f7c', timers: 0 },
      { operatorId: '732aacc57f1a1cd4ab51694dd9eed722', timers: 0 },
    ]);
  });

  it('prints them in a few lines of text, and as plain numbers in JSON', async () => {
    let out = '';
    const io = { stdout: (t: string) => void (out += t), stderr: () => undefined };
    expect(await runCli(['stats', FIXTURE, '--workers', '1'], io)).toBe(0);
    const text = { stdout: out };
    expect(text.stdout).toContain('  Largest values:\n      19.5 KiB  69ee92ec large-event  key "user-0", key group 8, subtask 0\n');
    expect(text.stdout).toContain('    69ee92ec large-event: key group 8 19.5 KiB (1 entry), 175× the median 114 B of 3 key groups\n');
    expect(text.stdout).toContain('  Where the bytes are (115.9 KiB of state handles, from _metadata):\n');
    out = '';
    expect(await runCli(['stats', FIXTURE, '--workers', '1', '--format', 'json'], io)).toBe(0);
    const json = JSON.parse(out) as Record<string, unknown>;
    expect((json['sizes'] as { totalBytes: number }).totalBytes).toBe(118711);
    const states = json['states'] as { state: string; largestValues?: unknown; valueSizes?: unknown }[];
    expect(states.find((s) => s.state === 'large-event')!.largestValues).toEqual([
      { key: '"user-0"', keyGroup: 8, subtask: 0, valueBytes: 19994 },
      expect.objectContaining({ subtask: expect.any(Number) }),
      expect.objectContaining({ subtask: expect.any(Number) }),
    ]);
    expect(states.every((s) => s.valueSizes === undefined)).toBe(true);
  });
});
