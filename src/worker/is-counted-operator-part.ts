import { isCountedBroadcastCopy, type OperatorState } from '../core/flink';

/**
 * Whether a subtask's operator-state entries of `state` count in statistics: list and union
 * elements always; a broadcast state (a full copy in every subtask) only in its counted copy, as
 * the CLI's stats (isCountedBroadcastCopy). The values table lists every copy regardless.
 */
export function isCountedOperatorPart(op: OperatorState, subtask: OperatorState['subtasks'][number], state: string): boolean {
  const broadcast = subtask.managedOperatorState?.states.some((s) => s.name === state && s.mode === 'BROADCAST') === true;
  return !broadcast || isCountedBroadcastCopy(op, subtask.index, state);
}
