import type { DecodeErrorJson, SavepointFiles } from '../../io';
import type { CancelSignal } from '../cancel-signal';
import type { StateScope } from '../savepoint/inspection-types';
import { openSavepoint, type OpenedSavepoint } from '../savepoint/open-savepoint';
import type { SampleCoverage, StateSample } from '../keyed/sample-keyed-stream';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import { scanState } from './scan-state';

export interface StateEntryCount {
  operatorId: string;
  state: string;
  scope: StateScope;
  entries: number;
  /** set when a sample was read: the count covers only the sampled entries */
  sampled?: true;
}

export interface CountStateEntriesResult {
  /** every readable state, 0 for states listed in headers without entries; RocksDB native states are absent */
  counts: StateEntryCount[];
  /** streams that failed (their states' counts cover only the entries read before the failure) */
  errors: DecodeErrorJson[];
  /** present when options.sample was given: what the sample covered */
  coverage?: SampleCoverage;
}

/**
 * Counts the entries of every state (a full scan of all state data): keyed entries per
 * key/namespace[/user key], operator list elements, broadcast map entries (one subtask's copy:
 * every subtask holds the whole broadcast state).
 */
export async function countStateEntries(
  files: SavepointFiles,
  registry: SnapshotRegistry,
  options: { operatorId?: string; signal?: CancelSignal; opened?: OpenedSavepoint; sample?: StateSample } = {},
): Promise<CountStateEntriesResult> {
  const sample = options.sample;
  const opened = options.opened ?? (await openSavepoint(files));
  const counts = new Map<string, StateEntryCount>();
  const errors: DecodeErrorJson[] = [];
  const slot = (operatorId: string, state: string, scope: StateScope) => {
    const k = `${operatorId}\u0000${scope}\u0000${state}`;
    let c = counts.get(k);
    if (!c) counts.set(k, (c = { operatorId, state, scope, entries: 0, ...(sample ? { sampled: true as const } : {}) }));
    return c;
  };
  // entries come in runs of one state: look its slot up again only when the state or scope changes
  let last: StateEntryCount | undefined;
  let broadcast: ReadonlySet<string> = new Set();
  const covered = await scanState(
    opened,
    registry,
    { ...(options.operatorId !== undefined ? { operatorId: options.operatorId } : {}), ...(sample ? { sample } : {}), broadcastCopies: 'counted' },
    {
      part(part) {
        // every state the header names is counted, 0 when it has no entries
        for (const name of part.states) slot(part.operator.id, name, part.kind === 'keyed' ? 'keyed' : 'operator');
        for (const name of part.broadcastStates) slot(part.operator.id, name, 'broadcast');
        broadcast = new Set(part.broadcastStates);
        last = undefined;
      },
      entry(e, part) {
        const scope: StateScope = part.kind === 'keyed' ? 'keyed' : broadcast.has(e.state) ? 'broadcast' : 'operator';
        if (last === undefined || last.state !== e.state || last.scope !== scope) last = slot(part.operator.id, e.state, scope);
        last.entries++;
      },
      streamError: (e) => void errors.push(e.toJSON()),
      // RocksDB native keyed state is not read here: its states are absent from the counts
      unreadable: () => undefined,
    },
    { values: { mode: 'decode' }, ...(options.signal ? { signal: options.signal } : {}), reuseReadBuffers: true },
  );
  const coverage: SampleCoverage | undefined = sample ? { sample, keyGroupsRead: covered.keyGroupsRead, keyGroupsWithData: covered.keyGroupsWithData } : undefined;
  return { counts: [...counts.values()], errors, ...(coverage ? { coverage } : {}) };
}
