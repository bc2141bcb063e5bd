/**
 * One part of a state for a page read: a subtask's operator-state entries, or the entries of one
 * key group of a subtask. The subtask's state header is read once per session (SubtaskStreamCache;
 * `opened` must then track reads for whichever page step runs, see createSwitchingStep).
 */
import {
  narrowKeyedInputToKeyGroup,
  readCanonicalKeyedEntries,
  readHeapKeyedEntries,
  readOperatorStateEntries,
  readSubtaskKeyedStream,
  readSubtaskOperatorStream,
  type CancelSignal,
  type OpenedSavepoint,
  type SnapshotRegistry,
  type SubtaskKeyedStream,
  type SubtaskOperatorStream,
} from '../core/flink';
import { DecodeError } from '../core/io';
import { isCountedOperatorPart } from './is-counted-operator-part';
import type { StatePart } from './read-state-parts';
import { requireOperator } from './require-operator';

/** Subtask streams with their headers, by operator and subtask; a failed read is not kept. */
export interface SubtaskStreamCache {
  operator: Map<string, Promise<SubtaskOperatorStream | undefined>>;
  keyed: Map<string, Promise<SubtaskKeyedStream | undefined>>;
}

export function createSubtaskStreamCache(): SubtaskStreamCache {
  return { operator: new Map(), keyed: new Map() };
}

export async function readStatePart(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  query: { operatorId: string; state: string; signal?: CancelSignal },
  at: { subtask: number; keyGroup: number },
  streams: SubtaskStreamCache,
): Promise<StatePart> {
  const op = requireOperator(opened, query.operatorId);
  const subtask = op.subtasks.find((s) => s.index === at.subtask);
  const filter = { state: query.state, ...(query.signal ? { signal: query.signal } : {}) };
  const missing = (what: string) => new DecodeError({ code: 'invalid-value', detail: `expected ${what} of state ${query.state} in subtask ${at.subtask}, found none (the savepoint changed since it was scanned?)` });
  if (!subtask) throw missing('a subtask');
  const key = `${op.id}\u0000${subtask.index}`;
  if (at.keyGroup < 0) {
    const stream = await remember(streams.operator, key, () => readSubtaskOperatorStream(opened, op, subtask, registry));
    if (!stream) throw missing('operator state');
    return { subtask: at.subtask, kind: 'operator', eager: false, counted: isCountedOperatorPart(op, subtask, query.state), entries: readOperatorStateEntries(stream.input, stream.header, filter) };
  }
  const keyed = await remember(streams.keyed, key, () => readSubtaskKeyedStream(opened, op, subtask, registry));
  if (!keyed?.input || !keyed.header || keyed.format === 'rocksdb-native' || keyed.format === 'changelog') throw missing('keyed state');
  const input = narrowKeyedInputToKeyGroup(keyed.input, at.keyGroup);
  if (!input) throw missing(`key group ${at.keyGroup}`);
  const heap = keyed.format === 'heap';
  return { subtask: at.subtask, kind: 'keyed', eager: heap, counted: true, entries: heap ? readHeapKeyedEntries(input, keyed.header, filter) : readCanonicalKeyedEntries(input, keyed.header, filter) };
}

function remember<T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  let known = cache.get(key);
  if (known === undefined) {
    const pending = read();
    cache.set(key, (known = pending));
    pending.catch(() => {
      if (cache.get(key) === pending) cache.delete(key);
    });
  }
  return known;
}
