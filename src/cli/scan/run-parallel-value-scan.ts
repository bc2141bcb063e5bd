/**
 * `check`'s value scan on several cores: the subtasks of the operators holding Protobuf states are
 * split over worker threads by size (splitUnits); each worker opens the input itself, evaluates the
 * states again (evaluateSavepointStates: same input, same states in the same order) and tallies
 * the value warnings of every state per subtask of its share; the tallies are merged per state in
 * subtask order, which is the order one whole read visits them in, so the report is the one a
 * scan in this thread gives. Small savepoints (below `minParallelBytes` of state in those
 * subtasks), one worker or one subtask: scanned in this thread.
 */
import { reopenOptions, type ReopenOptions } from '../sources';
import {
  IN_THREAD_VALUE_SCANNER,
  mergeStateValueTallies,
  type CheckSavepointInput,
  type StateValuesNotRead,
  type StateValueTally,
  type ValueScanner,
} from '../../core/report';
import { listScanUnits } from './list-scan-units';
import { splitUnits } from './run-parallel-scan';
import { runWorkerThreads } from './run-worker-threads';
import type { ScanUnit } from './state-stats-types';

/** What a worker needs to evaluate the states again: the check's input without the opened files and the callbacks. */
export type WorkerCheckInput = Omit<CheckSavepointInput, 'files' | 'opened' | 'valueScanner' | 'signal'>;

/** One (state, subtask) tally of a worker; `state` is the index in EvaluatedSavepoint.protobuf. */
export interface SubtaskValueTally {
  state: number;
  operatorId: string;
  stateName: string;
  subtask: number;
  result: StateValueTally | StateValuesNotRead | undefined;
}

export interface ParallelValueScanOptions {
  /** worker threads (default 2) */
  workers?: number;
  /** below this many bytes of state in the scanned subtasks, scan in this thread (default 32 MiB: a worker's start-up costs ~0.1–0.2 s) */
  minParallelBytes?: number;
  /** which `_metadata` of an input holding several (`--metadata`): the workers open the same savepoint */
  metadataPath?: string;
  /** `--path-map`, for the workers */
  pathMap?: string[];
  /** told how the scan runs: worker threads (0: in this thread) and subtasks */
  onPlan?: (plan: { workers: number; subtasks: number }) => void;
}

const DEFAULT_MIN_PARALLEL_BYTES = 32 * 1024 * 1024;

/** A CheckSavepointInput.valueScanner for the savepoint at `input` (a path or URL the workers open again). */
export function createParallelValueScanner(input: string, check: WorkerCheckInput, options: ParallelValueScanOptions = {}): ValueScanner {
  const scanValues: ValueScanner['scanValues'] = async (evaluated, signal) => {
    // the savepoint as the check opened it: `_metadata` is not read again
    const opened = evaluated.opened;
    const units = listScanUnits(
      opened,
      evaluated.protobuf.map((s) => s.found.operator.id),
    );
    const bytes = units.reduce((sum, u) => sum + u.bytes, 0);
    const workers = Math.max(1, Math.min(options.workers ?? 2, units.length));
    const inThread = workers === 1 || bytes < (options.minParallelBytes ?? DEFAULT_MIN_PARALLEL_BYTES);
    options.onPlan?.({ workers: inThread ? 0 : workers, subtasks: units.length });
    if (inThread) {
      return IN_THREAD_VALUE_SCANNER.scanValues(evaluated, signal);
    }
    const parts = (await runWorkers(input, reopenOptions(opened.files, options), check, splitUnits(units, workers))).flat();
    return evaluated.protobuf.map((state, i) => {
      const mine = parts.filter((p) => p.state === i).sort((a, b) => a.subtask - b.subtask);
      for (const p of mine) {
        if (p.operatorId !== state.found.operator.id || p.stateName !== state.found.state.name) {
          throw new Error(
            `value scan worker evaluated state ${i} as ${p.operatorId}/${p.stateName}, this thread as ${state.found.operator.id}/${state.found.state.name}`,
          );
        }
      }
      return mergeStateValueTallies(mine.map((p) => p.result));
    });
  };
  return { scanValues };
}

function runWorkers(input: string, reopen: ReopenOptions, check: WorkerCheckInput, shares: ScanUnit[][]): Promise<SubtaskValueTally[][]> {
  // as the stats workers: a small young generation (the scan's garbage is short-lived)
  return runWorkerThreads<SubtaskValueTally[]>(
    new URL('./scan-worker-entry.mjs', import.meta.url),
    shares.map((units) => ({ kind: 'check-values', input, ...reopen, check, units })),
    { resourceLimits: { maxYoungGenerationSizeMb: 12 } },
  );
}
