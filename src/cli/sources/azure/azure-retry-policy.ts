/**
 * How the Azure client retries: throttling (503 ServerBusy, 429 TooManyRequests), a store's transient
 * failure (500, 502, 504) and a request that got no answer (a reset or refused connection, a timeout),
 * with exponential backoff and full jitter (backoff.ts, as the S3 path waits) and at least the Retry-After
 * the store asked for. @azure/storage-blob's own policy waits nothing before its first retry and the same
 * fixed steps after (no jitter), and never retries 429: it is given one try, and this policy, in the
 * client's pipeline outside it, makes the attempts. A request that still fails carries `attempts`, for the
 * one-line error (describe-azure-failure.ts).
 */
import type { Pipeline } from '@azure/storage-blob';
import { backoffMs, retryAfterMs, sleep } from '../backoff';

type PolicyFactory = Pipeline['factories'][number];
type RequestPolicy = ReturnType<PolicyFactory['create']>;

/** the codes of a request that got no answer (the SDK's own list, less ENOENT) */
const NO_ANSWER = ['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EPIPE', 'REQUEST_SEND_ERROR'];
const RETRIED_STATUS = new Set([429, 500, 502, 503, 504]);

export interface AzureRetryOptions {
  /** attempts in all (the first included) */
  maxTries: number;
  /** the backoff's first step and its ceiling (ms) */
  baseMs?: number;
  maxMs?: number;
  random?: () => number;
  wait?: (ms: number) => Promise<void>;
}

interface FailureShape {
  name?: string;
  message?: string;
  code?: unknown;
  statusCode?: number;
  response?: { headers?: { get?(name: string): string | undefined } };
}

/** Whether a failed request is worth another attempt. */
export function isRetriedAzureFailure(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const f = e as FailureShape;
  if (f.name === 'AbortError') return false;
  if (f.statusCode !== undefined && RETRIED_STATUS.has(f.statusCode)) return true;
  const code = typeof f.code === 'string' ? f.code.toUpperCase() : '';
  return NO_ANSWER.some((c) => code === c || (f.message ?? '').toUpperCase().includes(c));
}

/** A request-policy factory for the client's pipeline (newPipeline(…).factories) that retries as said above. */
export function azureRetryPolicy(options: AzureRetryOptions): PolicyFactory {
  const { maxTries, baseMs = 100, maxMs = 20_000, random = Math.random, wait = sleep } = options;
  return {
    create: (next: RequestPolicy): RequestPolicy => ({
      async sendRequest(request) {
        for (let attempt = 1; ; attempt++) {
          try {
            return await next.sendRequest(request);
          } catch (e) {
            if (!isRetriedAzureFailure(e) || attempt >= maxTries || request.abortSignal?.aborted === true) {
              if (attempt > 1 && typeof e === 'object' && e !== null) Object.assign(e, { attempts: attempt });
              throw e;
            }
            const asked = retryAfterMs((e as FailureShape).response?.headers?.get?.('retry-after'));
            await wait(Math.max(backoffMs(attempt, { baseMs, maxMs, random }), Math.min(asked ?? 0, maxMs)));
          }
        }
      },
    }),
  };
}
