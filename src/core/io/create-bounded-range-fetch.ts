/**
 * A RangeFetch with the bounds a reader needs so that no server can hold it forever, over the platform's
 * own fetch (Node's in the CLI, the browser's in the app's worker), passed in so that this stays platform-free.
 *
 * - Response headers must arrive within `headersMs` of the request (connect included), and the body may
 *   never go `idleMs` without data; a body must also keep up a minimum rate (MIN_BYTES_PER_SECOND averaged
 *   over the range asked for, after the first `idleMs`), so a server that trickles a byte now and then is
 *   cut off too. The error (named TimeoutError, as AbortSignal.timeout's) says what was waited for.
 * - A request that fails before any answer with a connection-level error the platform names (refused,
 *   reset) is retried `retries` times, after 200 ms and 400 ms; a timeout is not retried, and after one,
 *   every later request to the same origin fails at once with the same reason (a dead server costs one
 *   timeout, not one per file).
 * - `totalMs` (optional) bounds all requests together, from the first one: a server that answers each
 *   request just within its bounds cannot hold a command for minutes. When it passes, the requests in
 *   flight are aborted and every later one fails at once; the error says the deadline and what was read
 *   by then (requests answered, bytes received).
 */
import type { RangeFetch, RangeFetchBodyReader, RangeFetchResponse } from './open-http-range-source';

export interface BoundedFetchOptions {
  headersMs: number;
  idleMs: number;
  retries: number;
  /** a deadline for all requests together, from the first one (undefined: none) */
  totalMs?: number;
  /** how the deadline is set, named in its error (e.g. the CLI's environment variable) */
  totalSetting?: string;
  /** told once when the deadline passes: what was read by then (so a caller that keeps going after failed reads can say so) */
  onDeadline?: (passed: HttpDeadlinePassed) => void;
}

/** The deadline for all requests that passed, and what was read by then. */
export interface HttpDeadlinePassed {
  totalMs: number;
  totalSetting: string | undefined;
  answered: number;
  bytes: number;
}

/** A body slower than this (averaged over the range asked for) is cut off once `idleMs` have passed. */
export const MIN_BYTES_PER_SECOND = 16 * 1024;

/** What the platform's fetch answers (a WHATWG Response fits). */
export interface PlatformFetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body: { getReader(): RangeFetchBodyReader & { cancel(reason?: unknown): Promise<void> }; cancel(): Promise<void> } | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The platform primitives: its fetch (with whatever request options it adds), abort controllers and timers. */
export interface FetchPlatform {
  fetch(url: string, init: { method: 'GET' | 'HEAD'; headers: Record<string, string>; signal: unknown }): Promise<PlatformFetchResponse>;
  createAbortController(): { readonly signal: unknown; abort(reason?: unknown): void };
  /** `background`: a timer that must not keep a process alive (Node's unref) */
  setTimer(fn: () => void, ms: number, background?: boolean): unknown;
  clearTimer(timer: unknown): void;
  /** whether a failure before any answer is a connection-level error worth one more try */
  isRetryable(e: unknown): boolean;
}

/** Named as the platform's AbortSignal.timeout() names its error: the core words such a failure as a wait that ran out. */
class HttpTimeout extends Error {
  override readonly name = 'TimeoutError';
}

export function createBoundedRangeFetch(platform: FetchPlatform, options: BoundedFetchOptions): RangeFetch {
  const seconds = (ms: number) => `${ms / 1000} s`;
  /** origin → why it stopped answering */
  const unresponsive = new Map<string, string>();
  const deadline = createDeadline(platform, options);
  return async (url, init) => {
    const origin = originOf(url);
    if (deadline.expired !== undefined) throw new HttpTimeout(deadline.expired);
    const dead = unresponsive.get(origin);
    if (dead !== undefined) throw new HttpTimeout(`${dead} on an earlier request to ${origin}; not asked again`);
    deadline.start();
    for (let attempt = 0; ; attempt++) {
      const controller = platform.createAbortController();
      let timedOut: string | undefined;
      const stop = (why: string) => {
        timedOut ??= why;
        unresponsive.set(origin, why);
        controller.abort(new HttpTimeout(why));
      };
      const untrack = deadline.track(stop);
      const headerTimer = platform.setTimer(() => stop(`no response headers within ${seconds(options.headersMs)}`), options.headersMs);
      let res: PlatformFetchResponse;
      try {
        res = await platform.fetch(url, { method: init.method, headers: { ...init.headers }, signal: controller.signal });
      } catch (e) {
        untrack();
        if (timedOut !== undefined) throw new HttpTimeout(timedOut);
        if (attempt >= options.retries || !platform.isRetryable(e)) throw e;
        await new Promise((resolve) => platform.setTimer(() => resolve(undefined), 200 * 2 ** attempt));
        if (deadline.expired !== undefined) throw new HttpTimeout(deadline.expired);
        continue;
      } finally {
        platform.clearTimer(headerTimer);
      }
      deadline.answered();
      return boundBody(platform, res, init.headers?.['Range'], options, stop, () => timedOut, deadline, untrack);
    }
  };
}

