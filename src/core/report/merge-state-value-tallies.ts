/**
 * One state's value tally from the tallies of its subtasks, given in subtask order: values scanned
 * add up, the warnings merge as finishValueWarnings does. A subtask whose values were not readable
 * makes the whole state's values not readable (the first such reason), as one whole read would have stopped there.
 */
import type { StateValuesNotRead, StateValueTally } from './check-savepoint-types';

export function mergeStateValueTallies(parts: readonly (StateValueTally | StateValuesNotRead | undefined)[]): StateValueTally | StateValuesNotRead | undefined {
  const notRead = parts.find((p): p is StateValuesNotRead => p !== undefined && 'notRead' in p);
  if (notRead !== undefined) return notRead;
  if (parts.some((p) => p === undefined)) return undefined;
  const done = parts as readonly StateValueTally[];
  return { tally: { buckets: done.flatMap((p) => p.tally.buckets) }, valuesScanned: done.reduce((s, p) => s + p.valuesScanned, 0) };
}
