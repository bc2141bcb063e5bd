import { DecodeError, wrongInput, type SavepointFiles } from '../../io';
import type { CancelSignal } from '../cancel-signal';
import { computeOperatorId } from '../metadata/compute-operator-id';
import type { StateEntry } from '../savepoint/inspection-types';
import { isWantedState } from '../is-wanted-state';
import { openSavepoint, type OpenedSavepoint } from '../savepoint/open-savepoint';
import { readCanonicalKeyedEntryRuns } from '../keyed/read-canonical-keyed-entries';
import { readHeapKeyedEntries } from '../keyed/read-heap-keyed-entries';
import { readOperatorStateEntries } from '../operator/read-operator-state-entries';
import { checkStateSample, listSampledKeyedInputs, type StateSample } from '../keyed/sample-keyed-stream';
import { ROCKSDB_NATIVE_UNREADABLE, readSubtaskKeyedStream, readSubtaskOperatorStream } from '../headers/read-subtask-state-headers';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import type { OperatorState } from '../metadata/metadata-types';

export interface ReadStateEntriesOptions {
  /** 32-hex operator id, or a uid (matched against V5+ uids and through the uid → id hash) */
  operatorId: string;
  /** one state, or several of the operator read in one pass (each state's entries in the order a read of it alone gives) */
  state: string | readonly string[];
  /** stop after this many entries */
  limit?: number;
  signal?: CancelSignal;
  /** an already opened savepoint (avoids reading `_metadata` again) */
  opened?: OpenedSavepoint;
  /** read a sample only: every n-th key group, or the first N entries (= a limit) */
  sample?: StateSample;
  /** read only these subtasks (by index); the entries are those the whole read yields for them, in the same order */
  subtasks?: readonly number[];
  /** filled while reading: key groups with data in the keyed streams visited, and how many were read */
  coverage?: { keyGroupsRead: number; keyGroupsWithData: number };
}

/** Finds an operator by id, stored uid, or uid hashed to an id (spec §2.3). */
export function findOperator(opened: OpenedSavepoint, idOrUid: string): OperatorState | undefined {
  const ops = opened.metadata.operators;
  const lower = idOrUid.toLowerCase();
  return ops.find((o) => o.id === lower) ?? ops.find((o) => o.uid === idOrUid) ?? ops.find((o) => o.id === computeOperatorId(idOrUid));
}

/**
 * Streams the entries of one state of one operator, subtask by subtask (operator list/union and
 * broadcast states, canonical and heap keyed states). RocksDB native snapshots throw a DecodeError
 * `unsupported-format` with ROCKSDB_NATIVE_UNREADABLE.
 */
export async function* readStateEntries(files: SavepointFiles, registry: SnapshotRegistry, options: ReadStateEntriesOptions): AsyncGenerator<StateEntry> {
  for await (const run of readStateEntryRuns(files, registry, options)) for (const e of run) yield e;
}

/**
 * The same entries, in the same order and with the same errors, in runs: canonical keyed entries one
 * run per key-group block (or window of a large one), decoded as the run is iterated, so a whole-state
 * scan pays one async step per block instead of per entry; operator and heap entries one per run.
 * Finish a run before asking for the next.
 */
export async function* readStateEntryRuns(files: SavepointFiles, registry: SnapshotRegistry, options: ReadStateEntriesOptions): AsyncGenerator<Iterable<StateEntry>> {
  const opened = options.opened ?? (await openSavepoint(files));
  const op = findOperator(opened, options.operatorId);
  if (!op) {
    throw wrongInput('not-found', `expected an operator id or uid of this savepoint, found ${options.operatorId} (operators: ${opened.metadata.operators.map((o) => o.id).join(', ')})`);
  }
  if (options.sample) checkStateSample(options.sample);
  const sample = options.sample;
  const limit = Math.min(options.limit ?? Infinity, sample?.kind === 'first-entries' ? sample.count : Infinity);
  if (limit <= 0) return;
  let produced = 0;
  const names: string | ReadonlySet<string> = typeof options.state === 'string' ? options.state : new Set(options.state);
  const wanted = (name: string): boolean => isWantedState(names, name);
  const filter = { state: names, ...(options.signal ? { signal: options.signal } : {}) };
  const only = options.subtasks === undefined ? undefined : new Set(options.subtasks);
  const subtasks = [...op.subtasks].filter((s) => only === undefined || only.has(s.index)).sort((a, b) => a.index - b.index);
  for (const subtask of subtasks) {
    if (subtask.managedOperatorState?.states.some((s) => wanted(s.name))) {
      const stream = await readSubtaskOperatorStream(opened, op, subtask, registry);
      if (stream) {
        for await (const e of readOperatorStateEntries(stream.input, stream.header, filter)) {
          yield [e];
          if (++produced >= limit) return;
        }
      }
    }
    const keyed = await readSubtaskKeyedStream(opened, op, subtask, registry);
    const keyedState = keyed?.header?.states.find((s) => wanted(s.name));
    if (!keyed?.header || !keyedState) continue;
    if (keyed.format === 'rocksdb-native') {
      throw new DecodeError({ code: 'unsupported-format', detail: ROCKSDB_NATIVE_UNREADABLE, path: [`subtask ${subtask.index}`, keyedState.name] });
    }
    if (!keyed.input) continue;
    const sampled = listSampledKeyedInputs(keyed.input, sample);
    if (options.coverage) {
      options.coverage.keyGroupsWithData += sampled.keyGroupsWithData;
      options.coverage.keyGroupsRead += sampled.keyGroupsRead;
    }
    for (const input of sampled.inputs) {
      if (keyed.format === 'heap') {
        for await (const e of readHeapKeyedEntries(input, keyed.header, filter)) {
          yield [e];
          if (++produced >= limit) return;
        }
        continue;
      }
      for await (const run of readCanonicalKeyedEntryRuns(input, keyed.header, filter)) {
        // the run stops itself at the limit; the read stops when the consumer asks for the next run
        const stop = { reached: false };
        yield takeUpTo(run, () => ++produced >= limit, stop);
        if (stop.reached) return;
      }
    }
  }
}

/** The run's entries until `counted()` says the limit is reached with one of them (that one included). */
function* takeUpTo(run: Iterable<StateEntry>, counted: () => boolean, stop: { reached: boolean }): Generator<StateEntry> {
  for (const e of run) {
    yield e;
    if (counted()) {
      stop.reached = true;
      return;
    }
  }
}
