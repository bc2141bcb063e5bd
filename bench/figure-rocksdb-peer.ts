/**
 * Figure 8d: the RocksDB native read path against RocksDB's own iterator on the same files. The subtask of
 * the Flink-written native savepoint of figure 8b with the most SST bytes is laid out as a RocksDB database
 * under the files' RocksDB names (the handle's local paths; symbolic links to the savepoint's files, and the
 * OPTIONS file copied with its wal_dir blanked) and read, alternated, median of 3:
 * - ours: CURRENT, the MANIFEST, every live table of every column family opened and merged
 *   (openRocksDbSnapshot + SstMerge over the tables' cursors, blocks decompressed into reused buffers),
 *   every key and value touched;
 * - RocksDB: `python3 bench/rocksdict-scan.py` (rocksdict, the database opened read-only with the options
 *   of its OPTIONS file — Flink's merge operator StringAppendTESTOperator — every column family iterated,
 *   every key and value fetched), its own open + iteration time (interpreter start-up not counted, as ours
 *   counts no process start-up).
 * The entries and key and value bytes of each column family must be equal. Without python3 and rocksdict,
 * or without the pair, the figure says it was not measured and why. `npx tsx bench/figure-rocksdb-peer.ts
 * [dir]` runs it alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openNodeInput } from '../src/cli/sources';
import { openRocksDbSnapshot, openSavepoint, SstMerge, type OpenedSavepoint } from '../src/core/flink';
import { drainSstMerge } from './drain-sst-merge';
import { fmtBytes, fmtMs, median, type Figure } from './measure';
import { installSnappyWasm } from '../src/cli/install-snappy-wasm';

type Counts = Record<string, [number, number, number]>;
type Incremental = Extract<NonNullable<OpenedSavepoint['metadata']['operators'][number]['subtasks'][number]['managedKeyedState']>, { kind: 'incremental' }>;

const PEER = path.resolve(process.cwd(), 'bench/rocksdict-scan.py');

/** The subtask with the most SST bytes: its handle and operator. */
function largestSubtask(opened: OpenedSavepoint): { handle: Incremental; operatorId: string; subtask: number; sstBytes: number; files: number } | undefined {
  let best: { handle: Incremental; operatorId: string; subtask: number; sstBytes: number; files: number } | undefined;
  for (const op of opened.metadata.operators) {
    for (const st of op.subtasks) {
      const h = st.managedKeyedState;
      if (h?.kind !== 'incremental') continue;
      const ssts = [...h.sharedFiles, ...h.privateFiles].filter((f) => f.localPath.endsWith('.sst'));
      const sstBytes = ssts.reduce((n, f) => n + (f.handle?.kind === 'relative-file' ? f.handle.size : 0), 0);
      if (best === undefined || sstBytes > best.sstBytes) best = { handle: h, operatorId: op.id, subtask: st.index, sstBytes, files: ssts.length };
    }
  }
  return best;
}

/** The handle's files under their RocksDB names in a new folder (links to the savepoint's files; OPTIONS copied with wal_dir blanked). */
function layOut(savepoint: string, handle: Incremental): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rocksdb-peer-'));
  const db = path.join(dir, 'db');
  mkdirSync(db);
  for (const f of [...handle.sharedFiles, ...handle.privateFiles]) {
    if (f.handle?.kind !== 'relative-file')
      throw new Error(`expected the subtask's files as files beside _metadata, found a ${f.handle?.kind ?? 'missing'} handle for ${f.localPath}`);
    const from = path.join(savepoint, f.handle.relativePath);
    const name = path.basename(f.localPath);
    if (name.startsWith('OPTIONS-')) writeFileSync(path.join(db, name), readFileSync(from, 'utf8').replace(/^(\s*wal_dir=).*$/m, '$1'));
    else symlinkSync(from, path.join(db, name));
  }
  return db;
}

async function scanOurs(opened: OpenedSavepoint, handle: Incremental, operatorId: string, subtask: number): Promise<Counts> {
  const snapshot = await openRocksDbSnapshot(opened, handle, { operatorId, subtask, role: 'managed keyed state' });
  const out: Counts = {};
  for (const cf of snapshot.version.columnFamilies.values()) {
    const files = [...cf.files.values()];
    const tables = await Promise.all(files.map((f) => snapshot.openTable(f.number, cf.name)));
    const merge = new SstMerge(
      tables.map((t, i) => t.liveCursor(files[i]!.largestSequence, undefined, { reuseBlocks: true })),
      tables.flatMap((t, i) => t.liveTombstones(files[i]!.largestSequence)),
      true,
    );
    let entries = 0;
    let keyBytes = 0;
    let valueBytes = 0;
    let touch = 0;
    await drainSstMerge(merge, (m) => {
      entries++;
      keyBytes += m.keyLength;
      valueBytes += m.valueEnd - m.valueStart;
      // touch the key and value (their first and last bytes), as the peer's fetch does
      touch ^= m.key[0]! ^ (m.valueEnd > m.valueStart ? m.value[m.valueStart]! ^ m.value[m.valueEnd - 1]! : 0);
    });
    if (touch === -1) throw new Error('unreachable');
    out[cf.name] = [entries, keyBytes, valueBytes];
  }
  return out;
}

