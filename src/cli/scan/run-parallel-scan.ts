/**
 * Whole-savepoint statistics on several cores: the subtasks (the unit of work: one keyed and one
 * operator state stream each) are split over `workers` worker threads by size (largest first to the
 * least loaded), each worker opens the input itself and scans its share (scanSavepointUnits), and
 * the results are merged. With one worker (or one subtask) it scans in this thread.
 */
import { openSavepoint } from '../../core/flink';
import { buildSizeBreakdown, countTimersByOperator, finishValueSizes, sizedStatesOfStats, type SizeBreakdown } from '../../core/report';
import { openNodeInput, reopenOptions, type NodeInputOptions, type ReopenOptions } from '../sources';
import { listScanUnits } from './list-scan-units';
import { mergeCoverage, mergeStateStats } from './merge-state-stats';
import { runWorkerThreads } from './run-worker-threads';
import { scanSavepointUnits, type UnitsScanResult } from './scan-savepoint-units';
import type { SavepointStats, ScanOptions, ScanUnit } from './state-stats-types';

export interface ParallelScanOptions extends ScanOptions {
  /** worker threads (default 2) */
  workers?: number;
  /** which `_metadata` of an input holding several (`--metadata`) */
  metadataPath?: string;
  /** `--path-map FROM=TO`, as written */
  pathMap?: string[];
  /** told how an object store is reached and what was chosen (stderr) */
  notice?: (line: string) => void;
}

export interface ParallelScanResult extends SavepointStats {
  workers: number;
  units: number;
  /** where the bytes are, from `_metadata`'s handles (not the scan's reads) */
  sizes: SizeBreakdown;
  /** timers per operator with timer state (the entries of its `_timer_state/…` queues counted) */
  timers: { operatorId: string; timers: number }[];
  /** what opening the savepoint warned about (duplicated structures read once, absolute paths resolved by base name, …); present when there is any */
  warnings?: string[];
}

export async function runParallelScan(input: string, options: ParallelScanOptions = {}): Promise<ParallelScanResult> {
  const inputOptions: NodeInputOptions = {
    ...(options.metadataPath === undefined ? {} : { metadataPath: options.metadataPath }),
    ...(options.pathMap ? { pathMap: options.pathMap } : {}),
    ...(options.notice ? { notice: options.notice } : {}),
  };
  const files = await openNodeInput(input, inputOptions);
  const opened = await openSavepoint(files);
  const units = listScanUnits(
    opened,
    opened.totals.operators.map((o) => o.id),
  );
  const scanOptions: ScanOptions = {
    ...(options.sample ? { sample: options.sample } : {}),
    ...(options.newLimits ? { newLimits: options.newLimits } : {}),
    ...(options.kryoSchema ? { kryoSchema: options.kryoSchema } : {}),
  };
  // the first N entries of each state are those of its subtasks in index order: one scan reads them (a worker per share would cap each share)
  const workers = options.sample?.kind === 'first-entries' ? 1 : Math.max(1, Math.min(options.workers ?? 2, units.length));
  let parts: UnitsScanResult[];
  if (workers === 1) {
    parts = [await scanSavepointUnits(opened, units, scanOptions)];
  } else {
    parts = await runWorkers(input, reopenOptions(files, inputOptions), splitUnits(units, workers), scanOptions);
  }
  const coverage = mergeCoverage(parts.map((p) => p.coverage));
  const states = mergeStateStats(parts.map((p) => p.states)).map(finishValueSizes);
  return {
    states,
    errors: parts.flatMap((p) => p.errors),
    ...(coverage ? { coverage } : {}),
    bytesRead: parts.reduce((s, p) => s + p.bytesRead, 0),
    workers,
    units: units.length,
    sizes: buildSizeBreakdown(opened.metadata, sizedStatesOfStats(states)),
    timers: countTimersByOperator(states),
    ...(opened.warnings.length > 0 ? { warnings: [...opened.warnings] } : {}),
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

function runWorkers(input: string, inputOptions: ReopenOptions, shares: ScanUnit[][], options: ScanOptions): Promise<UnitsScanResult[]> {
  // a small young generation per worker: the scan's garbage is short-lived (entry objects, views of the
  // read buffers), and V8's default lets each worker hold ~35 MB more of it (2 workers over 2 GiB: ~410 -> ~330 MB RSS, same speed)
  return runWorkerThreads<UnitsScanResult>(
    new URL('./scan-worker-entry.mjs', import.meta.url),
    shares.map((units) => ({ input, ...inputOptions, units, options })),
    { resourceLimits: { maxYoungGenerationSizeMb: 12 } },
  );
}
