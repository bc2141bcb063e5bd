/**
 * A RocksDB native subtask's snapshot (CURRENT, the MANIFEST replayed, each table's footer, meta-index and
 * properties) is opened once per opened savepoint when the scans share a SubtaskHeaderCache (the app's
 * session does): a second scan of the same handle reads only data and index blocks. Without the cache every
 * scan opens it anew (the CLI's one scan per command).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordSavepointReads } from '../helpers/record-savepoint-reads';
import { openNodeInput } from '../../src/cli/sources';
import { createSnapshotRegistry, createSubtaskHeaderCache, openSavepoint, scanState, type SubtaskHeaderCache } from '../../src/core/flink';

const CHECKPOINT = path.resolve(process.cwd(), 'fixtures/rocksdb-checkpoints/flink-1.20/zstd/chk-2');

describe('the RocksDB snapshot of a subtask, cached per opened savepoint', () => {
  it('a second scan with the same header cache reads no CURRENT, MANIFEST or table footer and meta blocks again, and gives the same entries', async () => {
    const registry = createSnapshotRegistry();
    const reads: [string, number, number][] = [];
    const files = recordSavepointReads(await openNodeInput(CHECKPOINT), reads);
    const opened = await openSavepoint(files);
    // the files of the handles: CURRENT and MANIFEST by local path, SSTs with their sizes
    const handles = opened.metadata.operators.flatMap((o) => o.subtasks.map((s) => s.managedKeyedState)).flatMap((h) => (h?.kind === 'incremental' ? [...h.sharedFiles, ...h.privateFiles] : []));
    const base = (f: (typeof handles)[number]) => (f.handle?.kind === 'file' ? f.handle.path.split('/').pop()! : '?');
    const meta = new Set(handles.filter((f) => f.localPath === 'CURRENT' || f.localPath.startsWith('MANIFEST-')).map(base));
    const tables = new Map(handles.filter((f) => f.localPath.endsWith('.sst')).map((f) => [base(f), files.resolveRelative(base(f))!.size]));
    expect([meta.size, tables.size > 0]).toEqual([4, true]);
    const scan = async (headers: SubtaskHeaderCache | undefined, state: string) => {
      reads.length = 0;
      const keys: string[] = [];
      await scanState(opened, registry, { operatorId: 'incremental', states: state, scopes: ['keyed'] }, { entry: (e) => void keys.push(`${e.subtask}/${e.keyGroup}/${JSON.stringify(e.key)}`) }, { values: { mode: 'decode' }, ...(headers ? { headers } : {}) });
      return { keys, metaReads: reads.filter(([p]) => meta.has(p)).length, footerReads: reads.filter(([p, offset, length]) => tables.has(p) && offset + length === tables.get(p)).length };
    };
    const cache = createSubtaskHeaderCache();
    const first = await scan(cache, 'history');
    expect(first.keys.length).toBe(5);
    expect([first.metaReads > 0, first.footerReads > 0]).toEqual([true, true]);
    const second = await scan(cache, 'history');
    expect(second).toEqual({ keys: first.keys, metaReads: 0, footerReads: 0 });
    // another state of the same handles: its own tables are opened, the MANIFEST is not read again
    const other = await scan(cache, 'tags');
    expect([other.keys.length, other.metaReads, other.footerReads > 0]).toEqual([14, 0, true]);
    // without a cache each scan opens the snapshot anew
    const uncached = await scan(undefined, 'history');
    expect([uncached.keys, uncached.metaReads > 0, uncached.footerReads > 0]).toEqual([first.keys, true, true]);
  });
});
