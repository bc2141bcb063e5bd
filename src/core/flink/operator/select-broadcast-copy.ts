import type { CancelSignal } from '../cancel-signal';
import type { OperatorStateHeader, StateEntry } from '../savepoint/inspection-types';
import { readOperatorStateEntries, type OperatorStreamInput } from './read-operator-state-entries';
import type { OperatorState } from '../metadata/metadata-types';
import type { ValueModeSource } from '../snapshots/snapshot-types';

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

/**
 * The entries of one subtask's operator state stream for statistics: list and union elements, and
 * the broadcast states only where this subtask holds the counted copy (isCountedBroadcastCopy).
 */
export async function* readCountedOperatorStateEntries(
  op: OperatorState,
  subtaskIndex: number,
  input: OperatorStreamInput,
  header: OperatorStateHeader,
  options: { signal?: CancelSignal; values?: ValueModeSource } = {},
): AsyncGenerator<StateEntry> {
  const skipped = new Set(header.broadcastStates.filter((s) => !isCountedBroadcastCopy(op, subtaskIndex, s.name)).map((s) => s.name));
  for await (const e of readOperatorStateEntries(input, header, options)) if (!skipped.has(e.state)) yield e;
}