/** The deadline of all requests together (BoundedFetchOptions.totalMs): started by the first request, it aborts those in flight when it passes. */
interface Deadline {
  /** why no request may run any more (the deadline passed), else undefined */
  readonly expired: string | undefined;
  start(): void;
  /** a request in flight, stopped when the deadline passes; returns its release */
  track(stop: (why: string) => void): () => void;
  answered(): void;
  received(bytes: number): void;
}

function createDeadline(platform: FetchPlatform, options: BoundedFetchOptions): Deadline {
  const active = new Set<(why: string) => void>();
  let started = false;
  let answered = 0;
  let bytes = 0;
  let expired: string | undefined;
  return {
    get expired() {
      return expired;
    },
    start() {
      if (started || options.totalMs === undefined) return;
      started = true;
      const ms = options.totalMs;
      // a background timer: a command that is done does not wait for it
      platform.setTimer(
        () => {
          expired = `the deadline of ${ms / 1000} s for all HTTP requests together passed${options.totalSetting === undefined ? '' : ` (${options.totalSetting})`}, after ${answered} request${answered === 1 ? '' : 's'} answered and ${bytes} bytes received`;
          options.onDeadline?.({ totalMs: ms, totalSetting: options.totalSetting, answered, bytes });
          for (const stop of [...active]) stop(expired);
        },
        ms,
        true,
      );
    },
    track(stop) {
      active.add(stop);
      return () => void active.delete(stop);
    },
    answered() {
      answered++;
    },
    received(n) {
      bytes += n;
    },
  };
}

/** scheme://host[:port] of an absolute URL (URL is not in the core's ES2022 lib). */
function originOf(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)/i.exec(url);
  return m ? m[1]!.toLowerCase() : url;
}

/** The response with a body whose reads are bounded by the idle timeout and the minimum rate. */
function boundBody(
  platform: FetchPlatform,
  res: PlatformFetchResponse,
  rangeHeader: string | undefined,
  options: BoundedFetchOptions,
  stop: (why: string) => void,
  timedOut: () => string | undefined,
  deadline: Deadline,
  untrack: () => void,
): RangeFetchResponse {
  const body = res.body;
  const m = rangeHeader === undefined ? null : /bytes=(\d+)-(\d+)/.exec(rangeHeader);
  const expected = m ? Number(m[2]) - Number(m[1]) + 1 : undefined;
  const deadlineMs = expected === undefined ? undefined : options.idleMs + (expected / MIN_BYTES_PER_SECOND) * 1000;
  const getReader = (stream: NonNullable<PlatformFetchResponse['body']>): RangeFetchBodyReader => {
    const reader = stream.getReader();
    // the rate deadline outlives the reads only when a body is dropped unread: it must not keep a process alive then
    const overall =
      deadlineMs === undefined
        ? undefined
        : platform.setTimer(
            () =>
              stop(
                `the body arrived slower than ${MIN_BYTES_PER_SECOND / 1024} KiB/s (${expected} bytes not complete after ${Math.round(deadlineMs / 100) / 10} s)`,
              ),
            deadlineMs,
            true,
          );
    const done = () => {
      if (overall !== undefined) platform.clearTimer(overall);
      untrack();
    };
    return {
      async read() {
        const idle = platform.setTimer(() => stop(`no body data for ${options.idleMs / 1000} s`), options.idleMs);
        try {
          const chunk = await reader.read();
          if (chunk.done) done();
          else deadline.received(chunk.value?.length ?? 0);
          return chunk;
        } catch (e) {
          done();
          const why = timedOut();
          throw why === undefined ? e : new HttpTimeout(why);
        } finally {
          platform.clearTimer(idle);
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
    body:
      body === null
        ? null
        : {
            cancel: () => {
              untrack();
              return body.cancel();
            },
            getReader: () => getReader(body),
          },
    arrayBuffer: () => res.arrayBuffer(),
  };
}
