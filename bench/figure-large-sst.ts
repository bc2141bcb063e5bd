/**
 * Figure 8c: one table file of 1 GB (200,000 entries of ~5 KB in 1,000 data blocks, issue #35's case:
 * tests/helpers/write-large-rocksdb-savepoint.ts writes it into a copy of the Flink 1.20 RocksDB native
 * fixture, the MANIFEST and `_metadata` updated) through whole processes of the prebuilt CLI bundle —
 * `inspect` (every header, every entry counted) and `dump` of the state (every value decoded and printed,
 * stdout to /dev/null) — against a plain read + copy of the same table file by Node in 8 MiB pieces, alternated
 * (reference, inspect, dump, …), the median of each; wall time, CPU (user + system) and peak RSS from GNU time.
 * Issue #35's goal: each < 20 s and < 512 MiB. `npx tsx bench/figure-large-sst.ts [dir] [runs]` runs it alone
 * (it builds the CLI bundle first when stale: bin/savepoint-inspector.mjs runs the bundle only when fresh).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { LARGE_ROCKSDB_OPERATOR, writeLargeRocksDbSavepoint } from '../tests/helpers/write-large-rocksdb-savepoint';
import { fmtBytes, fmtMs, GNU_TIME, median, MiB, type Figure } from './measure';

const STATE = 'long-last-event';
const SST = '2457a376-14ff-4c20-860f-1590b4d13ca6';
/** reads the file in 8 MiB pieces and copies each into a second buffer (figure 8's reference, in a process of its own) */
const READ_COPY = `const fs=require('node:fs');const f=fs.openSync(process.argv[1],'r');const b=Buffer.allocUnsafe(8<<20),d=Buffer.allocUnsafe(8<<20);let n,t=0;while((n=fs.readSync(f,b,0,b.length,null))>0){b.copy(d,0,0,n);t+=n}console.error(t)`;

interface Run {
  ms: number;
  cpuS: number;
  rssKiB: number;
}

/** One process under GNU time, stdout to /dev/null: wall, user + system and peak RSS. */
function run(args: readonly string[]): Run {
  const devNull = openSync('/dev/null', 'w');
  try {
    const t0 = performance.now();
    const r = spawnSync(GNU_TIME, ['-f', '%U %S %M', process.execPath, ...args], { stdio: ['ignore', devNull, 'pipe'], encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(-2000)}`);
    const [user, system, rss] = (r.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number);
    return { ms, cpuS: user! + system!, rssKiB: rss! };
  } finally {
    closeSync(devNull);
  }
}

export function measureLargeSst(root: string, runs = 3): Figure[] {
  const dir = path.join(root, 'rocksdb-1g');
  if (!existsSync(path.join(dir, '_metadata'))) writeLargeRocksDbSavepoint(dir, { entries: 200_000, blocks: 1_000, valueBytes: 5_000 });
  const table = path.join(dir, SST);
  const bytes = statSync(table).size;
  spawnSync('npm', ['run', '--silent', 'build:cli'], { stdio: 'ignore' });
  const cli = path.resolve(process.cwd(), 'bin/savepoint-inspector.mjs');
  const commands: [string, string[]][] = [
    ['read + copy', ['-e', READ_COPY, table]],
    ['inspect', [cli, 'inspect', dir]],
    ['dump', [cli, 'dump', dir, '--operator', LARGE_ROCKSDB_OPERATOR, '--state', STATE]],
  ];
  const results = commands.map(() => [] as Run[]);
  for (let i = 0; i < runs; i++) for (const [j, [, args]] of commands.entries()) results[j]!.push(run(args));
  const summary = results.map((rs) => ({ ms: median(rs.map((r) => r.ms)), cpuS: median(rs.map((r) => r.cpuS)), rssKiB: Math.max(...rs.map((r) => r.rssKiB)) }));
  const reference = summary[0]!;
  return commands.slice(1).map(([name], k) => {
    const s = summary[k + 1]!;
    return {
      id: `8c-${name}`,
      name: `\`${name}\` of one 1 GB RocksDB table (${fmtBytes(bytes)}, 200,000 entries of ~5 KB in 1,000 blocks), whole process of the prebuilt bundle`,
      value: `${fmtMs(s.ms)} wall, ${s.cpuS.toFixed(1)} s CPU, peak RSS ${fmtBytes(s.rssKiB * 1024)}`,
      ratio: `${(s.ms / reference.ms).toFixed(1)}× a read + copy of the same file by Node in 8 MiB pieces (${fmtMs(reference.ms)}, ${reference.cpuS.toFixed(1)} s CPU), alternated, median of ${runs}`,
      goal: '< 20 s and < 512 MiB (issue #35)',
      met: s.ms < 20_000 && s.rssKiB * 1024 < 512 * MiB,
    };
  });
}

if (process.argv[1]?.endsWith('figure-large-sst.ts')) {
  const root = process.argv[2] ?? process.env['BENCH_DIR'] ?? '/tmp/bench-savepoints';
  for (const f of measureLargeSst(root, Number(process.argv[3] ?? 3)))
    console.log(`${f.id} ${f.name}: ${f.value} (${f.ratio}; goal ${f.goal})${f.met ? ' — goal met' : ' — goal NOT met'}`);
}
