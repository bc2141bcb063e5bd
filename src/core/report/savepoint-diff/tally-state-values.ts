/**
 * The value scan of `diff --values`: per state its entries and value bytes, entries per subtask and per
 * key group (for the skew), read with the one statistics visitor in `frame` mode (no value decoded that
 * need not be). A broadcast state is counted once (one subtask's copy). What could not be read is said
 * per state.
 */
import { scanState, type CancelSignal, type SavepointSession } from '../../flink';
import { createStatisticsVisitor } from '../create-statistics-visitor';

export interface StateValueTally {
  entries: number;
  valueBytes: number;
  subtasks: Map<number, number>;
  /** keyed states only */
  keyGroups?: Map<number, number>;
  notRead?: string;
}

/** `operatorId/scope/state` → tally; scope is `keyed` or `operator` (broadcast states count under `operator`) */
export type StateValueTallies = Map<string, StateValueTally>;

export function tallyKey(operatorId: string, scope: 'keyed' | 'operator' | 'broadcast', state: string): string {
  return `${operatorId}/${scope === 'keyed' ? 'keyed' : 'operator'}/${state}`;
}

export async function tallyStateValues(
  session: SavepointSession,
  options: { signal?: CancelSignal } = {},
): Promise<{ tallies: StateValueTallies; errors: string[] }> {
  const tallies: StateValueTallies = new Map();
  const errors: string[] = [];
  const get = (operatorId: string, kind: 'keyed' | 'operator', state: string): StateValueTally => {
    const key = tallyKey(operatorId, kind, state);
    let t = tallies.get(key);
    if (!t) tallies.set(key, (t = { entries: 0, valueBytes: 0, subtasks: new Map(), ...(kind === 'keyed' ? { keyGroups: new Map() } : {}) }));
    return t;
  };
  const statistics = createStatisticsVisitor<StateValueTally>({
    admit(part, state, subtask, keyGroup, valueBytes) {
      const t = get(part.operator.id, part.kind, state);
      t.entries++;
      t.valueBytes += valueBytes;
      t.subtasks.set(subtask, (t.subtasks.get(subtask) ?? 0) + 1);
      t.keyGroups?.set(keyGroup, (t.keyGroups.get(keyGroup) ?? 0) + 1);
      return t;
    },
    protobuf() {},
  });
  await scanState(
    session.opened,
    session.registry,
    { broadcastCopies: 'counted' },
    {
      part(part) {
        for (const name of [...part.states, ...part.broadcastStates]) {
          const t = get(part.operator.id, part.kind, name);
          if (part.incomplete !== undefined) t.notRead ??= part.incomplete;
        }
      },
      ...statistics,
      streamError: (e, where) =>
        void errors.push(`operator ${where.operator.uid ?? where.operator.id} subtask ${where.subtask} ${where.kind} state: ${e.message}`),
      unreadable(part, reason) {
        for (const name of part.states) get(part.operator.id, 'keyed', name).notRead = reason;
      },
    },
    { values: { mode: 'frame' }, reuseReadBuffers: true, headers: session.headers, ...(options.signal ? { signal: options.signal } : {}) },
  );
  return { tallies, errors };
}
