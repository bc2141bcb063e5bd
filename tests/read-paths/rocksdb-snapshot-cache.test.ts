/**
 * A RocksDB native subtask's snapshot (CURRENT, the MANIFEST replayed, each table's footer, meta-index and
 * properties) is opened once per opened savepoint when the scans share a SubtaskHeaderCache (the app's
 * session does): a second scan of the same handle reads only data and index blocks. Without the cache every
 * scan opens it anew (the CLI's one scan per command). The same holds for a changelog subtask whose
 * materialized part is such a snapshot: its replay reads the materialized entries through the cache.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordSavepointReads } from '../helpers/record-savepoint-reads';
import { openNodeInput } from '../../src/cli/sources';
import { bytesSource, ByteWriter, type SavepointFiles } from '../../src/core/io';
import {
  createSnapshotRegistry,
  createSubtaskHeaderCache,
  openSavepoint,
  readCheckpointMetadata,
  scanState,
  writeCheckpointMetadata,
  type SubtaskHeaderCache,
} from '../../src/core/flink';
import type { KeyedStateHandle } from '../../src/core/flink/metadata/metadata-types';
import { CLS, simple, valueState, writeStateMetaInfo } from '../helpers/write-test-snapshots';

const CHECKPOINT = path.resolve(process.cwd(), 'fixtures/rocksdb-checkpoints/flink-1.20/zstd/chk-2');

/** The files of the checkpoint's handles: CURRENT and MANIFEST by their names in the folder, the SSTs with their sizes. */
function listSnapshotFiles(opened: Awaited<ReturnType<typeof openSavepoint>>, files: SavepointFiles) {
  const handles = opened.metadata.operators
    .flatMap((o) => o.subtasks.map((s) => s.managedKeyedState))
    .flatMap((h) => (h?.kind === 'changelog' ? h.nested : [h]))
    .flatMap((h) => (h?.kind === 'incremental' ? [...h.sharedFiles, ...h.privateFiles] : []));
  const base = (f: (typeof handles)[number]) => (f.handle?.kind === 'file' ? f.handle.path.split('/').pop()! : '?');
  const meta = new Set(handles.filter((f) => f.localPath === 'CURRENT' || f.localPath.startsWith('MANIFEST-')).map(base));
  const tables = new Map(handles.filter((f) => f.localPath.endsWith('.sst')).map((f) => [base(f), files.resolveRelative(base(f))!.size]));
  return { meta, tables };
}

/**
 * The checkpoint with each managed keyed handle wrapped into a changelog handle (code 14): the
 * incremental handle as its materialized part, then in-memory changes (code 9) whose one META record
 * names a state the snapshot does not hold, so the subtask's states are replayed.
 */
async function wrapInChangelog(files: SavepointFiles): Promise<SavepointFiles> {
  const bytes = await files.metadata.read(0, files.metadata.size);
  const metadata = readCheckpointMetadata(bytes);
  // META record (key group -1): operation 8, meta info v6, [TTL, default value flags], i16 id, u8 backend type (0: key/value)
  const meta = writeStateMetaInfo(new ByteWriter().u8(8).i32(6), valueState('late-counter', simple(CLS.long)));
  const changeBytes = [{ keyGroup: -1, bytes: meta.bool(false).bool(false).i16(0).u8(0).finish() }];
  const wrap = (h: KeyedStateHandle): KeyedStateHandle => ({
    kind: 'changelog',
    code: 14,
    range: h.range,
    description: '',
    nested: [h, { kind: 'changelog', code: 9, range: h.range, description: '', nested: [], fromSequence: 0n, toSequence: 1n, handleId: 'mem', changeBytes }],
    materializedCount: 1,
    materializationId: 1n,
    checkpointId: 2n,
    checkpointedSize: 0n,
    handleId: 'changelog',
  });
  const operators = metadata.operators.map((op) => ({
    ...op,
    subtasks: op.subtasks.map((s) => (s.managedKeyedState === null ? s : { ...s, managedKeyedState: wrap(s.managedKeyedState) })),
  }));
  const rewritten = writeCheckpointMetadata({
    version: metadata.version,
    checkpointId: metadata.checkpointId,
    operators,
    trailer: bytes.subarray(metadata.properties!.trailerOffset!),
  });
  return { ...files, metadata: bytesSource('_metadata', rewritten) };
}

describe('the RocksDB snapshot of a subtask, cached per opened savepoint', () => {
  it('a second scan with the same header cache reads no CURRENT, MANIFEST or table footer and meta blocks again, and gives the same entries', async () => {
    const registry = createSnapshotRegistry();
    const reads: [string, number, number][] = [];
    const files = recordSavepointReads(await openNodeInput(CHECKPOINT), reads);
    const opened = await openSavepoint(files);
    const { meta, tables } = listSnapshotFiles(opened, files);
    expect([meta.size, tables.size > 0]).toEqual([4, true]);
    const scan = async (headers: SubtaskHeaderCache | undefined, state: string) => {
      reads.length = 0;
      const keys: string[] = [];
      await scanState(
        opened,
        registry,
        { operatorId: 'incremental', states: state, scopes: ['keyed'] },
        { entry: (e) => void keys.push(`${e.subtask}/${e.keyGroup}/${JSON.stringify(e.key)}`) },
        { values: { mode: 'decode' }, ...(headers ? { headers } : {}) },
      );
      return {
        keys,
        metaReads: reads.filter(([p]) => meta.has(p)).length,
        footerReads: reads.filter(([p, offset, length]) => tables.has(p) && offset + length === tables.get(p)).length,
      };
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

  it("a changelog subtask's replay reads its materialized RocksDB snapshot through the same cache", async () => {
    const registry = createSnapshotRegistry();
    const reads: [string, number, number][] = [];
    const files = recordSavepointReads(await wrapInChangelog(await openNodeInput(CHECKPOINT)), reads);
    const opened = await openSavepoint(files);
    const { meta, tables } = listSnapshotFiles(opened, files);
    expect([meta.size, tables.size > 0]).toEqual([4, true]);
    const scan = async (headers: SubtaskHeaderCache) => {
      reads.length = 0;
      const keys: string[] = [];
      const formats = new Set<string>();
      await scanState(
        opened,
        registry,
        { operatorId: 'incremental', states: 'history', scopes: ['keyed'] },
        { part: (p) => void formats.add(p.format), entry: (e) => void keys.push(`${e.subtask}/${e.keyGroup}/${JSON.stringify(e.key)}`) },
        { values: { mode: 'decode' }, headers },
      );
      return {
        formats: [...formats],
        keys,
        metaReads: reads.filter(([p]) => meta.has(p)).length,
        footerReads: reads.filter(([p, offset, length]) => tables.has(p) && offset + length === tables.get(p)).length,
      };
    };
    const cache = createSubtaskHeaderCache();
    const first = await scan(cache);
    expect([first.formats, first.keys.length, first.metaReads > 0, first.footerReads > 0]).toEqual([['changelog'], 5, true, true]);
    const second = await scan(cache);
    expect(second).toEqual({ formats: ['changelog'], keys: first.keys, metaReads: 0, footerReads: 0 });
    expect(cache.rocksdb.size).toBe(2);
  });
});
