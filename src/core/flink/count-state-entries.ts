import { isDecodeError, type DecodeErrorJson, type SavepointFiles } from '../io';
import { throwIfCancelled, type CancelSignal } from './cancel-signal';
import type { StateEntry, StateScope } from './inspection-types';
import { openSavepoint, type OpenedSavepoint } from './open-savepoint';
import { readCanonicalKeyedEntries } from './read-canonical-keyed-entries';
import { readHeapKeyedEntries } from './read-heap-keyed-entries';
import { readOperatorStateEntries } from './read-operator-state-entries';
import { readSubtaskKeyedStream, readSubtaskOperatorStream } from './read-subtask-state-headers';
import type { SnapshotRegistry } from './snapshot-registry';

export interface StateEntryCount {
  operatorId: string;
  state: string;
  scope: StateScope;
  entries: number;
}

export interface CountStateEntriesResult {
  /** every readable state, 0 for states listed in headers without entries; RocksDB native states are absent */
  counts: StateEntryCount[];
  /** streams that failed (their states' counts cover only the entries read before the failure) */
  errors: DecodeErrorJson[];
}

/**
 * Counts the entries of every state (a full scan of all state data): keyed entries per
 * key/namespace[/user key], operator list elements, broadcast map entries.
 */
export async function countStateEntries(
  files: SavepointFiles,
  registry: SnapshotRegistry,
  options: { operatorId?: string; signal?: CancelSignal; opened?: OpenedSavepoint } = {},
): Promise<CountStateEntriesResult> {
  const opened = options.opened ?? (await openSavepoint(files));
  const counts = new Map<string, StateEntryCount>();
  const errors: DecodeErrorJson[] = [];
  const slot = (operatorId: string, state: string, scope: StateScope) => {
    const k = `${operatorId}\u0000${scope}\u0000${state}`;
    let c = counts.get(k);
    if (!c) counts.set(k, (c = { operatorId, state, scope, entries: 0 }));
    return c;
  };
  const tally = async (operatorId: string, entries: AsyncIterable<StateEntry>, scopeOf: (e: StateEntry) => StateScope) => {
    for await (const e of entries) slot(operatorId, e.state, scopeOf(e)).entries++;
  };
  for (const op of opened.metadata.operators) {
    if (options.operatorId !== undefined && op.id !== options.operatorId) continue;
    for (const subtask of op.subtasks) {
      throwIfCancelled(options.signal);
      const signal = options.signal ? { signal: options.signal } : {};
      try {
        const stream = await readSubtaskOperatorStream(opened, op, subtask, registry);
        if (stream) {
          const broadcast = new Set(stream.header.broadcastStates.map((s) => s.name));
          for (const s of stream.header.states) slot(op.id, s.name, 'operator');
          for (const s of stream.header.broadcastStates) slot(op.id, s.name, 'broadcast');
          await tally(op.id, readOperatorStateEntries(stream.input, stream.header, signal), (e) => (broadcast.has(e.state) ? 'broadcast' : 'operator'));
        }
      } catch (e) {
        if (!isDecodeError(e) || e.code === 'cancelled') throw e;
        errors.push(e.toJSON());
      }
      try {
        const keyed = await readSubtaskKeyedStream(opened, op, subtask, registry);
        if (keyed?.input && keyed.header && (keyed.format === 'canonical' || keyed.format === 'heap')) {
          for (const s of keyed.header.states) slot(op.id, s.name, 'keyed');
          const entries = keyed.format === 'heap' ? readHeapKeyedEntries(keyed.input, keyed.header, signal) : readCanonicalKeyedEntries(keyed.input, keyed.header, signal);
          await tally(op.id, entries, () => 'keyed');
        }
      } catch (e) {
        if (!isDecodeError(e) || e.code === 'cancelled') throw e;
        errors.push(e.toJSON());
      }
    }
  }
  return { counts: [...counts.values()], errors };
}
