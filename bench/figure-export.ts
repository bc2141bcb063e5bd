/**
 * Figure 10: `export` throughput (MiB/s of state values) and peak RSS over the 1 GiB bench savepoint
 * (state last-event), JSON Lines and Parquet, in a child process each (10a, 10b); and the app's Query
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

export function runExportChild(dir: string, format: 'jsonl' | 'parquet'): ExportRun {
  const tsx = path.resolve(process.cwd(), 'node_modules/.bin/tsx');
  const { stdout } = timeProcess(tsx, [path.resolve(process.cwd(), 'bench/export-child.ts'), dir, format], 1);
  return JSON.parse(stdout) as ExportRun;
}

export function measureExport(dir: string, savepointBytes: number): Figure[] {
  return (['jsonl', 'parquet'] as const).map((format, i) => {
    const r = runExportChild(dir, format);
    const rate = r.valueMiB / (r.ms / 1000);
    return {
      id: `10${'ab'[i]}`,
      name: `export of state last-event of the ${fmtBytes(savepointBytes)} savepoint as ${format === 'jsonl' ? 'JSON Lines' : 'Parquet'} (${r.rows} rows, ${r.valueMiB.toFixed(1)} MiB of values, full decode; file ${fmtBytes(r.fileBytes)})`,
      value: `${rate.toFixed(1)} MiB/s (${(r.ms / 1000).toFixed(1)} s wall; ${(r.valueMiB / (r.cpuMs / 1000)).toFixed(1)} MiB per CPU second, ${(r.cpuMs / 1000).toFixed(1)} CPU s, on a machine shared with other work)`,
      ratio: `peak RSS ${fmtBytes(r.maxRssKiB * 1024)} (start-up ${fmtBytes(r.baselineKiB * 1024)})`,
      goal: 'memory bounded by a row group (< 512 MiB)',
      met: r.maxRssKiB * 1024 < 512 * MiB,
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
