import { isDecodeError, type DecodeErrorJson, type SavepointFiles } from '../../io';
import { throwIfCancelled, type CancelSignal } from '../cancel-signal';
import type { StateEntry, StateScope } from '../savepoint/inspection-types';
import { openSavepoint, type OpenedSavepoint } from '../savepoint/open-savepoint';
import { readCanonicalKeyedEntryRuns } from '../keyed/read-canonical-keyed-entries';
import { KeyedReadBuffers } from '../keyed/keyed-read-buffers';
import { readHeapKeyedEntries } from '../keyed/read-heap-keyed-entries';
import { readCountedOperatorStateEntries } from '../operator/select-broadcast-copy';
import { checkStateSample, listSampledKeyedInputs, type SampleCoverage, type StateSample } from '../keyed/sample-keyed-stream';
import { readSubtaskKeyedStream, readSubtaskOperatorStream } from '../headers/read-subtask-state-headers';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';

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
  if (sample) checkStateSample(sample);
  const perState = sample?.kind === 'first-entries' ? sample.count : Infinity;
  const coverage: SampleCoverage | undefined = sample ? { sample, keyGroupsRead: 0, keyGroupsWithData: 0 } : undefined;
  const opened = options.opened ?? (await openSavepoint(files));
  // one set of read buffers for every keyed stream (read one after the other)
  const readBuffers = new KeyedReadBuffers();
  const counts = new Map<string, StateEntryCount>();
  const errors: DecodeErrorJson[] = [];
  const slot = (operatorId: string, state: string, scope: StateScope) => {
    const k = `${operatorId}\u0000${scope}\u0000${state}`;
    let c = counts.get(k);
    if (!c) counts.set(k, (c = { operatorId, state, scope, entries: 0, ...(sample ? { sampled: true as const } : {}) }));
    return c;
  };
  /** counts a stream; with a per-state cap, stops reading once every state of the stream is full */
  const tally = async (operatorId: string, entries: AsyncIterable<StateEntry>, scopeOf: (e: StateEntry) => StateScope, states: StateEntryCount[]) => {
    if (states.length > 0 && states.every((s) => s.entries >= perState)) return;
    const count = createCounter(operatorId, scopeOf, states);
    for await (const e of entries) if (!count(e)) return;
  };
  /** the same for a stream read in runs of entries (one async step per key-group block) */
  const tallyRuns = async (operatorId: string, runs: AsyncIterable<Iterable<StateEntry>>, states: StateEntryCount[]) => {
    if (states.length > 0 && states.every((s) => s.entries >= perState)) return;
    const count = createCounter(operatorId, () => 'keyed', states);
    for await (const run of runs) for (const e of run) if (!count(e)) return;
  };
  /** counts one entry; false when every state of the stream is full (stop reading) */
  const createCounter = (operatorId: string, scopeOf: (e: StateEntry) => StateScope, states: StateEntryCount[]) => {
    // entries come in runs of one state: look its slot up again only when the state or scope changes
    let lastState: string | undefined;
    let lastScope: StateScope | undefined;
    let last: StateEntryCount | undefined;
    return (e: StateEntry): boolean => {
      const scope = scopeOf(e);
      if (last === undefined || e.state !== lastState || scope !== lastScope) last = slot(operatorId, (lastState = e.state), (lastScope = scope));
      if (last.entries < perState) last.entries++;
      else if (states.every((s) => s.entries >= perState)) return false;
      return true;
    };
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
          const states = [...stream.header.states.map((s) => slot(op.id, s.name, 'operator')), ...stream.header.broadcastStates.map((s) => slot(op.id, s.name, 'broadcast'))];
          // every subtask holds a full copy of a broadcast state: count one copy, not the sum (readCountedOperatorStateEntries)
          await tally(op.id, readCountedOperatorStateEntries(op, subtask.index, stream.input, stream.header, signal), (e) => (broadcast.has(e.state) ? 'broadcast' : 'operator'), states);
        }
      } catch (e) {
        if (!isDecodeError(e) || e.code === 'cancelled') throw e;
        errors.push(e.toJSON());
      }
      try {
        const keyed = await readSubtaskKeyedStream(opened, op, subtask, registry);
        if (keyed?.input && keyed.header && (keyed.format === 'canonical' || keyed.format === 'heap')) {
          const states = keyed.header.states.map((s) => slot(op.id, s.name, 'keyed'));
          const sampled = listSampledKeyedInputs(keyed.input, sample);
          if (coverage) {
            coverage.keyGroupsWithData += sampled.keyGroupsWithData;
            coverage.keyGroupsRead += sampled.keyGroupsRead;
          }
          for (const input of sampled.inputs) {
            if (keyed.format === 'heap') await tally(op.id, readHeapKeyedEntries(input, keyed.header, signal), () => 'keyed', states);
            // counting keeps no entry: a whole count reuses the read buffers (and reads ahead); a capped one may stop early and reads only what it asks for
            else await tallyRuns(op.id, readCanonicalKeyedEntryRuns(input, keyed.header, { ...signal, reuseReadBuffers: perState === Infinity, readBuffers }), states);
          }
        }
      } catch (e) {
        if (!isDecodeError(e) || e.code === 'cancelled') throw e;
        errors.push(e.toJSON());
      }
    }
  }
  return { counts: [...counts.values()], errors, ...(coverage ? { coverage } : {}) };
}
