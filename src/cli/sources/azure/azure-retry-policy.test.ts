import { describe, expect, it } from 'vitest';
import { azureRetryPolicy, isRetriedAzureFailure } from './azure-retry-policy';

type Policy = ReturnType<ReturnType<typeof azureRetryPolicy>['create']>;
type Request = Parameters<Policy['sendRequest']>[0];

const restError = (statusCode: number, code: string, headers: Record<string, string> = {}) =>
  Object.assign(new Error(code), { name: 'RestError', statusCode, code, response: { headers: { get: (n: string) => headers[n.toLowerCase()] } } });

/** The policy over a next policy answering `answers` in turn (an Error is thrown), the waits it asked for recorded. */
function run(answers: unknown[], options: { maxTries?: number; random?: number } = {}) {
  const waits: number[] = [];
  let sent = 0;
  const next = {
    sendRequest: () => {
      const a = answers[Math.min(sent++, answers.length - 1)];
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
  } as unknown as Policy;
  const policy = azureRetryPolicy({
    maxTries: options.maxTries ?? 3,
    random: () => options.random ?? 0.5,
    wait: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  }).create(next, {} as never);
  return { result: policy.sendRequest({ abortSignal: undefined } as unknown as Request), waits, sent: () => sent };
}

describe('the Azure retry policy', () => {
  it('retries 503 ServerBusy with exponential backoff and jitter: the first retry waits too', async () => {
    const ok = { status: 206 };
    const r = run([restError(503, 'ServerBusy'), restError(503, 'ServerBusy'), ok], { maxTries: 3, random: 0.5 });
    await expect(r.result).resolves.toBe(ok);
    // full jitter: random() · 100 ms · 2^(attempt−1)
    expect(r.waits).toEqual([50, 100]);
    expect(r.sent()).toBe(3);
  });

  it('retries 429, waiting at least the Retry-After the store asked for', async () => {
    const ok = { status: 200 };
    const r = run([restError(429, 'TooManyRequests', { 'retry-after': '2' }), ok]);
    await expect(r.result).resolves.toBe(ok);
    expect(r.waits).toEqual([2000]);
  });

  it('gives up after maxTries, the error carrying the attempts made', async () => {
    const r = run([restError(503, 'ServerBusy')], { maxTries: 3 });
    await expect(r.result).rejects.toMatchObject({ statusCode: 503, attempts: 3 });
    expect(r.sent()).toBe(3);
  });

  it('does not retry what another attempt cannot change (403, 404, 412), nor a cancelled request', async () => {
    for (const status of [403, 404, 412]) {
      const r = run([restError(status, 'Denied')]);
      await expect(r.result).rejects.toMatchObject({ statusCode: status });
      expect(r.sent()).toBe(1);
      expect(r.waits).toEqual([]);
    }
    expect(isRetriedAzureFailure(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' }))).toBe(false);
    expect(isRetriedAzureFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetriedAzureFailure(Object.assign(new Error('x'), { statusCode: 500 }))).toBe(true);
  });
});
