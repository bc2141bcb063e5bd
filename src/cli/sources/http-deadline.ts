/**
 * The HTTP deadline of one command run (SAVEPOINT_INSPECTOR_HTTP_DEADLINE): the CLI's fetch
 * (node-range-fetch.ts) tells the run when its deadline passed, and dispatch-command.ts then ends the
 * command with exit 2 and says so — whatever the command made of the reads that failed (`inspect` lists
 * such states as not read and would otherwise exit 0). One context per run (AsyncLocalStorage), so runs
 * in one process (tests) do not see each other's deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HttpDeadlinePassed } from '../../core/io';

interface HttpDeadlineContext {
  passed?: HttpDeadlinePassed;
}

const runs = new AsyncLocalStorage<HttpDeadlineContext>();

/** Runs a command; `passed` is set when an HTTP deadline of its fetches passed. */
export async function runWithHttpDeadline<T>(run: () => Promise<T>): Promise<{ result: T; passed: HttpDeadlinePassed | undefined }> {
  const context: HttpDeadlineContext = {};
  const result = await runs.run(context, run);
  return { result, passed: context.passed };
}

/** The current run's reporter of a passed deadline (captured when the fetch is made). */
export function captureHttpDeadlineReporter(): (passed: HttpDeadlinePassed) => void {
  const context = runs.getStore();
  return (passed) => {
    if (context !== undefined) context.passed ??= passed;
  };
}

/** The command's message when its deadline passed: the deadline and what was read by then. */
export function describeHttpDeadlinePassed(p: HttpDeadlinePassed): string {
  const setting = p.totalSetting === undefined ? '' : ` (${p.totalSetting})`;
  return `expected all HTTP reads to end within ${p.totalMs / 1000} s${setting}, found the deadline passed after ${p.answered} request${p.answered === 1 ? '' : 's'} answered and ${p.bytes} bytes received: what is shown covers only what was read by then`;
}