function runPeer(db: string): { counts: Counts; ms: number; cpuMs: number } | string {
  const r = spawnSync('python3', [PEER, db, '1'], { encoding: 'utf8' });
  if (r.error) return `python3 did not start (${r.error.message})`;
  if (r.status !== 0) return `${PEER} failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-1)[0]}`;
  const j = JSON.parse(r.stdout) as { columnFamilies: Counts; ms: number[]; cpuMs: number[] };
  return { counts: j.columnFamilies, ms: j.ms[0]!, cpuMs: j.cpuMs[0]! };
}

export async function measureRocksDbPeer(root: string): Promise<Figure> {
  const name = "RocksDB native read path against RocksDB's own iterator (rocksdict) on one subtask's files";
  const notMeasured = (why: string): Figure => ({
    id: '8d',
    name,
    value: 'not measured',
    ratio: why,
    goal: 'at least as fast as RocksDB (issue #31)',
    met: undefined,
  });
  const savepoint = path.join(root, 'flink-1.20', 'rocksdb-pair', 'native');
  if (!existsSync(path.join(savepoint, '_metadata'))) return notMeasured(`no native savepoint at ${savepoint} (see figure 8b)`);
  const probe = spawnSync('python3', ['-c', 'import rocksdict'], { encoding: 'utf8' });
  if (probe.error) return notMeasured(`python3 is not installed (${probe.error.message})`);
  if (probe.status !== 0) return notMeasured('the Python package rocksdict is not installed (pip install rocksdict)');
  const opened = await openSavepoint(await openNodeInput(savepoint));
  const subtask = largestSubtask(opened);
  if (!subtask) return notMeasured('the savepoint has no RocksDB native (incremental) keyed handle');
  const db = layOut(savepoint, subtask.handle);
  try {
    const ours: number[] = [];
    const peers: number[] = [];
    const oursCpu: number[] = [];
    const peersCpu: number[] = [];
    let counts: Counts = {};
    let peerCounts: Counts = {};
    // alternated after one warm-up of each (page cache, JIT)
    await scanOurs(opened, subtask.handle, subtask.operatorId, subtask.subtask);
    runPeer(db);
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      counts = await scanOurs(opened, subtask.handle, subtask.operatorId, subtask.subtask);
      const c = process.cpuUsage(c0);
      ours.push(performance.now() - t0);
      oursCpu.push((c.user + c.system) / 1000);
      const p = runPeer(db);
      if (typeof p === 'string') return notMeasured(p);
      peers.push(p.ms);
      peersCpu.push(p.cpuMs);
      peerCounts = p.counts;
    }
    const nonEmpty = (c: Counts) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries(c)
            .filter(([, v]) => v[0] > 0)
            .sort(([a], [b]) => (a < b ? -1 : 1)),
        ),
      );
    if (nonEmpty(counts) !== nonEmpty(peerCounts))
      throw new Error(
        `expected the same entries and bytes per column family as RocksDB's iterator, found ours ${nonEmpty(counts)} and RocksDB's ${nonEmpty(peerCounts)}`,
      );
    const total = Object.values(counts).reduce((a, v) => [a[0] + v[0], a[1] + v[1], a[2] + v[2]], [0, 0, 0]);
    const oursMs = median(ours);
    const peerMs = median(peers);
    const rate = (ms: number) => `${fmtBytes((subtask.sstBytes / ms) * 1000)}/s`;
    return {
      id: '8d',
      name: `${name}: ${subtask.files} SST files, ${fmtBytes(subtask.sstBytes)}, ${total[0]} entries (${fmtBytes(total[1] + total[2])} of keys and values, merged list values included), equal in both`,
      value: `ours ${fmtMs(oursMs)} = ${rate(oursMs)} (CPU ${fmtMs(median(oursCpu))}) vs RocksDB ${fmtMs(peerMs)} = ${rate(peerMs)} (CPU ${fmtMs(median(peersCpu))})`,
      ratio: `${(oursMs / peerMs).toFixed(2)}× RocksDB's time, ${(median(oursCpu) / median(peersCpu)).toFixed(2)}× its CPU time`,
      goal: 'at least as fast as RocksDB (issue #31)',
      met: oursMs <= peerMs,
    };
  } finally {
    rmSync(path.dirname(db), { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('figure-rocksdb-peer.ts')) {
  installSnappyWasm();
  const root = process.argv[2] ?? process.env['BENCH_DIR'] ?? '/tmp/bench-savepoints';
  const f = await measureRocksDbPeer(root);
  console.log(`${f.id} ${f.name}: ${f.value} (${f.ratio})`);
}
