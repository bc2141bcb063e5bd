/**
 * Figure 8: the RocksDB native read path. Tables written with the core's test writer (Flink's key layout:
 * key-group prefix + int key; 200-byte values; Snappy blocks of ~4 KiB; CRC32C), as one column family of
 * several overlapping files (an older full set and newer overwrites, as an incremental checkpoint's levels
 * hold them), read through Node file sources: the SST scan (footer, index, every data block verified and
 * decompressed, the k-way merge with newest-wins, every key and value touched) against a plain read + copy
 * of the same bytes, alternated, median of 3, in a child process of its own (this file with --child), whose
 * peak RSS (process.resourceUsage().maxRSS) is the figure's, next to its start-up alone: sampled in the
 * bench's own process it counted what the figures before had left there (844.8 MiB in one run).
 *
 * Figure 8b: the same logical state through both whole read paths. A NATIVE and a CANONICAL savepoint taken
 * one after the other of one running RocksDB job by real Flink (`npm run fixtures -- --line flink-1.20
 * --bench-rocksdb DIR --records N --keys K`, written to DIR/flink-1.20/rocksdb-pair/{native,canonical}),
 * each scanned in its own child process as `stats --workers 1` scans (bench/rss-child.ts): time, entries
 * (which must be equal) and peak RSS. Without the pair the figure says it was not measured and why.
 * `npx tsx bench/figure-rocksdb-scan.ts [dir]` runs it alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { installSnappyWasm } from '../src/cli/install-snappy-wasm';
import { openNodeFileSource } from '../src/cli/sources';
import { openSstTable, SstMerge, TYPE_VALUE, writeSstTable, type WrittenEntry } from '../src/core/flink';
import { drainSstMerge } from './drain-sst-merge';
import { fmtBytes, fmtMs, median, MiB, timeAsync, timeProcessesAlternated, type Figure } from './measure';

const KEYS = 150_000;
const VALUE_BYTES = 200;

function entriesOf(from: number, step: number, sequenceBase: number): WrittenEntry[] {
  const out: WrittenEntry[] = [];
  for (let k = from; k < KEYS; k += step) {
    const value = new Uint8Array(VALUE_BYTES);
    for (let i = 0; i < VALUE_BYTES; i++) value[i] = (k * 31 + i * (i % 7)) & 0xff;
    out.push({ userKey: Uint8Array.of(k % 128, k >>> 24, (k >>> 16) & 0xff, (k >>> 8) & 0xff, k & 0xff), sequence: sequenceBase + k, type: TYPE_VALUE, value });
  }
  out.sort((a, b) => Buffer.compare(Buffer.from(a.userKey), Buffer.from(b.userKey)));
  return out;
}

/** Writes the tables once: 000010.sst holds every key; 000011…000013 overwrite every 3rd, 5th and 7th key (newer). */
function ensureTables(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const plan: [string, number, number][] = [
    ['000010.sst', 1, 0],
    ['000011.sst', 3, 1_000_000],
    ['000012.sst', 5, 2_000_000],
    ['000013.sst', 7, 3_000_000],
  ];
  return plan.map(([name, step, seq]) => {
    const file = path.join(dir, name);
    if (!existsSync(file)) writeFileSync(file, writeSstTable(entriesOf(0, step, seq), { blockEntries: 19, compression: 1, checksumType: 1 }));
    return file;
  });
}

async function readCopy(files: readonly string[]): Promise<number> {
  const buffer = new Uint8Array(8 * MiB);
  const dst = new Uint8Array(8 * MiB);
  let total = 0;
  for (const f of files) {
    const h = await open(f, 'r');
    try {
      const { size } = await h.stat();
      for (let off = 0; off < size; off += buffer.length) {
        const { bytesRead } = await h.read(buffer, 0, Math.min(buffer.length, size - off), off);
        dst.set(buffer.subarray(0, bytesRead));
        total += bytesRead;
      }
    } finally {
      await h.close();
    }
  }
  return total;
}

/** The merged view of the tables: blocks decompressed into reused buffers, the merge over the tables' cursors, every key and value touched. */
async function scan(files: readonly string[]): Promise<number> {
  const tables = await Promise.all(files.map(async (f) => openSstTable(await openNodeFileSource(f), path.basename(f))));
  const merge = new SstMerge(
    tables.map((t) => t.cursor(undefined, { reuseBlocks: true })),
    [],
    true,
  );
  let keys = 0;
  let touch = 0;
  await drainSstMerge(merge, (m) => {
    touch ^= m.key[m.keyLength - 1]! ^ m.value[m.valueEnd - 1]!;
    keys += m.valueEnd > m.valueStart ? 1 : 0;
  });
  return keys + (touch & 0);
}

interface ScanChild {
  reads: number[];
  scans: number[];
  /** the scans' CPU time (user + system, ms) */
  scanCpu: number[];
  bytes: number;
  keys: number;
  maxRssKiB: number;
  baselineKiB: number;
}

/** In the child: read + copy and the scan alternated, 3 times each after one of each to warm up. */
async function runChild(files: readonly string[]): Promise<ScanChild> {
  const baselineKiB = process.resourceUsage().maxRSS;
  await readCopy(files);
  await scan(files);
  const out: ScanChild = { reads: [], scans: [], scanCpu: [], bytes: 0, keys: 0, maxRssKiB: 0, baselineKiB };
  for (let i = 0; i < 3; i++) {
    const r = await timeAsync(() => readCopy(files));
    out.bytes = r.result;
    out.reads.push(r.ms);
    const c0 = process.cpuUsage();
    const s = await timeAsync(() => scan(files));
    const c = process.cpuUsage(c0);
    out.scans.push(s.ms);
    out.scanCpu.push((c.user + c.system) / 1000);
    out.keys = s.result;
  }
  out.maxRssKiB = process.resourceUsage().maxRSS;
  return out;
}

