import type { OperatorState } from './types';

/**
 * Every subtask of an operator holds a full copy of each broadcast state, and Flink restores one
 * copy per new subtask. Statistics count one copy: the one in the lowest subtask index that
 * lists the state. True when `subtaskIndex` holds that counted copy.
 */
export function isCountedBroadcastCopy(op: OperatorState, subtaskIndex: number, stateName: string): boolean {
  let lowest = Infinity;
  for (const s of op.subtasks) {
    if (s.managedOperatorState?.states.some((e) => e.name === stateName && e.mode === 'BROADCAST')) lowest = Math.min(lowest, s.index);
  }
  return lowest === subtaskIndex;
}

/** The entries of `entries` whose state is not in `skipped`. */
export async function* skipStates<T extends { state: string }>(entries: AsyncIterable<T>, skipped: ReadonlySet<string>): AsyncGenerator<T> {
  for await (const e of entries) if (!skipped.has(e.state)) yield e;
}
