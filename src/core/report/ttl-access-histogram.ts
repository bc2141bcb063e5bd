/**
 * The last-access times of one state's TTL values, kept so that the values and entries expired under
 * another TTL or at another time are counted again without reading the state again (the app's State
 * view: the user types a TTL after the scan). Bounded: at most MAX_TTL_BUCKETS time buckets per count;
 * while the distinct times fit, a bucket is one millisecond and every count is exact, as `stats --ttl`
 * counts (TtlUtils.expired: last access + TTL ≤ the time). Past that the buckets are widened (doubled)
 * and a bucket across the threshold is counted as undecided, never guessed.
 */
import type { DecodedValue } from '../flink';
import type { TtlExpiry } from './ttl-tally';

/** buckets kept per count (values, entries): ~2 × 4096 numbers of memory per state */
export const MAX_TTL_BUCKETS = 4096;

/** Plain data: bucket starts ascending with their counts. */
export interface TtlAccessHistogram {
  /** the buckets' width in ms: 1 while every distinct access time has its own (exact counts) */
  widthMs: number;
  /** values (a list state's elements) by their last-access time: [bucket start, count] */
  values: [number, number][];
  /** entries by their newest value's last-access time (an entry is expired when all its values are); an entry holding a timestamp that is not a long never expires and is not here */
  entries: [number, number][];
}

/** The expired counts of a histogram under one TTL and time; `undecided…` are in a bucket across the threshold (0 when exact). */
export interface TtlExpiredCounts {
  expiredValues: number;
  expiredEntries: number;
  undecidedValues: number;
  undecidedEntries: number;
}

/** Counts one state's TTL access times while a scan visits its entries (isTtlValue must hold for each). */
export class TtlAccessCounter {
  private widthMs = 1;
  private readonly values = new Map<number, number>();
  private readonly entries = new Map<number, number>();

  add(value: DecodedValue): void {
    const items = value.kind === 'list' ? value.items : [value];
    let newest = -Infinity;
    let endless = false;
    for (const item of items) {
      const at = item.kind === 'ttl' ? Number(item.lastAccessTimestamp) : NaN;
      // as addTtlEntry: a timestamp that is not a long is not an access time, and its entry never counts as expired
      if (!Number.isFinite(at)) {
        endless = true;
        continue;
      }
      bump(this.values, this.bucketOf(at));
      if (at > newest) newest = at;
    }
    if (!endless && newest !== -Infinity) bump(this.entries, this.bucketOf(newest));
    while (this.values.size > MAX_TTL_BUCKETS || this.entries.size > MAX_TTL_BUCKETS) this.widen();
  }

  finish(): TtlAccessHistogram {
    const sorted = (m: Map<number, number>) => [...m.entries()].sort((a, b) => a[0] - b[0]);
    return { widthMs: this.widthMs, values: sorted(this.values), entries: sorted(this.entries) };
  }

  private bucketOf(at: number): number {
    return Math.floor(at / this.widthMs) * this.widthMs;
  }

  private widen(): void {
    this.widthMs *= 2;
    for (const m of [this.values, this.entries]) {
      const old = [...m.entries()];
      m.clear();
      for (const [start, n] of old) bump(m, this.bucketOf(start), n);
    }
  }
}

/** The values and entries of `h` expired under `expiry` (last access + TTL ≤ the time). */
export function countTtlExpired(h: TtlAccessHistogram, expiry: TtlExpiry): TtlExpiredCounts {
  const threshold = expiry.atMs - expiry.ttlMs;
  const count = (buckets: readonly [number, number][]) => {
    let expired = 0;
    let undecided = 0;
    for (const [start, n] of buckets) {
      if (start + h.widthMs - 1 <= threshold) expired += n;
      else if (start <= threshold) undecided += n;
    }
    return [expired, undecided] as const;
  };
  const [expiredValues, undecidedValues] = count(h.values);
  const [expiredEntries, undecidedEntries] = count(h.entries);
  return { expiredValues, expiredEntries, undecidedValues, undecidedEntries };
}

function bump(m: Map<number, number>, key: number, n = 1): void {
  m.set(key, (m.get(key) ?? 0) + n);
}
