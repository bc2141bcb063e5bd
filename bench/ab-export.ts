/**
 * A/B of figure 10's exports (issue #31): `export --state last-event` of the 1 GiB bench savepoint in each
 * format, run by two source trees in alternation (round 1: A then B, round 2: B then A, …), each run a child
 * process (bench/export-child.ts of that tree: the CLI's command in-process). Prints every run's CPU and wall
 * seconds and peak RSS, then per tree and format the median and spread, and each format's median CPU as a
 * ratio to Arrow's of the same tree. Standalone (not part of `npm run bench`):
 * `npx tsx bench/ab-export.ts <tree A> <tree B> [rounds=3] [formats=jsonl,csv,parquet,arrow] [limit]`
 * (each tree a checkout with node_modules; the savepoint /tmp/bench-savepoints/sp-1g, made by figure 10). With
 * a limit (entries), this checkout's bench/export-child.ts is copied into each tree as export-child-limit.ts
 * (older trees' copies take no limit) and removed after.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureExportBenchSavepoint } from './figure-export';

interface Run {
  cpuMs: number;
  ms: number;
  maxRssKiB: number;
  rows: number;
  fileBytes: number;
}

function runChild(tree: string, dir: string, format: string, limit: string | undefined): Run {
  // this tree's export-child.ts if it takes a limit, else this checkout's copy placed beside it (its imports resolve in that tree)
  const child = limit === undefined ? 'bench/export-child.ts' : 'bench/export-child-limit.ts';
  const r = spawnSync(path.join(tree, 'node_modules/.bin/tsx'), [path.join(tree, child), dir, format, ...(limit === undefined ? [] : [limit])], {
    cwd: tree,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`${tree} ${format}: exited with ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Run;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function main(): void {
  const [a, b] = [path.resolve(process.argv[2]!), path.resolve(process.argv[3]!)];
  const rounds = Number(process.argv[4] ?? 3);
  const formats = (process.argv[5] ?? 'jsonl,csv,parquet,arrow').split(',');
  const limit = process.argv[6];
  const copies = limit === undefined ? [] : [a, b].map((tree) => path.join(tree, 'bench/export-child-limit.ts'));
  for (const copy of copies) copyFileSync(new URL('./export-child.ts', import.meta.url), copy);
  try {
    measure(a, b, rounds, formats, limit);
  } finally {
    for (const copy of copies) rmSync(copy, { force: true });
  }
}

function measure(a: string, b: string, rounds: number, formats: readonly string[], limit: string | undefined): void {
  const { dir } = ensureExportBenchSavepoint(process.env['BENCH_DIR'] ?? '/tmp/bench-savepoints');
  const runs = new Map<string, Run[]>();
  for (let round = 0; round < rounds; round++) {
    for (const tree of round % 2 === 0 ? [a, b] : [b, a]) {
      for (const format of formats) {
        const r = runChild(tree, dir, format, limit);
        const key = `${tree === a ? 'A' : 'B'} ${format}`;
        runs.set(key, [...(runs.get(key) ?? []), r]);
        console.log(
          `round ${round + 1} ${key}: ${(r.cpuMs / 1000).toFixed(1)} CPU s, ${(r.ms / 1000).toFixed(1)} s wall, peak RSS ${(r.maxRssKiB / 1024).toFixed(0)} MiB, ${r.rows} rows, file ${r.fileBytes} bytes`,
        );
      }
    }
  }
  console.log(`A = ${a}, B = ${b}; ${rounds} rounds alternated${limit === undefined ? '' : `, the first ${limit} entries`}; median (min–max)`);
  for (const tree of ['A', 'B']) {
    const arrow = runs.get(`${tree} arrow`);
    for (const format of formats) {
      const rs = runs.get(`${tree} ${format}`)!;
      const cpu = rs.map((r) => r.cpuMs / 1000);
      const wall = rs.map((r) => r.ms / 1000);
      const rss = rs.map((r) => r.maxRssKiB / 1024);
      const ratio = arrow === undefined ? '' : `, ${(median(cpu) / median(arrow.map((r) => r.cpuMs / 1000))).toFixed(2)}× Arrow's CPU`;
      console.log(
        `${tree} ${format}: CPU ${median(cpu).toFixed(1)} s (${Math.min(...cpu).toFixed(1)}–${Math.max(...cpu).toFixed(1)})${ratio}; wall ${median(wall).toFixed(1)} s (${Math.min(...wall).toFixed(1)}–${Math.max(...wall).toFixed(1)}); peak RSS ${median(rss).toFixed(0)} MiB (${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)}); file ${rs[0]!.fileBytes} bytes`,
      );
    }
  }
}

main();
