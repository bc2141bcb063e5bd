import { createBoundedRangeFetch, openHttpRangeSource, type ByteSource, type FetchPlatform, type RangeFetch } from '../../core/io';

/**
 * How long the app waits for a server: response headers, and each stretch of a body without data. Longer
 * than the CLI's 10 s default (a person on a slow link rather waits than retries), bounded all the same: a
 * server that never answers ends in a network error naming the URL and what was waited for, not a spinner
 * forever. A browser does not say why a request failed (a refused connection and a blocked cross-origin
 * request look alike), so nothing is retried.
 */
export const BROWSER_HTTP_TIMEOUT_MS = 30_000;

const BROWSER_PLATFORM: FetchPlatform = {
  // no-store: a savepoint read by range must not be served from a stale cache
  fetch: (url, init) => fetch(url, { method: init.method, headers: init.headers, signal: init.signal as AbortSignal, cache: 'no-store' }),
  createAbortController: () => new AbortController(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  isRetryable: () => false,
};

/** The browser's fetch with the header, idle and rate bounds of the core's createBoundedRangeFetch; one per opened input. */
export function createBrowserRangeFetch(timeoutMs = BROWSER_HTTP_TIMEOUT_MS): RangeFetch {
  return createBoundedRangeFetch(BROWSER_PLATFORM, { headersMs: timeoutMs, idleMs: timeoutMs, retries: 0 });
}

/**
 * A ByteSource over a URL using the browser's fetch with HTTP Range requests (see the core's
 * openHttpRangeSource for the probe and its error messages: Range ignored, CORS blocked, 404).
 */
export function openBrowserHttpSource(url: string, name = url, fetchFn: RangeFetch = createBrowserRangeFetch()): Promise<ByteSource> {
  return openHttpRangeSource(url, fetchFn, name);
}
