/**
 * How many entries a state holds, as the list header says it. Every subtask holds a full copy of a
 * broadcast state and inspect counts one copy (src/core/flink/select-broadcast-copy.ts); the values
 * table keeps one row per copy (real data), so its header says both: `3 entries × 2 subtask copies`.
 */
import type { InspectedState } from '../core/flink';
import { formatCount } from './format';

export function describeEntryCount(state: Pick<InspectedState, 'scope' | 'entries' | 'subtasks'>, rows: number): string {
  const copies = state.subtasks.length;
  if (state.scope === 'broadcast' && copies > 1) {
    const perCopy = state.entries ?? (rows % copies === 0 ? rows / copies : undefined);
    if (perCopy !== undefined) return `${formatCount(perCopy)} ${perCopy === 1 ? 'entry' : 'entries'} × ${formatCount(copies)} subtask copies`;
    return `${formatCount(rows)} rows over ${formatCount(copies)} subtask copies`;
  }
  return `${formatCount(rows)} ${rows === 1 ? 'entry' : 'entries'}`;
}

/** Operator states name how Flink redistributes them on restore; keyed states have no such mode. */
export function describeDistributionMode(state: Pick<InspectedState, 'scope' | 'kind'>): string | null {
  if (state.scope === 'broadcast' || state.kind === 'BROADCAST') return 'BROADCAST';
  if (state.kind === 'OPERATOR_UNION') return 'UNION';
  if (state.kind === 'OPERATOR_LIST') return 'SPLIT_DISTRIBUTE';
  return null;
}
