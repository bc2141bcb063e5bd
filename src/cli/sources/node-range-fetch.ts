/**
 * The CLI's fetch for HTTP range reads: Node 20's global fetch with the bounds of the core's
 * createBoundedRangeFetch, so that no server can hold a command forever (the app's worker uses the same
 * bounds over the browser's fetch):
 *
 * - Response headers must arrive within `headersMs` of the request (connect included), and the
 *   body may never go `idleMs` without data; a body must also keep up a minimum rate
 *   (MIN_BYTES_PER_SECOND averaged over the range asked for, after the first `idleMs`), so a server
 *   that trickles a byte now and then is cut off too. The error says what was waited for.
 * - A request that fails before any answer (connection refused or reset) is retried `retries`
 *   times, after 200 ms and 400 ms; a timeout is not retried, and after one, every later request
 *   to the same origin fails at once with the same reason (a dead server costs one timeout, not
 *   one per file).
 * - It asks for `Accept-Encoding: identity`: a byte range must come as stored.
 *
 * - All requests of a command together must end within SAVEPOINT_INSPECTOR_HTTP_DEADLINE seconds
 *   (default 300; 0: none), from the first: a server that answers every request just within the
 *   bounds above cannot hold a command for minutes. The error says the deadline and what was read.
 *
 * The bounds come from SAVEPOINT_INSPECTOR_HTTP_TIMEOUT (seconds, for both; default 10),
 * SAVEPOINT_INSPECTOR_HTTP_RETRIES (default 2) and SAVEPOINT_INSPECTOR_HTTP_DEADLINE. One instance
 * serves one opened input.
 */
import { createBoundedRangeFetch, type BoundedFetchOptions, type FetchPlatform, type RangeFetch } from '../../core/io';
import { captureHttpDeadlineReporter } from './http-deadline';

export type NodeRangeFetchOptions = BoundedFetchOptions;

export const DEFAULT_HTTP_TIMEOUT_SECONDS = 10;
export const DEFAULT_HTTP_RETRIES = 2;
/** seconds for all of a command's HTTP requests together */
export const DEFAULT_HTTP_DEADLINE_SECONDS = 300;

export function httpOptionsFromEnv(env: Record<string, string | undefined> = process.env): NodeRangeFetchOptions {
  const seconds = Number(env['SAVEPOINT_INSPECTOR_HTTP_TIMEOUT'] ?? DEFAULT_HTTP_TIMEOUT_SECONDS);
  const retries = Number(env['SAVEPOINT_INSPECTOR_HTTP_RETRIES'] ?? DEFAULT_HTTP_RETRIES);
  const ms = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : DEFAULT_HTTP_TIMEOUT_SECONDS * 1000;
  const total = Number(env['SAVEPOINT_INSPECTOR_HTTP_DEADLINE'] ?? DEFAULT_HTTP_DEADLINE_SECONDS);
  const totalSeconds = Number.isFinite(total) && total >= 0 ? total : DEFAULT_HTTP_DEADLINE_SECONDS;
  return {
    headersMs: ms,
    idleMs: ms,
    retries: Number.isInteger(retries) && retries >= 0 && retries <= 10 ? retries : DEFAULT_HTTP_RETRIES,
    ...(totalSeconds === 0 ? {} : { totalMs: Math.round(totalSeconds * 1000), totalSetting: 'SAVEPOINT_INSPECTOR_HTTP_DEADLINE' }),
  };
}

/** Node's fetch, timers (background ones unref'd) and connection errors, for createBoundedRangeFetch. */
const NODE_PLATFORM: FetchPlatform = {
  // a byte range must come as stored
  fetch: (url, init) => fetch(url, { method: init.method, headers: { ...init.headers, 'Accept-Encoding': 'identity' }, signal: init.signal as AbortSignal }),
  createAbortController: () => new AbortController(),
  setTimer(fn, ms, background) {
    const timer = setTimeout(fn, ms);
    if (background === true) timer.unref();
    return timer;
  },
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
  isRetryable,
};

export function createNodeRangeFetch(options: NodeRangeFetchOptions = httpOptionsFromEnv()): RangeFetch {
  // a passed deadline ends the command with exit 2 (http-deadline.ts), even where it lists the reads as failed and goes on
  return createBoundedRangeFetch(NODE_PLATFORM, { onDeadline: captureHttpDeadlineReporter(), ...options });
}

/** Connection-level failures before any answer (refused, reset, closed): worth one more try. */
function isRetryable(e: unknown): boolean {
  const code = (e as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code);
}
