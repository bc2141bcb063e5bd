/**
 * How many entries a state holds, as the headers say it. Every subtask holds a full copy of a
 * broadcast state; statistics count one copy (`entries`, as inspect and the CLI's stats) and the
 * values table keeps one row per copy (`rows`, real data), so the text says both, from the scan's
 * own numbers (never guessed from rows ÷ copies: under a sample that is wrong):
 * `3 entries × 2 subtask copies`, or `3 entries in one copy, 5 rows over 2 subtask copies`.
 */
import type { InspectedState } from '../core/flink';
import { formatCount } from './format';

export function describeEntryCount(state: Pick<InspectedState, 'scope' | 'subtasks'>, count: { entries: number; rows?: number }): string {
  const copies = state.subtasks.length;
  const { entries, rows } = count;
  const text = `${formatCount(entries)} ${entries === 1 ? 'entry' : 'entries'}`;
  if (state.scope !== 'broadcast' || copies <= 1) return text;
  if (rows === undefined || rows === entries * copies) return `${text} × ${formatCount(copies)} subtask copies`;
  return `${text} in one copy, ${formatCount(rows)} ${rows === 1 ? 'row' : 'rows'} over ${formatCount(copies)} subtask copies`;
}

/** Operator states name how Flink redistributes them on restore; keyed states have no such mode. */
export function describeDistributionMode(state: Pick<InspectedState, 'scope' | 'kind'>): string | null {
  if (state.scope === 'broadcast' || state.kind === 'BROADCAST') return 'BROADCAST';
  if (state.kind === 'OPERATOR_UNION') return 'UNION';
  if (state.kind === 'OPERATOR_LIST') return 'SPLIT_DISTRIBUTE';
  return null;
}
