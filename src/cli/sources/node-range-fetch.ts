/**
 * The CLI's fetch for HTTP range reads: Node 20's global fetch with the bounds a command needs so
 * that no server can hold it forever.
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
 * The bounds come from SAVEPOINT_INSPECTOR_HTTP_TIMEOUT (seconds, for both; default 10) and
 * SAVEPOINT_INSPECTOR_HTTP_RETRIES (default 2). One instance serves one opened input.
 */
import type { RangeFetch, RangeFetchBodyReader, RangeFetchResponse } from '../../core/io';

export interface NodeRangeFetchOptions {
  headersMs: number;
  idleMs: number;
  retries: number;
}

/** A body slower than this (averaged over the range asked for) is cut off once `idleMs` have passed. */
export const MIN_BYTES_PER_SECOND = 16 * 1024;

export const DEFAULT_HTTP_TIMEOUT_SECONDS = 10;
export const DEFAULT_HTTP_RETRIES = 2;

export function httpOptionsFromEnv(env: Record<string, string | undefined> = process.env): NodeRangeFetchOptions {
  const seconds = Number(env['SAVEPOINT_INSPECTOR_HTTP_TIMEOUT'] ?? DEFAULT_HTTP_TIMEOUT_SECONDS);
  const retries = Number(env['SAVEPOINT_INSPECTOR_HTTP_RETRIES'] ?? DEFAULT_HTTP_RETRIES);
  const ms = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : DEFAULT_HTTP_TIMEOUT_SECONDS * 1000;
  return { headersMs: ms, idleMs: ms, retries: Number.isInteger(retries) && retries >= 0 && retries <= 10 ? retries : DEFAULT_HTTP_RETRIES };
}

/** Named as the platform's AbortSignal.timeout() names its error: the core words such a failure as a wait that ran out. */
class HttpTimeout extends Error {
  override readonly name = 'TimeoutError';
}

export function createNodeRangeFetch(options: NodeRangeFetchOptions = httpOptionsFromEnv()): RangeFetch {
  const seconds = (ms: number) => `${ms / 1000} s`;
  /** origin → why it stopped answering */
  const unresponsive = new Map<string, string>();
  return async (url, init) => {
    const origin = new URL(url).origin;
    const dead = unresponsive.get(origin);
    if (dead !== undefined) throw new HttpTimeout(`${dead} on an earlier request to ${origin}; not asked again`);
    for (let attempt = 0; ; attempt++) {
      const controller = new AbortController();
      let timedOut: string | undefined;
      const stop = (why: string) => {
        timedOut ??= why;
        unresponsive.set(origin, why);
        controller.abort(new HttpTimeout(why));
      };
      const headerTimer = setTimeout(() => stop(`no response headers within ${seconds(options.headersMs)}`), options.headersMs);
      let res: Response;
      try {
        res = await fetch(url, { method: init.method, headers: { ...init.headers, 'Accept-Encoding': 'identity' }, signal: controller.signal });
      } catch (e) {
        if (timedOut !== undefined) throw new HttpTimeout(timedOut);
        if (attempt >= options.retries || !isRetryable(e)) throw e;
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
        continue;
      } finally {
        clearTimeout(headerTimer);
      }
      return boundBody(res, init.headers?.['Range'], options, stop, () => timedOut);
    }
  };
}

/** Connection-level failures before any answer (refused, reset, closed): worth one more try. */
function isRetryable(e: unknown): boolean {
  const code = (e as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code);
}

/** The response with a body whose reads are bounded by the idle timeout and the minimum rate. */
function boundBody(res: Response, rangeHeader: string | undefined, options: NodeRangeFetchOptions, stop: (why: string) => void, timedOut: () => string | undefined): RangeFetchResponse {
  const body = res.body;
  const m = rangeHeader === undefined ? null : /bytes=(\d+)-(\d+)/.exec(rangeHeader);
  const expected = m ? Number(m[2]) - Number(m[1]) + 1 : undefined;
  const deadlineMs = expected === undefined ? undefined : options.idleMs + (expected / MIN_BYTES_PER_SECOND) * 1000;
  const getReader = (stream: ReadableStream<Uint8Array>): RangeFetchBodyReader => {
    const reader = stream.getReader();
    const overall = deadlineMs === undefined ? undefined : unref(setTimeout(() => stop(`the body arrived slower than ${MIN_BYTES_PER_SECOND / 1024} KiB/s (${expected} bytes not complete after ${Math.round(deadlineMs / 100) / 10} s)`), deadlineMs));
    const done = () => clearTimeout(overall);
    return {
      async read() {
        const idle = setTimeout(() => stop(`no body data for ${options.idleMs / 1000} s`), options.idleMs);
        try {
          const chunk = await reader.read();
          if (chunk.done) done();
          return chunk;
        } catch (e) {
          done();
          const why = timedOut();
          throw why === undefined ? e : new HttpTimeout(why);
        } finally {
          clearTimeout(idle);
        }
      },
      async cancel(reason?: unknown) {
        done();
        await reader.cancel(reason);
      },
    };
  };
  return {
    status: res.status,
    headers: res.headers,
    body: body === null ? null : { cancel: () => body.cancel(), getReader: () => getReader(body) },
    arrayBuffer: () => res.arrayBuffer(),
  };
}

/** The rate deadline outlives the reads only when a body is dropped unread: it must not keep the process alive then. */
function unref(timer: NodeJS.Timeout): NodeJS.Timeout {
  timer.unref();
  return timer;
}
