import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { runWorkerThreads } from './run-worker-threads';

const dir = mkdtempSync(path.join(tmpdir(), 'worker-threads-'));
const entry = pathToFileURL(path.join(dir, 'job.mjs'));
// a job per workerData: 'fail' throws at start, 'forever' never answers (a stalled read), a number is doubled
writeFileSync(
  entry,
  `import { parentPort, workerData } from 'node:worker_threads';
if (workerData === 'fail') throw new Error('job failed');
if (workerData === 'forever') setInterval(() => {}, 1000);
else parentPort.postMessage(workerData * 2);
`,
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records every worker runWorkerThreads starts, and which of them have exited. */
function trackWorkers(): { workers: Worker[]; exited: Worker[]; onStart: (w: Worker) => void } {
  const workers: Worker[] = [];
  const exited: Worker[] = [];
  return {
    workers,
    exited,
    onStart: (w) => {
      workers.push(w);
      w.once('exit', () => exited.push(w));
    },
  };
}

describe('runWorkerThreads', () => {
  it("gives each job's message in job order", async () => {
    expect(await runWorkerThreads<number>(entry, [3, 1, 2])).toEqual([6, 2, 4]);
  });

  it('on a failure terminates the other workers (a stalled one included) before passing the error on', async () => {
    const { workers, exited, onStart } = trackWorkers();
    await expect(runWorkerThreads(entry, ['forever', 'fail', 5], { onStart })).rejects.toThrow('job failed');
    expect(workers).toHaveLength(3);
    expect(exited).toHaveLength(3);
  });

  it('when a later worker cannot be created, terminates the ones already started before passing the error on', async () => {
    const { workers, exited, onStart } = trackWorkers();
    // a function cannot be cloned into workerData: the Worker constructor throws for the second job
    await expect(runWorkerThreads(entry, ['forever', () => undefined], { onStart })).rejects.toThrow('could not be cloned');
    expect(workers).toHaveLength(1);
    expect(exited).toHaveLength(1);
  });
});
