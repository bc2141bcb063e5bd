/** Figure 10: `export` throughput (MiB/s of state values) and peak RSS, JSON Lines and Parquet, in a child process each. */
import path from 'node:path';
import { fmtBytes, MiB, timeProcess, type Figure } from './measure';

interface ExportRun { maxRssKiB: number; baselineKiB: number; ms: number; rows: number; valueMiB: number; fileBytes: number }

export function runExportChild(dir: string, format: 'jsonl' | 'parquet'): ExportRun {
  const tsx = path.resolve(process.cwd(), 'node_modules/.bin/tsx');
  const { stdout } = timeProcess(tsx, [path.resolve(process.cwd(), 'bench/export-child.ts'), dir, format], 1);
  return JSON.parse(stdout) as ExportRun;
}

export function measureExport(dir: string): Figure[] {
  return (['jsonl', 'parquet'] as const).map((format, i) => {
    const r = runExportChild(dir, format);
    const rate = r.valueMiB / (r.ms / 1000);
    return {
      id: `10${'ab'[i]}`,
      name: `export of state last-event as ${format === 'jsonl' ? 'JSON Lines' : 'Parquet'} (${r.rows} rows, ${r.valueMiB.toFixed(1)} MiB of values, full decode; file ${fmtBytes(r.fileBytes)})`,
      value: `${rate.toFixed(1)} MiB/s (${(r.ms / 1000).toFixed(1)} s)`,
      ratio: `peak RSS ${fmtBytes(r.maxRssKiB * 1024)} (start-up ${fmtBytes(r.baselineKiB * 1024)})`,
      goal: 'memory bounded by a row group (< 512 MiB)',
      met: r.maxRssKiB * 1024 < 512 * MiB,
    };
  });
}
