/**
 * Whole-savepoint statistics on several cores: the subtasks (the unit of work: one keyed and one
 * operator state stream each) are split over `workers` worker threads by size (largest first to the
 * least loaded), each worker opens the input itself and scans its share (scanSavepointUnits), and
 * the results are merged. With one worker (or one subtask) it scans in this thread.
 */
import { createSavepointRegistry } from '../../core/compat';
import { openSavepoint } from '../../core/flink';
import { buildSizeBreakdown, countTimersByOperator, finishValueSizes, sizedStatesOfStats, type SizeBreakdown } from '../../core/report';
import { openNodeInput, reopenOptions, type NodeInputOptions, type ReopenOptions } from '../sources';
import { listScanUnits } from './list-scan-units';
import { mergeCoverage, mergeStateStats } from './merge-state-stats';
import { runWorkerThreads } from './run-worker-threads';
import { scanSavepointUnits, type UnitsScanResult } from './scan-savepoint-units';
import { checkShardRange, identifySavepoint, type SavepointIdentity } from './shard-identity';
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
  /** a key-group shard's scan (`keyGroupRange`): what it covered, and the savepoint it read */
  shard?: ShardScope;
  /** `--ttl`: the TTL and the time the TTL values were judged at (`given` by --ttl-at, or the savepoint's newest access time; null: no TTL value) */
  ttlExpiry?: { ttlMs: number; atMs: number | null; at: 'given' | 'newest-access' };
  /** a shard's: the savepoint's `_metadata` as read, which its shard file carries so that merge-stats places the sizes without the savepoint */
  metadataBytes?: Uint8Array;
}

/** What a key-group shard covered of which savepoint (written into its shard file, checked by the merge). */
export interface ShardScope {
  keyGroups: { start: number; end: number };
  /** the largest max parallelism of the savepoint's operators with keyed state: the shards of a split cover [0, maxParallelism) */
  maxParallelism: number;
  operatorState: boolean;
  savepoint: SavepointIdentity;
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
  const range = options.keyGroupRange;
  const shard: ShardScope | undefined =
    range === undefined
      ? undefined
      : {
          keyGroups: range,
          maxParallelism: checkShardRange(opened, range),
          operatorState: options.operatorState ?? range.start === 0,
          savepoint: identifySavepoint(opened),
        };
  const scanOptions: ScanOptions = {
    ...(options.sample ? { sample: options.sample } : {}),
    ...(options.newLimits ? { newLimits: options.newLimits } : {}),
    ...(options.kryoSchema ? { kryoSchema: options.kryoSchema } : {}),
    ...(options.ttlExpiry ? { ttlExpiry: options.ttlExpiry } : {}),
    ...(shard
      ? {
          keyGroupRange: shard.keyGroups,
          operatorState: shard.operatorState,
          positions: new Map(units.map((u, i) => [`${u.operatorId}\u0000${u.subtask}`, i])),
        }
      : {}),
  };
  // the first N entries of each state are those of its subtasks in index order: one scan reads them (a worker per share would cap each share)
  const workers = options.sample?.kind === 'first-entries' ? 1 : Math.max(1, Math.min(options.workers ?? 2, units.length));
  let parts: UnitsScanResult[];
  if (workers === 1) {
    parts = [await scanSavepointUnits(opened, createSavepointRegistry({ schema: options.kryoSchema }), units, scanOptions)];
  } else {
    // a shard's workers take runs of units in scan order, so their results join in that order (examples, errors)
    const shares = shard ? splitUnitsInOrder(units, workers) : splitUnits(units, workers);
    parts = await runWorkers(input, reopenOptions(files, inputOptions), shares, scanOptions);
  }
  const coverage = mergeCoverage(parts.map((p) => p.coverage));
  // a shard keeps each state's value-size tally whole (largest values, bytes per key group): merge-stats adds the shards' tallies, then finishes them
  const merged = mergeStateStats(parts.map((p) => p.states));
  const states = shard ? merged : merged.map(finishValueSizes);
  return {
    states,
    errors: parts.flatMap((p) => p.errors),
    ...(shard ? { errorsAt: parts.flatMap((p) => p.errorsAt ?? []) } : {}),
    ...(coverage ? { coverage } : {}),
    bytesRead: parts.reduce((s, p) => s + p.bytesRead, 0),
    workers,
    units: units.length,
    sizes: buildSizeBreakdown(opened.metadata, sizedStatesOfStats(states)),
    timers: countTimersByOperator(states),
    ...(opened.warnings.length > 0 ? { warnings: [...opened.warnings] } : {}),
    ...(shard ? { shard, metadataBytes: opened.metadataBytes } : {}),
  };
}

/** Units in scan order cut into `shares` runs of about equal bytes. */
export function splitUnitsInOrder(units: readonly ScanUnit[], shares: number): ScanUnit[][] {
  const total = units.reduce((s, u) => s + u.bytes, 0);
  const out: ScanUnit[][] = [[]];
  let load = 0;
  units.forEach((u, i) => {
    const left = units.length - i;
    const open = shares - out.length;
    // a new run once this one has its share of the bytes (or when every remaining unit must start one)
    if (out[out.length - 1]!.length > 0 && open > 0 && (load >= (total * out.length) / shares || left <= open)) out.push([]);
    out[out.length - 1]!.push(u);
    load += u.bytes;
  });
  return out;
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
