/**
 * Sampling (every n-th key group, first N entries per state) over a generated savepoint: the
 * sampled counts equal counts computed independently from the generator's keys, the coverage
 * says how many key groups were read, and the bytes read shrink to the sampled blocks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeKeyGroup, createSnapshotRegistry, openSavepoint, readCheckpointMetadata, type SnapshotRegistry } from '../../src/core/flink';
import { countStateEntries } from '../../src/core/flink/scan/count-state-entries';
import { readStateEntries } from '../helpers/read-state-entries';
import type { ByteSource, SavepointFiles } from '../../src/core/io';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { useGeneratedBenchSavepoint } from '../helpers/use-generated-bench-savepoint';

const sp = useGeneratedBenchSavepoint('perf-sample-', { targetBytes: 3 * 1024 * 1024, parallelism: 3 });

function registry(): SnapshotRegistry {
  const r = createSnapshotRegistry();
  registerProtobufSnapshotReaders(r);
  return r;
}

/** The input with every state-file read counted. */
async function openCounted(): Promise<{ files: SavepointFiles; read: { bytes: number } }> {
  const inner = await openNodeInput(sp.dir);
  const read = { bytes: 0 };
  const wrap = (s: ByteSource): ByteSource => ({
    name: s.name,
    size: s.size,
    read(offset, length) {
      read.bytes += length;
      return s.read(offset, length);
    },
  });
  return {
    files: {
      ...inner,
      resolveRelative: (p) => {
        const s = inner.resolveRelative(p);
        return s && wrap(s);
      },
    },
    read,
  };
}

/** Entries per state among the keys of key groups that are multiples of `every` (from the generator's key scheme). */
function expectedSample(every: number): { events: number; lastEvent: number; lastEventGroups: Set<number> } {
  let events = 0;
  let lastEvent = 0;
  const lastEventGroups = new Set<number>();
  for (let i = 0; i < sp.manifest.keys; i++) {
    const kg = computeKeyGroup({ kind: 'string', value: `user-${i}` }, 128);
    if (kg % every !== 0) continue;
    events++;
    if (i % 4 === 0) {
      lastEvent++;
      lastEventGroups.add(kg);
    }
  }
  return { events, lastEvent, lastEventGroups };
}

/** Header bytes + the byte length of each key-group block whose key group is a multiple of `every`. */
function expectedBytes(every: number): number {
  const md = readCheckpointMetadata(new Uint8Array(readFileSync(path.join(sp.dir, '_metadata'))));
  let total = 0;
  for (const s of md.operators[0]!.subtasks) {
    const h = s.managedKeyedState!;
    if (h.kind !== 'key-groups' || h.delegate?.kind !== 'relative-file') throw new Error('unexpected handle');
    const fileSize = h.delegate.size;
    const blocks = h.offsets
      .map((o, i) => ({ kg: h.range.start + i, o }))
      .filter((b) => b.o > 0)
      .sort((a, b) => a.o - b.o);
    total += blocks[0]!.o;
    blocks.forEach((b, i) => {
      if (b.kg % every === 0) total += (i + 1 < blocks.length ? blocks[i + 1]!.o : fileSize) - b.o;
    });
  }
  return total;
}

describe('sampling state entries', () => {
  it('counts every 4th key group exactly, reports the coverage, and reads only those blocks', async () => {
    const { files, read } = await openCounted();
    const result = await countStateEntries(await openSavepoint(files), registry(), { sample: { kind: 'key-groups', every: 4 } });
    const want = expectedSample(4);
    expect(result.errors).toEqual([]);
    expect(result.counts).toEqual([
      { operatorId: sp.manifest.operatorId, state: 'events', scope: 'keyed', entries: want.events, sampled: true },
      { operatorId: sp.manifest.operatorId, state: 'last-event', scope: 'keyed', entries: want.lastEvent, sampled: true },
    ]);
    expect(result.coverage).toEqual({ sample: { kind: 'key-groups', every: 4 }, keyGroupsRead: 32, keyGroupsWithData: 128 });
    // each subtask's header once, then exactly the sampled blocks
    expect(read.bytes).toBe(expectedBytes(4));
    expect(want.events).toBeGreaterThan(0);
    expect(want.events).toBeLessThan(sp.manifest.keys / 2);
  });

  it('without a sample counts everything and reports no coverage', async () => {
    const result = await countStateEntries(await openSavepoint(await openNodeInput(sp.dir)), registry());
    expect(result.coverage).toBeUndefined();
    expect(result.counts.map((c) => [c.state, c.entries, c.sampled])).toEqual([
      ['events', sp.manifest.keys, undefined],
      ['last-event', sp.manifest.entries - sp.manifest.keys, undefined],
    ]);
  });

  it('first N entries per state: each state counts N and reading stops early', async () => {
    const { files, read } = await openCounted();
    const result = await countStateEntries(await openSavepoint(files), registry(), { sample: { kind: 'first-entries', count: 50 } });
    expect(result.counts.map((c) => [c.state, c.entries, c.sampled])).toEqual([
      ['events', 50, true],
      ['last-event', 50, true],
    ]);
    // the first subtask's stream holds more than 50 entries of each state: the others' headers only
    expect(read.bytes).toBeLessThan(sp.manifest.files[0]!.size + 2 * 4096);
    expect(read.bytes).toBeLessThan(sp.manifest.totalBytes / 2);
  });

  it('readStateEntries with a key-group sample yields only sampled key groups', async () => {
    const coverage = { keyGroupsRead: 0, keyGroupsWithData: 0 };
    const groups = new Set<number>();
    let n = 0;
    for await (const e of readStateEntries(await openNodeInput(sp.dir), registry(), {
      operatorId: 'bench-events',
      state: 'last-event',
      sample: { kind: 'key-groups', every: 8 },
      coverage,
    })) {
      groups.add(e.keyGroup!);
      n++;
    }
    const want = expectedSample(8);
    expect(n).toBe(want.lastEvent);
    expect([...groups].sort((a, b) => a - b)).toEqual([...want.lastEventGroups].sort((a, b) => a - b));
    expect([...groups].every((g) => g % 8 === 0)).toBe(true);
    expect(coverage).toEqual({ keyGroupsRead: 16, keyGroupsWithData: 128 });
  });

  it('readStateEntries with first-entries stops at N', async () => {
    let n = 0;
    for await (const _ of readStateEntries(await openNodeInput(sp.dir), registry(), {
      operatorId: 'bench-events',
      state: 'events',
      sample: { kind: 'first-entries', count: 7 },
      limit: 100,
    }))
      n++;
    expect(n).toBe(7);
  });

  it('rejects a sampling interval below 1 with the expected text', async () => {
    await expect(countStateEntries(await openSavepoint(await openNodeInput(sp.dir)), registry(), { sample: { kind: 'key-groups', every: 0 } })).rejects.toThrow(
      'expected a key-group sampling interval of at least 1, found 0',
    );
    await expect(
      countStateEntries(await openSavepoint(await openNodeInput(sp.dir)), registry(), { sample: { kind: 'first-entries', count: 1.5 } }),
    ).rejects.toThrow('expected a per-state entry count of at least 1, found 1.5');
  });
});
