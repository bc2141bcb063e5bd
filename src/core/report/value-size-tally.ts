/**
 * What a value scan learns of where a state's bytes are: its largest values (top N by serialized value
 * size, with their key and key group) and its value bytes per key group, from which the key-group skew
 * (the largest key group against the median of those holding data). Kept by `stats` per state (in one
 * thread or in worker threads, merged) and by the app's whole-savepoint scan; the tallies are plain data
 * so a worker thread can hand them over.
 */
import { medianOf } from './size-breakdown';

/** How many of the largest values a state keeps. */
export const LARGEST_VALUES = 5;

export interface LargestValue {
  /** the entry's key as text (a map state: key and user key) */
  key: string;
  keyGroup: number;
  subtask: number;
  valueBytes: number;
}

/** The tally of one state's value sizes over the entries scanned (plain data). */
export interface ValueSizeTally {
  /** largest first, at most LARGEST_VALUES */
  largest: LargestValue[];
  /** [key group, entries, value bytes] of every key group with entries, in first-seen order; empty for operator state */
  keyGroups: [number, number, number][];
}

/** The key-group skew of a state: its largest key group against the median of its key groups with entries. */
export interface KeyGroupSkew {
  /** key groups holding entries */
  keyGroups: number;
  largest: { keyGroup: number; entries: number; valueBytes: number };
  /** median value bytes of those key groups */
  medianValueBytes: number;
  /** largest / median (1 when the median is 0) */
  skew: number;
}

export function createValueSizeTally(): ValueSizeTally {
  return { largest: [], keyGroups: [] };
}

/**
 * Adds one entry. `key` is called only when the value is among the largest so far (formatting every key
 * would cost the scan); `keyGroup` -1 (operator state) is not tallied by key group. `slots` indexes `keyGroups`.
 */
export function addValueSize(t: ValueSizeTally, slots: Map<number, number>, keyGroup: number, subtask: number, valueBytes: number, key: () => string): void {
  if (keyGroup >= 0) {
    let slot = slots.get(keyGroup);
    if (slot === undefined) {
      slots.set(keyGroup, (slot = t.keyGroups.length));
      t.keyGroups.push([keyGroup, 0, 0]);
    }
    const row = t.keyGroups[slot]!;
    row[1]++;
    row[2] += valueBytes;
  }
  const l = t.largest;
  if (l.length < LARGEST_VALUES || valueBytes >= l[l.length - 1]!.valueBytes) insertLargest(l, { key: key(), keyGroup, subtask, valueBytes });
}

/**
 * Largest first; equal sizes by subtask, key group, then key: a total order, so the values kept do not
 * depend on the order the entries (or the workers' shares) came in.
 */
function compareLargest(a: LargestValue, b: LargestValue): number {
  return b.valueBytes - a.valueBytes || a.subtask - b.subtask || a.keyGroup - b.keyGroup || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** Keeps the list in compareLargest's order and at most LARGEST_VALUES long. */
function insertLargest(l: LargestValue[], v: LargestValue): void {
  let i = l.length;
  while (i > 0 && compareLargest(l[i - 1]!, v) > 0) i--;
  if (i >= LARGEST_VALUES) return;
  l.splice(i, 0, v);
  if (l.length > LARGEST_VALUES) l.length = LARGEST_VALUES;
}

/** One tally of the tallies of the same state over several shares of its subtasks, given in subtask order. */
export function mergeValueSizeTallies(parts: readonly ValueSizeTally[]): ValueSizeTally {
  const out = createValueSizeTally();
  const slots = new Map<number, number>();
  for (const p of parts) {
    for (const v of p.largest) insertLargest(out.largest, { ...v });
    for (const [kg, entries, bytes] of p.keyGroups) {
      let slot = slots.get(kg);
      if (slot === undefined) {
        slots.set(kg, (slot = out.keyGroups.length));
        out.keyGroups.push([kg, 0, 0]);
      }
      out.keyGroups[slot]![1] += entries;
      out.keyGroups[slot]![2] += bytes;
    }
  }
  return out;
}

/** The skew of a state's key groups; undefined when none holds entries. The largest: most value bytes, then most entries, then the lowest key group. */
export function describeKeyGroupSkew(t: ValueSizeTally): KeyGroupSkew | undefined {
  if (t.keyGroups.length === 0) return undefined;
  let best = t.keyGroups[0]!;
  for (const row of t.keyGroups) {
    if (row[2] > best[2] || (row[2] === best[2] && (row[1] > best[1] || (row[1] === best[1] && row[0] < best[0])))) best = row;
  }
  const median = medianOf(t.keyGroups.map((r) => r[2]));
  return {
    keyGroups: t.keyGroups.length,
    largest: { keyGroup: best[0], entries: best[1], valueBytes: best[2] },
    medianValueBytes: median,
    skew: median > 0 ? best[2] / median : 1,
  };
}
