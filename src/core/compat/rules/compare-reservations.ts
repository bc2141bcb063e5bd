/** RESERVATION_REMOVED / RESERVATION_ADDED for a message's or an enum's reserved ranges and names. */
import { describeRange } from './describe-descriptor-parts';
import { addFinding, type WalkContext } from './walk-context';

export interface Reservations {
  ranges: readonly { start: number; end: number }[];
  names: readonly string[];
  /** message ranges are [start, end); enum ranges are [start, end] */
  endExclusive: boolean;
}

export function compareReservations(ctx: WalkContext, declaration: string, saved: Reservations, next: Reservations): void {
  const savedIndex = indexOf(saved);
  const nextIndex = indexOf(next);
  for (const r of saved.ranges) {
    if (!isCovered(r, saved.endExclusive, nextIndex))
      addFinding(ctx, 'RESERVATION_REMOVED', declaration, { declaration, what: describeWhat(r, saved.endExclusive) });
  }
  for (const name of saved.names) {
    if (!nextIndex.names.has(name)) addFinding(ctx, 'RESERVATION_REMOVED', declaration, { declaration, what: `name ${JSON.stringify(name)}` });
  }
  for (const r of next.ranges) {
    if (!isCovered(r, next.endExclusive, savedIndex))
      addFinding(ctx, 'RESERVATION_ADDED', declaration, { declaration, what: describeWhat(r, next.endExclusive) });
  }
  for (const name of next.names) {
    if (!savedIndex.names.has(name)) addFinding(ctx, 'RESERVATION_ADDED', declaration, { declaration, what: `name ${JSON.stringify(name)}` });
  }
}

function describeWhat(r: { start: number; end: number }, endExclusive: boolean): string {
  const text = describeRange(r.start, r.end, endExclusive);
  return text.includes(' to ') ? `range ${text}` : `number ${text}`;
}

/**
 * The reserved numbers as disjoint inclusive intervals [starts[i], lasts[i]], sorted, with
 * overlapping and adjacent ranges merged, and the names as a set: built once per Reservations, so
 * each lookup is a binary search (a declaration may reserve 100,000 ranges).
 */
interface ReservationIndex {
  starts: Float64Array;
  lasts: Float64Array;
  names: ReadonlySet<string>;
}

const indexes = new WeakMap<Reservations, ReservationIndex>();

function indexOf(reservations: Reservations): ReservationIndex {
  let index = indexes.get(reservations);
  if (index) return index;
  const sorted = reservations.ranges
    .map((r) => ({ start: r.start, last: reservations.endExclusive ? r.end - 1 : r.end }))
    .filter((r) => r.last >= r.start)
    .sort((a, b) => a.start - b.start);
  const starts: number[] = [];
  const lasts: number[] = [];
  for (const r of sorted) {
    const k = lasts.length - 1;
    if (k >= 0 && r.start <= lasts[k]! + 1) lasts[k] = Math.max(lasts[k]!, r.last);
    else {
      starts.push(r.start);
      lasts.push(r.last);
    }
  }
  index = { starts: Float64Array.from(starts), lasts: Float64Array.from(lasts), names: new Set(reservations.names) };
  indexes.set(reservations, index);
  return index;
}

/** The interval holding `n`, or -1. */
function findInterval(index: ReservationIndex, n: number): number {
  let lo = 0;
  let hi = index.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.starts[mid]! <= n) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && index.lasts[lo - 1]! >= n ? lo - 1 : -1;
}

/** Whether every number of `range` is reserved by the indexed ranges (ranges may be split or merged). */
function isCovered(range: { start: number; end: number }, endExclusive: boolean, by: ReservationIndex): boolean {
  const last = endExclusive ? range.end - 1 : range.end;
  if (last < range.start) return true;
  const i = findInterval(by, range.start);
  return i >= 0 && by.lasts[i]! >= last;
}

export function isNumberReserved(number: number, reservations: Reservations): boolean {
  return findInterval(indexOf(reservations), number) >= 0;
}
