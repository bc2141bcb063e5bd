/** Worker thread entry of the parallel scan: opens the input itself and scans its share of subtasks. */
import { parentPort, workerData } from 'node:worker_threads';
import { openNodeInput } from '../sources';
import { scanSavepointUnits } from './scan-savepoint-units';
import type { ScanOptions, ScanUnit } from './state-stats-types';

const job = workerData as { input: string; units: ScanUnit[]; options: ScanOptions };
const files = await openNodeInput(job.input);
parentPort!.postMessage(await scanSavepointUnits(files, job.units, job.options));
