/**
 * Names what moved when the relative order of retained members changes: the members outside a longest
 * run kept in saved order (a longest increasing subsequence of their saved positions in new order), each
 * with its new place, e.g. `1 (id) now comes after 4 (kind)`. A field moved to the end of 40 reads as one
 * move, not as both orders of all 40.
 */

/** At most this many moves are listed; the rest are counted. */
const MAX_LISTED = 10;

/** undefined when `next` keeps the order of `saved` (both hold the same members, each once). */
export function describeOrderChange<T>(saved: readonly T[], next: readonly T[], label: (member: T) => string): string | undefined {
  const position = new Map(saved.map((m, i) => [m, i]));
  const seq = next.map((m) => position.get(m)!);
  const kept = longestIncreasingRun(seq);
  if (kept.size === next.length) return undefined;
  const moves: string[] = [];
  next.forEach((m, i) => {
    if (kept.has(i)) return;
    moves.push(i === 0 ? `${label(m)} now comes first` : `${label(m)} now comes after ${label(next[i - 1]!)}`);
  });
  const listed = moves.slice(0, MAX_LISTED).join('; ');
  return moves.length > MAX_LISTED ? `${listed}; and ${moves.length - MAX_LISTED} more` : listed;
}

/** Indexes (into seq) of one longest strictly increasing subsequence, O(n log n). */
function longestIncreasingRun(seq: readonly number[]): Set<number> {
  const tails: number[] = []; // index into seq of the smallest tail of a run of each length
  const previous = new Array<number>(seq.length).fill(-1);
  for (let i = 0; i < seq.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seq[tails[mid]!]! < seq[i]!) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const run = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i >= 0; i = previous[i]!) run.add(i);
  return run;
}
