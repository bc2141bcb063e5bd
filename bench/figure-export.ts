/**
 * Figure 10: `export` throughput (MiB/s of state values), CPU time as a ratio to Arrow's and peak RSS over
 * the 1 GiB bench savepoint (state last-event), JSON Lines, Parquet, CSV and Arrow IPC, in a child process
 * each, alternated (10a, 10b, 10e, 10f); and the app's Query
 * view over the same savepoint (10c, 10d: bench/figure-export-app.ts). Standalone:
 * `npx tsx bench/figure-export.ts [--cli-only | --app-only]` (reuses /tmp/bench-savepoints/sp-1g, the
 * savepoint of figures 5 and 6, generating it only when it is not there).
 */
import path from 'node:path';
import { ensureBenchSavepoint, type BenchSavepointManifest } from './generate/generate-bench-savepoint';
import { fmtBytes, formatFigure, GiB, MiB, timeProcess, type Figure } from './measure';

interface ExportRun {
  maxRssKiB: number;
  baselineKiB: number;
  ms: number;
  cpuMs: number;
  rows: number;
  valueMiB: number;
  fileBytes: number;
}

/** The 1 GiB savepoint of figures 5, 6 and 10 (the same options, so each reuses it). */
export function ensureExportBenchSavepoint(root: string): { dir: string; manifest: BenchSavepointManifest } {
  const dir = path.join(root, 'sp-1g');
  return { dir, manifest: ensureBenchSavepoint({ dir, targetBytes: GiB, parallelism: 8, gencodeDescriptors: true }) };
}

export type ExportBenchFormat = 'jsonl' | 'csv' | 'parquet' | 'arrow';

export function runExportChild(dir: string, format: ExportBenchFormat): ExportRun {
  const tsx = path.resolve(process.cwd(), 'node_modules/.bin/tsx');
  const { stdout } = timeProcess(tsx, [path.resolve(process.cwd(), 'bench/export-child.ts'), dir, format], 1);
  return JSON.parse(stdout) as ExportRun;
}

const FORMAT_NAMES: Record<ExportBenchFormat, string> = { jsonl: 'JSON Lines', csv: 'CSV', parquet: 'Parquet', arrow: 'Arrow IPC' };
/** the figure of each format (10c/10d are the app's Query view) */
const FORMAT_IDS: Record<ExportBenchFormat, string> = { jsonl: '10a', parquet: '10b', csv: '10e', arrow: '10f' };

/**
 * The four formats side by side (#31: each within 2× of Arrow's time), alternated three times (the machine
 * is shared): per format the median CPU seconds of its child processes, as a ratio to Arrow's median.
 */
export function measureExport(dir: string, savepointBytes: number, rounds = 3): Figure[] {
  const formats: ExportBenchFormat[] = ['jsonl', 'parquet', 'csv', 'arrow'];
  const runs = new Map<ExportBenchFormat, ExportRun[]>(formats.map((f) => [f, []]));
  for (let i = 0; i < rounds; i++) for (const format of i % 2 === 0 ? formats : [...formats].reverse()) runs.get(format)!.push(runExportChild(dir, format));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const arrowCpu = median(runs.get('arrow')!.map((r) => r.cpuMs));
  return formats.map((format) => {
    const rs = runs.get(format)!;
    const cpus = rs.map((r) => r.cpuMs);
    const r = rs.find((x) => x.cpuMs === median(cpus))!;
    const rate = r.valueMiB / (r.ms / 1000);
    const ratio = median(cpus) / arrowCpu;
    const maxRss = Math.max(...rs.map((x) => x.maxRssKiB));
    const spread = `${(Math.min(...cpus) / 1000).toFixed(1)}–${(Math.max(...cpus) / 1000).toFixed(1)}`;
    return {
      id: FORMAT_IDS[format],
      name: `export of state last-event of the ${fmtBytes(savepointBytes)} savepoint as ${FORMAT_NAMES[format]} (${r.rows} rows, ${r.valueMiB.toFixed(1)} MiB of values; file ${fmtBytes(r.fileBytes)}; median of ${rounds} alternated runs)`,
      value: `${rate.toFixed(1)} MiB/s (${(r.ms / 1000).toFixed(1)} s wall; ${(r.valueMiB / (r.cpuMs / 1000)).toFixed(1)} MiB per CPU second, ${(r.cpuMs / 1000).toFixed(1)} CPU s (${spread}), on a machine shared with other work)`,
      ratio: `${format === 'arrow' ? 'the reference' : `${ratio.toFixed(2)}× Arrow's CPU time`}; peak RSS ${fmtBytes(maxRss * 1024)} (start-up ${fmtBytes(r.baselineKiB * 1024)})`,
      goal: format === 'arrow' ? 'memory bounded by a row group (< 512 MiB)' : "within 2× of Arrow's time; memory bounded by a row group (< 512 MiB)",
      met: maxRss * 1024 < 512 * MiB && (format === 'arrow' || ratio <= 2),
    };
  });
}

async function main(): Promise<void> {
  const root = process.env['BENCH_DIR'] ?? '/tmp/bench-savepoints';
  const { dir, manifest } = ensureExportBenchSavepoint(root);
  const only = process.argv[2];
  if (only !== '--app-only') for (const f of measureExport(dir, manifest.totalBytes)) console.log(formatFigure(f));
  if (only !== '--cli-only') {
    const { measureAppQuery } = await import('./figure-export-app');
    for (const f of await measureAppQuery(dir, manifest)) console.log(formatFigure(f));
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(process.cwd(), 'bench/figure-export.ts')) void main();
