/**
 * The wait before a retry of an object-store request: exponential backoff with full jitter (as the AWS
 * SDK's standard strategy), up to `baseMs` · 2^(attempt−1) and never over `maxMs`, a random point in
 * between so that many readers throttled at once do not come back at once. `attempt` is the attempt that
 * failed (1 for the first). A Retry-After the store sent is waited for at least.
 */
export function backoffMs(attempt: number, options: { baseMs?: number; maxMs?: number; random?: () => number } = {}): number {
  const { baseMs = 100, maxMs = 20_000, random = Math.random } = options;
  return random() * Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}

/** The milliseconds a Retry-After header value asks for (delta-seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function sleep(ms: number, signal?: { aborted: boolean; addEventListener?(type: 'abort', listener: () => void): void }): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener?.('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
