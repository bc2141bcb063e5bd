/**
 * buildSizeBreakdown over the committed fixture savepoints: every handle byte is in exactly one part,
 * the parts add up to the bytes on disk, and the split of one savepoint by operator → state → subtask
 * is the one its files and `_metadata`'s offsets give.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSavepointRegistry } from '../../src/core/compat';
import { openSavepointSession } from '../../src/core/flink';
import { buildSizeBreakdown, sizedStatesOf, type SizeBreakdown } from '../../src/core/report';
import { requireCommitted, requireCommittedCases } from '../helpers/committed-data';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';

const ROOT = requireCommitted('fixtures/savepoints');
const CASES = requireCommittedCases(
  'fixture savepoints',
  ['flink-1.20', 'flink-2.3'].flatMap((v) =>
    ['hashmap', 'rocksdb'].flatMap((b) => readdirSync(path.join(ROOT, v, b)).map((variant) => `${v}/${b}/${variant}`)),
  ),
);

async function breakdownOf(folder: string): Promise<{ breakdown: SizeBreakdown; stateSize: number }> {
  const session = await openSavepointSession(openFolderSavepoint(folder), createSavepointRegistry({}));
  return {
    breakdown: buildSizeBreakdown(session.opened.metadata, sizedStatesOf(await session.inspect({ countEntries: false }))),
    stateSize: session.opened.totals.stateSize,
  };
}

/** Bytes of the files next to `_metadata` (the state files; none is referenced twice in these fixtures). */
function stateFileBytes(folder: string): number {
  return readdirSync(folder)
    .filter((n) => n !== '_metadata')
    .reduce((s, n) => s + statSync(path.join(folder, n)).size, 0);
}

describe('buildSizeBreakdown over the fixture savepoints', () => {
  it.each(CASES)('%s: the parts add up to every handle byte, the files on disk for file handles', async (c) => {
    const folder = path.join(ROOT, c, 'savepoint');
    const { breakdown, stateSize } = await breakdownOf(folder);
    for (const op of breakdown.operators) {
      expect(op.parts.reduce((s, p) => s + p.bytes, 0)).toBe(op.bytes);
      for (const p of op.parts) if (p.scope !== 'coordinator') expect(p.subtasks.reduce((s, t) => s + t.bytes, 0)).toBe(p.bytes);
    }
    // the sizes the savepoint's totals resolve (a handle without a size: its file's) are the handles' sizes
    expect(breakdown.totalBytes).toBe(stateSize);
    if (!c.endsWith('inline')) expect(breakdown.totalBytes).toBeGreaterThanOrEqual(stateFileBytes(folder));
    expect(breakdown.operators.map((o) => o.bytes)).toEqual([...breakdown.operators.map((o) => o.bytes)].sort((a, b) => b - a));
  });

  it('flink-1.20 hashmap canonical: each operator state by its offsets, each keyed stream as header and data shared by its states', async () => {
    const folder = path.join(ROOT, 'flink-1.20/hashmap/canonical/savepoint');
    const { breakdown } = await breakdownOf(folder);
    // the state files' bytes, and the two sources' coordinator state, 16 bytes each inline in `_metadata`
    expect(stateFileBytes(folder)).toBe(118679);
    const coordinators = breakdown.operators.flatMap((o) => o.parts).filter((p) => p.scope === 'coordinator');
    expect(coordinators.map((p) => [p.label, p.bytes])).toEqual([
      ['coordinator state', 16],
      ['coordinator state', 16],
    ]);
    expect(breakdown.totalBytes).toBe(118679 + 32);
    const op = breakdown.operators[0]!;
    expect(op).toMatchObject({ operatorId: '6d821971c3bfd7ae2c972e89d7414f7c', bytes: 80514 });
    const part = (label: string) => op.parts.find((p) => p.label === label);
    // subtask 0's operator state file is 10427 bytes (a9f0faf4-…), subtask 1's 20615 (f14a1561-…)
    const size = (name: string) => statSync(path.join(folder, name)).size;
    expect(size('a9f0faf4-b325-45e0-a858-049e83f33845')).toBe(3017 + 6670 + 740);
    expect(size('f14a1561-e188-48cc-ae12-49875ed224eb')).toBe(3017 + 11609 + 5989);
    expect(part('operator state header')).toMatchObject({
      attribution: 'header',
      bytes: 6034,
      subtasks: [
        { subtask: 0, bytes: 3017 },
        { subtask: 1, bytes: 3017 },
      ],
    });
    expect(part('processed-events')).toMatchObject({
      kind: 'protobuf',
      attribution: 'offsets',
      subtasks: [
        { subtask: 0, bytes: 6670 },
        { subtask: 1, bytes: 11609 },
      ],
    });
    expect(part('even-events')).toMatchObject({
      kind: 'protobuf',
      attribution: 'offsets',
      subtasks: [
        { subtask: 0, bytes: 740 },
        { subtask: 1, bytes: 5989 },
      ],
    });
    // the keyed files: 19859 (a46a03e4-…) and 29613 (6c098ece-…) bytes, a 5830-byte header each
    expect(size('a46a03e4-fe91-478b-bc0f-4f505daa43ba')).toBe(5830 + 14029);
    expect(size('6c098ece-1145-4ecd-82fb-ae89337cfb6b')).toBe(5830 + 23783);
    expect(part('keyed state header')).toMatchObject({ attribution: 'header', bytes: 11660 });
    expect(part('keyed state of 5 states (shared)')).toMatchObject({
      attribution: 'shared',
      kind: 'keyed',
      states: ['event-history', 'last-event', 'events-by-name', '_timer_state/processing_user-timers', '_timer_state/event_user-timers'],
      subtasks: [
        { subtask: 0, bytes: 14029 },
        { subtask: 1, bytes: 23783 },
      ],
    });
    expect(op.keyGroups).toMatchObject({ withData: 5, largest: { keyGroup: 15, bytes: 11894 }, median: 11752 });
    // a state alone in its operator state stream: the whole of it after the header
    const source = breakdown.operators.find((o) => o.parts.some((p) => p.label === 'SourceReaderState'))!;
    expect(source.parts.find((p) => p.label === 'SourceReaderState')).toMatchObject({ kind: 'operator', attribution: 'offsets' });
  });

  it("flink-1.20 rocksdb native: a subtask's RocksDB files are one part shared by its keyed states, never split", async () => {
    const { breakdown } = await breakdownOf(path.join(ROOT, 'flink-1.20/rocksdb/native/savepoint'));
    const shared = breakdown.operators.flatMap((o) => o.parts).filter((p) => p.label.startsWith('RocksDB files'));
    expect(shared.length).toBeGreaterThan(0);
    for (const p of shared) expect(p.attribution === 'shared' || p.states.length === 1).toBe(true);
    expect(breakdown.operators.every((o) => o.keyGroups === undefined || o.parts.some((p) => p.label === 'keyed state header'))).toBe(true);
  });
});
