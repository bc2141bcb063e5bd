import type { StateEntryIndex } from './scan-state-statistics';

/** The part holding entry `offset`: the last part whose first entry is at or before it; -1 outside the state. */
export function findIndexedPart(index: StateEntryIndex, offset: number): number {
  let lo = 0;
  let hi = index.parts.length - 1;
  if (hi < 0 || offset < 0 || offset >= index.total) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (index.parts[mid]!.first <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
