import type { DecodeErrorJson, SavepointFiles } from '../../io';
import type { CancelSignal } from '../cancel-signal';
import type { StateScope } from '../savepoint/inspection-types';
import { openSavepoint, type OpenedSavepoint } from '../savepoint/open-savepoint';
import type { SampleCoverage, StateSample } from '../keyed/sample-keyed-stream';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { StateEntry } from '../savepoint/inspection-types';
import type { DecodedValue } from '../snapshots/snapshot-types';
import { scanState, type ScanPart } from './scan-state';

/** The reason of the first key, namespace, user key or value of the entry that its known serializer could not decode. */
function firstFailed(e: StateEntry): string | undefined {
  if (isFailed(e.value)) return e.value.reason;
  if (isFailed(e.key)) return e.key.reason;
  if (isFailed(e.namespace)) return e.namespace.reason;
  return isFailed(e.userKey) ? e.userKey.reason : undefined;
}

function isFailed(v: DecodedValue | null | undefined): v is DecodedValue & { kind: 'opaque' } {
  return v !== null && v !== undefined && v.kind === 'opaque' && v.decodeFailed === true;
}

export interface StateEntryCount {
  operatorId: string;
  state: string;
  scope: StateScope;
  entries: number;
  /** set when a sample was read: the count covers only the sampled entries */
  sampled?: true;
}

/** A stream of a subtask whose states' entries were not all counted. */
export interface StateReadGap {
  operatorId: string;
  subtask: number;
  /** operator: the operator stream (its list, union and broadcast states); keyed: the keyed stream */
  scope: 'operator' | 'keyed';
  /** the states its header names (for a changelog's states only it names, those); undefined when the header itself failed */
  states?: readonly string[];
  /**
   * failed: the stream stopped at an error (the entries before it are counted); unreadable: its entries
   * are not readable here (RocksDB native, a changelog); incomplete: read, but its entries are not the
   * whole of its states (a changelog's changes after the materialized part); undecodable: read to its
   * end, but some values its known serializer could not decode (kept as their bytes)
   */
  kind: 'failed' | 'unreadable' | 'incomplete' | 'undecodable';
  reason: string;
}

export interface CountStateEntriesResult {
  /** every readable state, 0 for states listed in headers without entries; states not readable here (RocksDB native, changelog) are absent */
  counts: StateEntryCount[];
  /** streams that failed (their states' counts cover only the entries read before the failure) */
  errors: DecodeErrorJson[];
  /** every stream whose states' entries were not all counted, and why (the failures of `errors` among them) */
  gaps: StateReadGap[];
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
  const gaps: StateReadGap[] = [];
  // the part under way: a stream error names the states of the part it stopped (none when its header failed)
  let current: ScanPart | undefined;
  const slot = (operatorId: string, state: string, scope: StateScope) => {
    const k = `${operatorId}\u0000${scope}\u0000${state}`;
    let c = counts.get(k);
    if (!c) counts.set(k, (c = { operatorId, state, scope, entries: 0, ...(sample ? { sampled: true as const } : {}) }));
    return c;
  };
  // entries come in runs of one state: look its slot up again only when the state or scope changes
  let last: StateEntryCount | undefined;
  let broadcast: ReadonlySet<string> = new Set();
  // per operator, subtask, scope and state: the values that could not be decoded, and the first reason
  const undecodable = new Map<string, { gap: StateReadGap; count: number }>();
  const noteUndecodable = (e: StateEntry, part: ScanPart, scope: StateScope) => {
    const failed = firstFailed(e);
    if (failed === undefined) return;
    const k = `${part.operator.id}\u0000${part.subtask}\u0000${scope}\u0000${e.state}`;
    const seen = undecodable.get(k);
    if (seen) seen.count++;
    else undecodable.set(k, { gap: { operatorId: part.operator.id, subtask: part.subtask, scope: part.kind, states: [e.state], kind: 'undecodable', reason: failed }, count: 1 });
  };
  const covered = await scanState(
    opened,
    registry,
    { ...(options.operatorId !== undefined ? { operatorId: options.operatorId } : {}), ...(sample ? { sample } : {}), broadcastCopies: 'counted' },
    {
      part(part) {
        current = part;
        if (part.incomplete !== undefined) gaps.push({ operatorId: part.operator.id, subtask: part.subtask, scope: part.kind, states: part.states, kind: 'incomplete', reason: part.incomplete });
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
        noteUndecodable(e, part, scope);
      },
      streamError(e, where) {
        errors.push(e.toJSON());
        const part = current !== undefined && current.operator.id === where.operator.id && current.subtask === where.subtask && current.kind === where.kind ? current : undefined;
        gaps.push({ operatorId: where.operator.id, subtask: where.subtask, scope: where.kind, ...(part ? { states: [...part.states, ...part.broadcastStates] } : {}), kind: 'failed', reason: e.message });
      },
      // keyed state not readable here (RocksDB native, a changelog's states): absent from the counts, listed as a gap
      unreadable(part, reason) {
        gaps.push({ operatorId: part.operator.id, subtask: part.subtask, scope: part.kind, states: part.states, kind: 'unreadable', reason });
      },
    },
    { values: { mode: 'decode' }, ...(options.signal ? { signal: options.signal } : {}), reuseReadBuffers: true },
  );
  for (const { gap, count } of undecodable.values()) {
    gaps.push({ ...gap, reason: `subtask ${gap.subtask}: ${count} ${count === 1 ? 'entry' : 'entries'} read whose values could not be decoded (the first: ${gap.reason})` });
  }
  const coverage: SampleCoverage | undefined = sample ? { sample, keyGroupsRead: covered.keyGroupsRead, keyGroupsWithData: covered.keyGroupsWithData } : undefined;
  return { counts: [...counts.values()], errors, gaps, ...(coverage ? { coverage } : {}) };
}
