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
  const running = jobs.map((workerData) => {
    const worker = new Worker(entry, { workerData, ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}) });
    options.onStart?.(worker);
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const result = new Promise<T>((resolve, reject) => {
      let message: { value: T } | undefined;
      worker.once('message', (m: T) => (message = { value: m }));
      worker.once('error', reject);
      worker.once('exit', (code) => (message ? resolve(message.value) : reject(new Error(`worker thread exited with code ${code} before sending its result`))));
    });
    return { worker, exited, result };
  });
  try {
    return await Promise.all(running.map((r) => r.result));
  } catch (e) {
    await Promise.all(running.map(async (r) => {
      await r.worker.terminate();
      await r.exited;
    }));
    throw e;
  }
}
