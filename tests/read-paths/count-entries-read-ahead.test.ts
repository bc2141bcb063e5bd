/**
 * The entry count reads subtasks a bounded number at once (issue #35) and merges what they count in
 * scan order, whatever order their reads end in: with the first subtask's state file slow and failing,
 * and a later subtask's failing at once, the result (counts, errors, gaps) is the one the same input
 * gives without delays, its errors in scan order; more than one read and at most COUNT_READ_AHEAD
 * reads are open at once. No timing is asserted: the delay only reorders when reads end.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, openSavepoint, type SnapshotRegistry } from '../../src/core/flink';
import type { KeyedStateHandle } from '../../src/core/flink/metadata/metadata-types';
import { COUNT_READ_AHEAD, countStateEntries } from '../../src/core/flink/scan/count-state-entries';
import { listStateScanUnits } from '../../src/core/flink/scan/scan-state';
import { DecodeError, type ByteSource, type SavepointFiles } from '../../src/core/io';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';

const FIXTURE = path.resolve(__dirname, '../../fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');

function registry(): SnapshotRegistry {
  const r = createSnapshotRegistry();
  registerProtobufSnapshotReaders(r);
  return r;
}

interface ReadLog {
  open: number;
  maxOpen: number;
}

/** The input with its state-file reads counted while open; reads of `slow` files end only after a timer, every read of a `broken` file fails. */
function wrapFiles(inner: SavepointFiles, slow: ReadonlySet<string>, broken: ReadonlySet<string>, log: ReadLog): SavepointFiles {
  const wrap = (p: string, s: ByteSource): ByteSource => ({
    name: s.name,
    size: s.size,
    async read(offset, length) {
      log.open++;
      log.maxOpen = Math.max(log.maxOpen, log.open);
      try {
        if (slow.has(p)) await new Promise((resolve) => setTimeout(resolve, 50));
        if (broken.has(p))
          throw new DecodeError({ code: 'invalid-value', file: s.name, offset, detail: `expected readable bytes, found a test failure (${p})` });
        return await s.read(offset, length);
      } finally {
        log.open--;
      }
    },
  });
  return {
    ...inner,
    resolveRelative(p) {
      const s = inner.resolveRelative(p);
      return s && wrap(p, s);
    },
  };
}

function keyedFile(h: KeyedStateHandle | null): string | undefined {
  const d = h !== null && 'delegate' in h ? h.delegate : null;
  return d?.kind === 'relative-file' ? d.relativePath : undefined;
}

describe('entry count: subtasks read a bounded number at once, merged in scan order', () => {
  it('a slow failing first subtask and a later failing subtask: the same result as without delays, errors in scan order, reads open together within the bound', async () => {
    const inner = await openNodeInput(FIXTURE);
    const units = listStateScanUnits(await openSavepoint(inner), {}).filter(([, s]) => keyedFile(s.managedKeyedState) !== undefined);
    expect(units.length).toBeGreaterThanOrEqual(COUNT_READ_AHEAD);
    // the first subtask and the last one read together with it
    const early = keyedFile(units[0]![1].managedKeyedState)!;
    const late = keyedFile(units[COUNT_READ_AHEAD - 1]![1].managedKeyedState)!;
    const broken = new Set([early, late]);

    const plainLog: ReadLog = { open: 0, maxOpen: 0 };
    const plain = await countStateEntries(await openSavepoint(wrapFiles(inner, new Set(), broken, plainLog)), registry());
    const slowLog: ReadLog = { open: 0, maxOpen: 0 };
    const slow = await countStateEntries(await openSavepoint(wrapFiles(inner, new Set([early]), broken, slowLog)), registry());

    expect(slowLog.maxOpen).toBeGreaterThan(1);
    expect(slowLog.maxOpen).toBeLessThanOrEqual(COUNT_READ_AHEAD);
    expect(slow).toEqual(plain);
    // the early subtask's error first, though the late one's failure ended first
    expect(slow.errors.map((e) => e.detail)).toEqual([
      `expected readable bytes, found a test failure (${early})`,
      `expected readable bytes, found a test failure (${late})`,
    ]);
    const failed = slow.gaps.filter((g) => g.kind === 'failed');
    expect(failed.map((g) => [g.operatorId, g.subtask, g.scope])).toEqual([
      [units[0]![0].id, units[0]![1].index, 'keyed'],
      [units[COUNT_READ_AHEAD - 1]![0].id, units[COUNT_READ_AHEAD - 1]![1].index, 'keyed'],
    ]);
    // the other subtasks are counted in full
    expect(slow.counts.some((c) => c.entries > 0)).toBe(true);
  });
});
