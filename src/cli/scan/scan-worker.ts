/** Worker thread entry of the parallel scans: opens the input itself and scans its share of subtasks (`stats`, or `check`'s value warnings). */
import { parentPort, workerData } from 'node:worker_threads';
import { createSavepointRegistry } from '../../core/compat';
import { openSavepointSession } from '../../core/flink';
import { installSnappyWasm } from '../install-snappy-wasm';
import { openNodeInput, type ReopenOptions } from '../sources';
import { scanSavepointUnits } from './scan-savepoint-units';
import type { WorkerCheckInput } from './run-parallel-value-scan';
import { tallySubtaskValues } from './tally-subtask-values';
import type { ScanOptions, ScanUnit } from './state-stats-types';

const job = workerData as (
  | { kind?: 'stats'; input: string; units: ScanUnit[]; options: ScanOptions }
  | { kind: 'check-values'; input: string; units: ScanUnit[]; check: WorkerCheckInput }
) &
  ReopenOptions;
// the main thread's --metadata (or the checkpoint it chose), --path-map and an object store's pinned ETags
const inputOptions: ReopenOptions = {
  ...(job.metadataPath === undefined ? {} : { metadataPath: job.metadataPath }),
  ...(job.pathMap ? { pathMap: job.pathMap } : {}),
  ...(job.pins ? { pins: job.pins } : {}),
};
installSnappyWasm();
if (job.kind === 'check-values') {
  parentPort!.postMessage(await tallySubtaskValues(job.input, job.check, job.units, inputOptions));
} else {
  const files = await openNodeInput(job.input, inputOptions);
  const session = await openSavepointSession(files, createSavepointRegistry({ schema: job.options.kryoSchema }));
  parentPort!.postMessage(await scanSavepointUnits(session.opened, session.registry, job.units, job.options));
}
