/**
 * Figure 5 alone, for A/B runs (not part of `npm run bench`):
 *
 *   npx tsx bench/compare-browser-scan.ts [--runs 5] [--dir <1 GiB savepoint>] <label>=<app build dir> …
 *
 * Builds (or reuses) the 1 GiB savepoint of figure 5 and its STORED zip, then runs, `runs` times in
 * alternation, the app scan of every given build (`vite build --outDir <dir>` of each version) and the
 * CLI's `stats` of the same zip (prebuilt bundle of this checkout), so a slow stretch of the shared
 * machine hits all of them alike. Prints each run and the medians: open, scan, open + scan, the
 * Chromium processes' CPU seconds while scanning, and open + scan over the CLI's wall time.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { BENCH_STATES, ensureBenchSavepoint } from './generate/generate-bench-savepoint';
import { buildCliBundle } from './build-cli-bundle';
import { chromiumVersion, findBenchChromium, runBrowserScan, timeCliStats, type BrowserScanRun, type CliStatsTime } from './figure-browser-scan';
import { fmtBytes, fmtMs, GiB, median } from './measure';
import { zipSavepointStored } from './zip-savepoint-stored';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let runs = 5;
  let dir = path.join(process.env['BENCH_DIR'] ?? '/tmp/bench-savepoints', 'sp-1g');
  const builds: { label: string; outDir: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--runs') runs = Number(args[++i]);
    else if (a === '--dir') dir = args[++i]!;
    else {
      const eq = a.indexOf('=');
      if (eq <= 0) throw new Error(`expected <label>=<app build dir>, found ${a}`);
      builds.push({ label: a.slice(0, eq), outDir: path.resolve(a.slice(eq + 1)) });
    }
  }
  if (builds.length === 0) throw new Error('usage: tsx bench/compare-browser-scan.ts [--runs N] [--dir <savepoint dir>] <label>=<app build dir> …');
  const browser = findBenchChromium();
  if ('skip' in browser) throw new Error(browser.skip);
  const manifest = ensureBenchSavepoint({ dir, targetBytes: GiB, parallelism: 8, gencodeDescriptors: true });
  const zip = `${dir}.zip`;
  if (!existsSync(zip)) zipSavepointStored(dir, zip);
  buildCliBundle();
  console.log(`${chromiumVersion(browser)} (${browser.description}); zip ${zip} ${fmtBytes(statSync(zip).size)}; ${runs} alternated runs`);
  const results = new Map<string, BrowserScanRun[]>(builds.map((b) => [b.label, []]));
  const cli: CliStatsTime[] = [];
  for (let i = 0; i < runs; i++) {
    for (const b of builds) {
      const r = await runBrowserScan(zip, manifest.operatorId, BENCH_STATES[0], browser, b.outDir);
      if (r.outcome !== 'done') throw new Error(`${b.label}: ${r.outcome}: ${r.detail}`);
      results.get(b.label)!.push(r);
      console.log(
        `run ${i + 1} ${b.label}: open ${fmtMs(r.openMs)}, scan ${fmtMs(r.scanMs)} (${r.scanCpuSeconds.toFixed(2)} CPU s), peak PSS ${fmtBytes(r.peakChromiumRssBytes)}`,
      );
      const threads = [...r.scanCpuByThread].filter(([, s]) => s >= 0.05).sort((x, y) => y[1] - x[1]);
      console.log(`  CPU while scanning: ${threads.map(([t, s]) => `${t} ${s.toFixed(2)} s`).join('; ')}`);
    }
    const c = timeCliStats(zip);
    cli.push(c);
    console.log(`run ${i + 1} CLI stats: ${fmtMs(c.ms)}${c.cpuSeconds === undefined ? '' : ` (${c.cpuSeconds.toFixed(2)} CPU s)`}`);
  }
  const cliMs = median(cli.map((c) => c.ms));
  const cliCpu = cli.every((c) => c.cpuSeconds !== undefined) ? median(cli.map((c) => c.cpuSeconds!)) : undefined;
  console.log(`\nmedians of ${runs}:`);
  console.log(`CLI stats: ${fmtMs(cliMs)}${cliCpu === undefined ? '' : ` (${cliCpu.toFixed(2)} CPU s)`}`);
  for (const b of builds) {
    const rs = results.get(b.label)!;
    const total = median(rs.map((r) => r.openMs + r.scanMs));
    const perRunRatios = rs.map((r, i) => (r.openMs + r.scanMs) / cli[i]!.ms);
    console.log(
      `${b.label}: open ${fmtMs(median(rs.map((r) => r.openMs)))}, scan ${fmtMs(median(rs.map((r) => r.scanMs)))}, open + scan ${fmtMs(total)} = ${(total / cliMs).toFixed(2)}× the CLI (per run ${perRunRatios.map((x) => x.toFixed(2)).join(', ')}); scan CPU ${median(rs.map((r) => r.scanCpuSeconds)).toFixed(2)} s; peak PSS ${fmtBytes(median(rs.map((r) => r.peakChromiumRssBytes)))}`,
    );
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
