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
  for (const r of saved.ranges) {
    if (!isCovered(r, next)) addFinding(ctx, 'RESERVATION_REMOVED', declaration, { declaration, what: describeWhat(r, saved.endExclusive) });
  }
  for (const name of saved.names) {
    if (!next.names.includes(name)) addFinding(ctx, 'RESERVATION_REMOVED', declaration, { declaration, what: `name ${JSON.stringify(name)}` });
  }
  for (const r of next.ranges) {
    if (!isCovered(r, saved)) addFinding(ctx, 'RESERVATION_ADDED', declaration, { declaration, what: describeWhat(r, next.endExclusive) });
  }
  for (const name of next.names) {
    if (!saved.names.includes(name)) addFinding(ctx, 'RESERVATION_ADDED', declaration, { declaration, what: `name ${JSON.stringify(name)}` });
  }
}

function describeWhat(r: { start: number; end: number }, endExclusive: boolean): string {
  const text = describeRange(r.start, r.end, endExclusive);
  return text.includes(' to ') ? `range ${text}` : `number ${text}`;
}

/** Whether every number of `range` is reserved by `by`'s ranges (ranges may be split or merged). */
function isCovered(range: { start: number; end: number }, by: Reservations): boolean {
  const last = (r: { end: number }, exclusive: boolean): number => (exclusive ? r.end - 1 : r.end);
  const sorted = [...by.ranges].sort((a, b) => a.start - b.start);
  let next = range.start;
  const end = last(range, by.endExclusive);
  for (const r of sorted) {
    if (r.start > next) break;
    next = Math.max(next, last(r, by.endExclusive) + 1);
    if (next > end) return true;
  }
  return next > end;
}

export function isNumberReserved(number: number, reservations: Reservations): boolean {
  return reservations.ranges.some((r) => number >= r.start && (reservations.endExclusive ? number < r.end : number <= r.end));
}
