import { describe, expect, it } from 'vitest';
import type { DecodedValue } from '../flink';
import { countTtlExpired, MAX_TTL_BUCKETS, TtlAccessCounter } from './ttl-access-histogram';
import { addTtlEntry, createTtlTally } from './ttl-tally';

const ttl = (at: number | string): DecodedValue => ({ kind: 'ttl', lastAccessTimestamp: String(at), value: { kind: 'null' } });
const list = (...items: DecodedValue[]): DecodedValue => ({ kind: 'list', items });

describe('TtlAccessCounter', () => {
  it('counts as addTtlEntry does: values, list entries expired only when all their elements are, a timestamp not a long never expired', () => {
    const entries = [ttl(100), ttl(200), list(ttl(50), ttl(300)), list(ttl(10), ttl(20)), list(ttl(10), ttl('{"kind":"int"}'))];
    const c = new TtlAccessCounter();
    for (const e of entries) c.add(e);
    const h = c.finish();
    expect(h.widthMs).toBe(1);
    for (const expiry of [0, 10, 20, 49, 50, 100, 199, 200, 299, 300, 1000].map((atMs) => ({ ttlMs: 1, atMs: atMs + 1 }))) {
      const t = createTtlTally(expiry);
      for (const e of entries) addTtlEntry(t, e, expiry);
      expect(countTtlExpired(h, expiry)).toEqual({ expiredValues: t.expiredValues, expiredEntries: t.expiredEntries, undecidedValues: 0, undecidedEntries: 0 });
    }
  });

  it('stays within MAX_TTL_BUCKETS by widening its buckets, and then says which counts it cannot decide', () => {
    const c = new TtlAccessCounter();
    const n = MAX_TTL_BUCKETS * 3;
    for (let i = 0; i < n; i++) c.add(ttl(1_000_000 + i * 7));
    const h = c.finish();
    expect(h.widthMs).toBeGreaterThan(1);
    expect(h.values.length).toBeLessThanOrEqual(MAX_TTL_BUCKETS);
    expect(h.values.reduce((s, [, k]) => s + k, 0)).toBe(n);
    for (const atMs of [1_000_000, 1_000_000 + 7 * 1000 + 3, 1_000_000 + 7 * n]) {
      const truth = Array.from({ length: n }, (_, i) => 1_000_000 + i * 7).filter((t) => t + 1 <= atMs).length;
      const r = countTtlExpired(h, { ttlMs: 1, atMs });
      expect(r.expiredValues).toBeLessThanOrEqual(truth);
      expect(r.expiredValues + r.undecidedValues).toBeGreaterThanOrEqual(truth);
      expect(r.undecidedValues).toBeLessThanOrEqual(Math.ceil(h.widthMs / 7));
    }
  });
});
