/**
 * What a value scan learns of a state with time-to-live: Flink's TtlStateFactory wraps each value in a
 * TtlValue (TtlSerializer: an `i64` last-access timestamp, then the user value; a list state's elements
 * and a map state's values each wrapped). The TTL itself (StateTtlConfig's time-to-live) is not in the
 * savepoint: TtlSerializerSnapshot writes its two nested serializer snapshots and nothing else, and the
 * state meta info names only the serializers and the state kind. So the tally counts the values and their
 * oldest and newest access times always, and, given a TTL and a time (`TtlExpiry`), how many were
 * expired then: Flink's TtlUtils.expired, last access + TTL ≤ the time. Plain data, exactly mergeable
 * (sums, minimum, maximum) across worker threads and key-group shards scanned against one TtlExpiry.
 */
import type { DecodedValue } from '../flink';

/** The TTL and the time values are judged at, both in milliseconds (the time: since the epoch). */
export interface TtlExpiry {
  ttlMs: number;
  atMs: number;
}

/** One state's TTL values over the entries scanned. */
export interface TtlTally {
  /** entries holding TTL values: a value state's values, a map state's user keys, a list state's lists */
  entries: number;
  /** TTL values: a value or map state's values, a list state's elements */
  values: number;
  /** the oldest and newest last-access timestamps (ms since the epoch); null when no value was counted */
  oldestAccess: number | null;
  newestAccess: number | null;
  /** with a TtlExpiry: the values expired at its time, and the entries all of whose values were (Flink reads them as absent) */
  expiredValues?: number;
  expiredEntries?: number;
}

export function createTtlTally(expiry: TtlExpiry | undefined): TtlTally {
  return { entries: 0, values: 0, oldestAccess: null, newestAccess: null, ...(expiry ? { expiredValues: 0, expiredEntries: 0 } : {}) };
}

/** Whether an entry's value is TTL-wrapped: a TtlValue, or a list whose elements are. */
export function isTtlValue(value: DecodedValue | null): boolean {
  if (value === null) return false;
  if (value.kind === 'ttl') return true;
  return value.kind === 'list' && value.items.length > 0 && value.items.every((i) => i.kind === 'ttl');
}

/** Adds one entry's TTL value (isTtlValue must hold): its values' access times, and against `expiry` whether they had expired. */
export function addTtlEntry(t: TtlTally, value: DecodedValue, expiry: TtlExpiry | undefined): void {
  const items = value.kind === 'list' ? value.items : [value];
  let expired = 0;
  for (const item of items) {
    const at = item.kind === 'ttl' ? Number(item.lastAccessTimestamp) : NaN;
    // a timestamp that is not a long (its serializer not Flink's LongSerializer) is not an access time
    if (!Number.isFinite(at)) continue;
    t.values++;
    if (t.oldestAccess === null || at < t.oldestAccess) t.oldestAccess = at;
    if (t.newestAccess === null || at > t.newestAccess) t.newestAccess = at;
    if (expiry && at + expiry.ttlMs <= expiry.atMs) expired++;
  }
  t.entries++;
  if (expiry) {
    t.expiredValues = (t.expiredValues ?? 0) + expired;
    if (expired === items.length) t.expiredEntries = (t.expiredEntries ?? 0) + 1;
  }
}

/** The tally of the tallies of the same state over several shares of its entries (scanned against one TtlExpiry). */
export function mergeTtlTallies(a: TtlTally, b: TtlTally): TtlTally {
  const pick = (x: number | null, y: number | null, f: (p: number, q: number) => number) => (x === null ? y : y === null ? x : f(x, y));
  return {
    entries: a.entries + b.entries,
    values: a.values + b.values,
    oldestAccess: pick(a.oldestAccess, b.oldestAccess, Math.min),
    newestAccess: pick(a.newestAccess, b.newestAccess, Math.max),
    ...(a.expiredValues !== undefined || b.expiredValues !== undefined
      ? { expiredValues: (a.expiredValues ?? 0) + (b.expiredValues ?? 0), expiredEntries: (a.expiredEntries ?? 0) + (b.expiredEntries ?? 0) }
      : {}),
  };
}

/** The newest last-access time of any TTL value of the states (null when none holds one): a lower bound of when the savepoint was taken. */
export function newestTtlAccess(states: readonly { ttl?: TtlTally }[]): number | null {
  let newest: number | null = null;
  for (const s of states) {
    const n = s.ttl?.newestAccess ?? null;
    if (n !== null && (newest === null || n > newest)) newest = n;
  }
  return newest;
}

/** the largest time a JavaScript Date holds (±100,000,000 days from the epoch) */
const MAX_DATE_MS = 8.64e15;

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** A time-to-live as `stats --ttl` and the app take it: a whole number with a unit (ms, s, m or min, h, d; none: ms, as Flink's TimeUtils.parseDuration), in ms; null when it is not one (or under 1 ms). */
export function parseTtlDuration(v: unknown): number | null {
  const m = typeof v === 'string' ? /^(\d+)\s*(ms|s|min|m|h|d)?$/.exec(v.trim()) : null;
  const n = m ? Number(m[1]) * DURATION_UNITS[m[2] ?? 'ms']! : NaN;
  return m && Number.isSafeInteger(n) && n >= 1 ? n : null;
}

/** A time to judge TTL values at, as `stats --ttl-at` and the app take it: epoch milliseconds, or an ISO 8601 date-time with its zone (Z or ±hh:mm); null when it is neither. */
export function parseTtlAt(v: unknown): number | null {
  const s = typeof v === 'string' ? v.trim() : '';
  const n = /^-?\d+$/.test(s) ? Number(s) : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(s) ? Date.parse(s) : NaN;
  return Number.isSafeInteger(n) && Math.abs(n) <= MAX_DATE_MS ? n : null;
}
