/**
 * Whole-savepoint statistics on several cores: the subtasks (the unit of work: one keyed and one
 * operator state stream each) are split over `workers` worker threads by size (largest first to the
 * least loaded), each worker opens the input itself and scans its share (scanSavepointUnits), and
 * the results are merged. With one worker (or one subtask) it scans in this thread.
 */
import { Worker } from 'node:worker_threads';
import { openSavepoint } from '../../core/flink';
import { openNodeInput } from '../sources';
import { mergeCoverage, mergeStateStats } from './merge-state-stats';
import { scanSavepointUnits, type UnitsScanResult } from './scan-savepoint-units';
import type { SavepointStats, ScanOptions, ScanUnit } from './state-stats-types';

export interface ParallelScanOptions extends ScanOptions {
  /** worker threads (default 2) */
  workers?: number;
}

export interface ParallelScanResult extends SavepointStats {
  workers: number;
  units: number;
}

export async function runParallelScan(input: string, options: ParallelScanOptions = {}): Promise<ParallelScanResult> {
  const files = await openNodeInput(input);
  const opened = await openSavepoint(files);
  const units: ScanUnit[] = [];
  for (const op of opened.totals.operators) for (const s of op.subtasks) units.push({ operatorId: op.id, subtask: s.index, bytes: s.stateSize });
  const scanOptions: ScanOptions = { ...(options.sample ? { sample: options.sample } : {}), ...(options.newLimits ? { newLimits: options.newLimits } : {}) };
  const workers = Math.max(1, Math.min(options.workers ?? 2, units.length));
  let parts: UnitsScanResult[];
  if (workers === 1) {
    parts = [await scanSavepointUnits(files, units, scanOptions)];
  } else {
    parts = await Promise.all(splitUnits(units, workers).map((share) => runWorker(input, share, scanOptions)));
  }
  const coverage = mergeCoverage(parts.map((p) => p.coverage));
  return {
    states: mergeStateStats(parts.map((p) => p.states)),
    errors: parts.flatMap((p) => p.errors),
    ...(coverage ? { coverage } : {}),
    bytesRead: parts.reduce((s, p) => s + p.bytesRead, 0),
    workers,
    units: units.length,
  };
}

/** Largest unit first to the least loaded share. */
export function splitUnits(units: readonly ScanUnit[], shares: number): ScanUnit[][] {
  const out: { load: number; units: ScanUnit[] }[] = Array.from({ length: shares }, () => ({ load: 0, units: [] }));
  for (const u of [...units].sort((a, b) => b.bytes - a.bytes)) {
    const target = out.reduce((min, s) => (s.load < min.load ? s : min));
    target.units.push(u);
    target.load += u.bytes;
  }
  return out.map((s) => s.units).filter((u) => u.length > 0);
}

function runWorker(input: string, units: ScanUnit[], options: ScanOptions): Promise<UnitsScanResult> {
  return new Promise((resolve, reject) => {
    // a small young generation per worker: the scan's garbage is short-lived (entry objects, views of the
    // read buffers), and V8's default lets each worker hold ~35 MB more of it (2 workers over 2 GiB: ~410 -> ~330 MB RSS, same speed)
    const worker = new Worker(new URL('./scan-worker-entry.mjs', import.meta.url), { workerData: { input, units, options }, resourceLimits: { maxYoungGenerationSizeMb: 12 } });
    let result: UnitsScanResult | undefined;
    worker.once('message', (m: UnitsScanResult) => (result = m));
    worker.once('error', reject);
    worker.once('exit', (code) => (result ? resolve(result) : reject(new Error(`scan worker exited with code ${code} before sending its result`))));
  });
}
