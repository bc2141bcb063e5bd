import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs } from './backoff';

describe('backoff', () => {
  it('is exponential with full jitter, capped', () => {
    expect([1, 2, 3, 4].map((a) => backoffMs(a, { random: () => 1 }))).toEqual([100, 200, 400, 800]);
    expect(backoffMs(3, { random: () => 0.25 })).toBe(100);
    expect(backoffMs(20, { random: () => 1, maxMs: 5000 })).toBe(5000);
  });

  it('reads a Retry-After of seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(5000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
