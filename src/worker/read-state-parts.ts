/**
 * The parts of one state in the order the app numbers its entries (the order of readStateEntries):
 * subtasks by index; in each, the operator-state entries, then the keyed entries key group by key
 * group (block order). The stats scan walks every part; a page read opens only the part that holds
 * its first row (one key group's block, or one subtask's operator state).
 */
import {
  DecodeError,
  sliceSource,
} from '../core/io';
import {
  findOperator,
  isCountedBroadcastCopy,
  listKeyGroupBlocks,
  listSampledKeyedInputs,
  readCanonicalKeyedEntries,
  readHeapKeyedEntries,
  readOperatorStateEntries,
  readSubtaskKeyedStream,
  readSubtaskOperatorStream,
  ROCKSDB_NATIVE_UNREADABLE,
  type CancelSignal,
  type KeyedStreamInput,
  type OpenedSavepoint,
  type OperatorState,
  type SnapshotRegistry,
  type StateEntry,
  type StateSample,
} from '../core/flink';

export interface StatePart {
  subtask: number;
  kind: 'operator' | 'keyed';
  /** heap (and operator/broadcast) entries are decoded a chunk at a time before they are yielded */
  eager: boolean;
  /**
   * false for a broadcast state's copy in any subtask but the counted one (isCountedBroadcastCopy):
   * its rows are listed, but statistics count one copy, as the CLI's stats
   */
  counted: boolean;
  entries: AsyncIterable<StateEntry>;
}

export function requireOperator(opened: OpenedSavepoint, operatorId: string): OperatorState {
  const op = findOperator(opened, operatorId);
  if (!op) {
    throw new DecodeError({ code: 'invalid-value', detail: `expected an operator id or uid of this savepoint, found ${operatorId} (operators: ${opened.metadata.operators.map((o) => o.id).join(', ')})` });
  }
  return op;
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
      const counted = !isBroadcastState(subtask, query.state) || isCountedBroadcastCopy(op, subtask.index, query.state);
      if (stream) yield { subtask: subtask.index, kind: 'operator', eager: true, counted, entries: readOperatorStateEntries(stream.input, stream.header, filter) };
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
      yield { subtask: subtask.index, kind: 'keyed', eager: heap, counted: true, entries: heap ? readHeapKeyedEntries(input, header, filter) : readCanonicalKeyedEntries(input, header, filter) };
    }
  }
}

/** One part only: a subtask's operator-state entries, or the entries of one key group of a subtask. */
export async function readStatePart(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  query: { operatorId: string; state: string; signal?: CancelSignal },
  at: { subtask: number; keyGroup: number },
): Promise<StatePart> {
  const op = requireOperator(opened, query.operatorId);
  const subtask = op.subtasks.find((s) => s.index === at.subtask);
  const filter = { state: query.state, ...(query.signal ? { signal: query.signal } : {}) };
  const missing = (what: string) => new DecodeError({ code: 'invalid-value', detail: `expected ${what} of state ${query.state} in subtask ${at.subtask}, found none (the savepoint changed since it was scanned?)` });
  if (!subtask) throw missing('a subtask');
  if (at.keyGroup < 0) {
    const stream = await readSubtaskOperatorStream(opened, op, subtask, registry);
    if (!stream) throw missing('operator state');
    const counted = !isBroadcastState(subtask, query.state) || isCountedBroadcastCopy(op, at.subtask, query.state);
    return { subtask: at.subtask, kind: 'operator', eager: true, counted, entries: readOperatorStateEntries(stream.input, stream.header, filter) };
  }
  const keyed = await readSubtaskKeyedStream(opened, op, subtask, registry);
  if (!keyed?.input || !keyed.header || keyed.format === 'rocksdb-native' || keyed.format === 'changelog') throw missing('keyed state');
  const input = narrowToKeyGroup(keyed.input, at.keyGroup);
  if (!input) throw missing(`key group ${at.keyGroup}`);
  const heap = keyed.format === 'heap';
  return { subtask: at.subtask, kind: 'keyed', eager: heap, counted: true, entries: heap ? readHeapKeyedEntries(input, keyed.header, filter) : readCanonicalKeyedEntries(input, keyed.header, filter) };
}

function isBroadcastState(subtask: OperatorState['subtasks'][number], state: string): boolean {
  return subtask.managedOperatorState?.states.some((s) => s.name === state && s.mode === 'BROADCAST') === true;
}

/** The stream narrowed to one key group's block: one range read of exactly that block. */
export function narrowToKeyGroup(input: KeyedStreamInput, keyGroup: number): KeyedStreamInput | undefined {
  const block = listKeyGroupBlocks(input).find((b) => b.keyGroup === keyGroup);
  if (!block) return undefined;
  return {
    ...input,
    source: sliceSource(input.source, 0, block.end, input.source.name),
    offsets: input.offsets.map((o, i) => (input.range.start + i === keyGroup ? o : 0)),
  };
}