export async function measureRocksDbScan(root: string): Promise<Figure[]> {
  const files = ensureTables(path.join(root, 'rocksdb-sst'));
  const tsx = path.resolve(process.cwd(), 'node_modules/.bin/tsx');
  // the scan as the CLI runs it (Snappy by snappy-wasm), then with snappyjs (BENCH_SNAPPY=js), each in a child of its own
  const runChildProcess = (snappy: 'wasm' | 'js'): ScanChild => {
    const child = spawnSync(tsx, [path.resolve(process.cwd(), 'bench/figure-rocksdb-scan.ts'), '--child', ...files], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
      env: { ...process.env, BENCH_SNAPPY: snappy },
    });
    if (child.status !== 0) throw new Error(`the figure 8 child process failed: ${child.stderr}`);
    const run = JSON.parse(child.stdout) as ScanChild;
    if (run.keys !== KEYS) throw new Error(`expected ${KEYS} merged keys, found ${run.keys}`);
    return run;
  };
  const run = runChildProcess('wasm');
  const withSnappyJs = runChildProcess('js');
  const readMs = median(run.reads);
  const scanMs = median(run.scans);
  const bytes = run.bytes;
  const rate = (ms: number) => `${fmtBytes((bytes / ms) * 1000)}/s`;
  const ratio = scanMs / readMs;
  return [
    {
      id: '8',
      name: `RocksDB native SST scan (${files.length} overlapping Snappy tables, ${fmtBytes(bytes)}, ${KEYS} keys merged)`,
      value: `${fmtMs(scanMs)} = ${rate(scanMs)} (CPU ${fmtMs(median(run.scanCpu))}; with snappyjs instead of snappy-wasm ${fmtMs(median(withSnappyJs.scans))}, CPU ${fmtMs(median(withSnappyJs.scanCpu))}), peak RSS ${fmtBytes(run.maxRssKiB * 1024)} (its process's start-up alone ${fmtBytes(run.baselineKiB * 1024)})`,
      ratio: `${ratio.toFixed(1)}× a plain read + copy of the same bytes (${fmtMs(readMs)} = ${rate(readMs)})`,
      goal: 'within 10× of read + copy (issue #31)',
      met: ratio <= 10,
    },
    measureAgainstCanonical(root),
  ];
}

interface ChildRun {
  maxRssKiB: number;
  baselineKiB: number;
  ms: number;
  bytesRead: number;
  values: number;
}

/** Figure 8b: the Flink-written native/canonical pair of one job's state, each scanned in a child process (the second of two alternated runs). */
export function measureAgainstCanonical(root: string): Figure {
  const pair = path.join(root, 'flink-1.20', 'rocksdb-pair');
  const name = 'RocksDB native savepoint against the canonical savepoint of the same state (stats scan, 1 worker, child processes)';
  if (!existsSync(path.join(pair, 'native', '_metadata')) || !existsSync(path.join(pair, 'canonical', '_metadata'))) {
    return {
      id: '8b',
      name,
      value: 'not measured',
      ratio: `no pair at ${pair}: write it with npm run fixtures -- --line flink-1.20 --bench-rocksdb ${root} --records 40000 --keys 4000`,
      goal: 'reported',
      met: undefined,
    };
  }
  const manifest = JSON.parse(readFileSync(path.join(pair, 'manifest.json'), 'utf8')) as { flink: string; records: number };
  const tsx = path.resolve(process.cwd(), 'node_modules/.bin/tsx');
  const child = path.resolve(process.cwd(), 'bench/rss-child.ts');
  const [native, canonical] = timeProcessesAlternated(
    [
      { cmd: tsx, args: [child, path.join(pair, 'native')] },
      { cmd: tsx, args: [child, path.join(pair, 'canonical')] },
    ],
    2,
  ).map((r) => JSON.parse(r.stdout) as ChildRun);
  if (native!.values !== canonical!.values)
    throw new Error(`expected the same entries in both savepoints of one state, found ${native!.values} native and ${canonical!.values} canonical`);
  const rss = (k: number) => fmtBytes(k * 1024);
  return {
    id: '8b',
    name: `${name}: Flink ${manifest.flink}, ${manifest.records} records, ${native!.values} entries`,
    value: `native ${fmtMs(native!.ms)} (${fmtBytes(native!.bytesRead)} of SST files read, peak RSS ${rss(native!.maxRssKiB)}) vs canonical ${fmtMs(canonical!.ms)} (${fmtBytes(canonical!.bytesRead)}, peak RSS ${rss(canonical!.maxRssKiB)})`,
    ratio: `${(native!.ms / canonical!.ms).toFixed(2)}× the canonical path's time, ${(native!.maxRssKiB / canonical!.maxRssKiB).toFixed(2)}× its peak RSS; process start-up alone ${rss(native!.baselineKiB)}`,
    goal: 'reported (no goal set yet)',
    met: undefined,
  };
}

if (process.argv[1]?.endsWith('figure-rocksdb-scan.ts') && process.argv[2] === '--child') {
  if (process.env['BENCH_SNAPPY'] !== 'js') installSnappyWasm();
  process.stdout.write(JSON.stringify(await runChild(process.argv.slice(3))));
} else if (process.argv[1]?.endsWith('figure-rocksdb-scan.ts')) {
  const root = process.argv[2] ?? process.env['BENCH_DIR'] ?? '/tmp/bench-savepoints';
  for (const f of await measureRocksDbScan(root)) console.log(`${f.id} ${f.name}: ${f.value} (${f.ratio})`);
}
