/**
 * Sizes from `_metadata` alone (no state file read): per subtask the bytes of its state handles (as the
 * savepoint's totals give them), the keyed part of them, and per operator or broadcast state its bytes in
 * the operator-state stream (from the offsets the handle records: a state's bytes run from its first offset
 * to the next state's, the last to the end of the stream). Keyed states share their handles' files, so
 * they are sized together.
 */
import type { OpenedSavepoint, OperatorState, StreamHandle } from '../../flink';

export interface OperatorSizes {
  total: number;
  /** subtask index → handle bytes */
  subtasks: Map<number, number>;
  /** bytes of the keyed handles (total minus the operator-state streams); undefined without keyed state */
  keyed?: number;
  /** operator-scope state name → subtask index → bytes */
  states: Map<string, Map<number, number>>;
}

export function measureOperatorSizes(opened: OpenedSavepoint, operator: OperatorState): OperatorSizes {
  const totals = opened.totals.operators.find((o) => o.id === operator.id);
  const subtasks = new Map<number, number>();
  for (const s of totals?.subtasks ?? []) subtasks.set(s.index, s.stateSize);
  const states = new Map<string, Map<number, number>>();
  let operatorStreams = 0;
  let hasKeyed = false;
  for (const s of operator.subtasks) {
    if (s.managedKeyedState || s.rawKeyedState) hasKeyed = true;
    for (const h of [s.managedOperatorState, s.rawOperatorState]) {
      const size = h?.delegate ? sizeOf(h.delegate) : undefined;
      if (!h || size === undefined) continue;
      operatorStreams += size;
      if (h !== s.managedOperatorState) continue;
      const starts = h.states
        .filter((st) => st.offsets.length > 0)
        .map((st) => ({ name: st.name, start: Math.min(...st.offsets) }))
        .sort((a, b) => a.start - b.start);
      for (const st of h.states) add(states, st.name, s.index, 0);
      starts.forEach((st, i) => add(states, st.name, s.index, Math.max(0, (starts[i + 1]?.start ?? size) - st.start)));
    }
  }
  const total = totals?.stateSize ?? 0;
  return { total, subtasks, ...(hasKeyed ? { keyed: Math.max(0, total - operatorStreams) } : {}), states };
}

function add(states: Map<string, Map<number, number>>, name: string, subtask: number, bytes: number): void {
  let bySubtask = states.get(name);
  if (!bySubtask) states.set(name, (bySubtask = new Map()));
  bySubtask.set(subtask, (bySubtask.get(subtask) ?? 0) + bytes);
}

/** A stream handle's byte count as `_metadata` records it; undefined where it records none. */
function sizeOf(h: StreamHandle): number | undefined {
  switch (h.kind) {
    case 'inline':
    case 'relative-file':
    case 'file':
    case 'segment-file':
      return h.size >= 0 ? h.size : undefined;
    case 'empty-segment':
      return 0;
    default:
      return undefined;
  }
}
