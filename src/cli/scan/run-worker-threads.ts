/**
 * Runs one worker thread per job and collects each one's single message, in job order. When any
 * worker fails (an error, or an exit before its message), the others are terminated before the
 * failure is passed on: a stalled worker (e.g. over a hanging HTTP input) must not keep the process
 * alive after the command has failed. Settles only once every worker has exited.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface WorkerThreadOptions {
  resourceLimits?: ResourceLimits;
  /** sees every worker as it starts (tests observe their exits) */
  onStart?: (worker: Worker) => void;
}

export async function runWorkerThreads<T>(entry: URL, jobs: readonly unknown[], options: WorkerThreadOptions = {}): Promise<T[]> {
  const running: RunningWorker<T>[] = [];
  try {
    // started inside the try: a job whose worker cannot be created (its workerData does not clone, no thread
    // can be started) must not leave the workers started before it running
    for (const workerData of jobs) running.push(startWorker<T>(entry, workerData, options));
    return await Promise.all(running.map((r) => r.result));
  } catch (e) {
    await Promise.all(
      running.map(async (r) => {
        await r.worker.terminate();
        await r.exited;
      }),
    );
    throw e;
  }
}

interface RunningWorker<T> {
  worker: Worker;
  exited: Promise<void>;
  result: Promise<T>;
}

function startWorker<T>(entry: URL, workerData: unknown, options: WorkerThreadOptions): RunningWorker<T> {
  const worker = new Worker(entry, { workerData, ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}) });
  options.onStart?.(worker);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const result = new Promise<T>((resolve, reject) => {
    let message: { value: T } | undefined;
    worker.once('message', (m: T) => (message = { value: m }));
    worker.once('error', reject);
    worker.once('exit', (code) => (message ? resolve(message.value) : reject(new Error(`worker thread exited with code ${code} before sending its result`))));
  });
  // a worker failing while an earlier job's result is awaited, or while a later worker is being created, is
  // handled here: its failure is passed on by Promise.all (or replaced by the creation error), never unhandled
  result.catch(() => undefined);
  return { worker, exited, result };
}
