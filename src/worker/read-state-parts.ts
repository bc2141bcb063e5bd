/**
 * The parts of one state in the order the app numbers its entries (the order of readStateEntries):
 * subtasks by index; in each, the operator-state entries, then the keyed entries key group by key
 * group (block order). The stats scan walks every part; a page read opens only the part that holds
 * its first row (read-state-part.ts).
 */
import { DecodeError } from '../core/io';
import {
  listSampledKeyedInputs,
  readCanonicalKeyedEntries,
  readCanonicalKeyedEntryRuns,
  readHeapKeyedEntries,
  readOperatorStateEntries,
  readSubtaskKeyedStream,
  readSubtaskOperatorStream,
  ROCKSDB_NATIVE_UNREADABLE,
  type CancelSignal,
  type KeyedEntryRun,
  type OpenedSavepoint,
  type SnapshotRegistry,
  type StateEntry,
  type StateSample,
} from '../core/flink';
import { isCountedOperatorPart } from './is-counted-operator-part';
import { requireOperator } from './require-operator';

export interface StatePart {
  subtask: number;
  kind: 'operator' | 'keyed';
  /** heap entries are decoded a chunk at a time before they are yielded (canonical and operator entries: one at a time, as pulled) */
  eager: boolean;
  /**
   * false for a broadcast state's copy in any subtask but the counted one (isCountedBroadcastCopy):
   * its rows are listed, but statistics count one copy, as the CLI's stats
   */
  counted: boolean;
  entries: AsyncIterable<StateEntry>;
  /** canonical keyed parts: the same entries as runs of rows, one per key-group block or window (iterate either, not both) */
  runs?: AsyncIterable<KeyedEntryRun>;
}

/** Every part of the state (under a key-group sample: only the chosen key groups' blocks), with coverage counted. */
export async function* readStateParts(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  query: { operatorId: string; state: string; sample?: StateSample; signal?: CancelSignal },
  coverage: { keyGroupsRead: number; keyGroupsWithData: number },
): AsyncGenerator<StatePart> {
  const op = requireOperator(opened, query.operatorId);
  const filter = { state: query.state, ...(query.signal ? { signal: query.signal } : {}) };
  for (const subtask of [...op.subtasks].sort((a, b) => a.index - b.index)) {
    if (subtask.managedOperatorState?.states.some((s) => s.name === query.state)) {
      const stream = await readSubtaskOperatorStream(opened, op, subtask, registry);
      if (stream) yield { subtask: subtask.index, kind: 'operator', eager: false, counted: isCountedOperatorPart(op, subtask, query.state), entries: readOperatorStateEntries(stream.input, stream.header, filter) };
    }
    const keyed = await readSubtaskKeyedStream(opened, op, subtask, registry);
    if (!keyed?.header?.states.some((s) => s.name === query.state)) continue;
    if (keyed.format === 'rocksdb-native') {
      throw new DecodeError({ code: 'unsupported-format', detail: ROCKSDB_NATIVE_UNREADABLE, path: [`subtask ${subtask.index}`, query.state] });
    }
    if (!keyed.input) continue;
    const sampled = listSampledKeyedInputs(keyed.input, query.sample);
    coverage.keyGroupsWithData += sampled.keyGroupsWithData;
    coverage.keyGroupsRead += sampled.keyGroupsRead;
    const header = keyed.header;
    const heap = keyed.format === 'heap';
    for (const input of sampled.inputs) {
      if (heap) yield { subtask: subtask.index, kind: 'keyed', eager: true, counted: true, entries: readHeapKeyedEntries(input, header, filter) };
      else yield { subtask: subtask.index, kind: 'keyed', eager: false, counted: true, entries: readCanonicalKeyedEntries(input, header, filter), runs: readCanonicalKeyedEntryRuns(input, header, filter) };
    }
  }
}
