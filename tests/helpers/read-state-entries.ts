/**
 * A test's independent full read of a state: every entry of it, decoded, through the core's one scan loop
 * (scanState). No command reads whole states into memory, so this lives with the tests, not in src/.
 */
import {
  openSavepoint,
  scanState,
  type CancelSignal,
  type OpenedSavepoint,
  type SnapshotRegistry,
  type StateEntry,
  type StateSample,
  type ValueMode,
} from '../../src/core/flink';
import type { SavepointFiles } from '../../src/core/io';

export interface ReadStateEntriesOptions {
  /** 32-hex operator id, or a uid (matched against V5+ uids and through the uid → id hash) */
  operatorId: string;
  /** one state, or several of the operator read in one pass (each state's entries in the order a read of it alone gives) */
  state: string | readonly string[];
  /** at most this many entries of each state */
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
  /** how values are read (default `decode`) */
  mode?: ValueMode;
}

/**
 * The entries of one state of one operator (or several of its states), in scanState's order, decoded:
 * a convenience over scanState for tests that compare the entries themselves. The
 * entries read before an error are yielded, then the error is thrown. Memory holds every entry read:
 * whole-state scans visit entries with scanState instead. RocksDB native snapshots are read from their
 * SST files (flink/rocksdb); one without its meta data handle throws a DecodeError `unsupported-format`
 * with ROCKSDB_NATIVE_UNREADABLE.
 */
export async function* readStateEntries(files: SavepointFiles, registry: SnapshotRegistry, options: ReadStateEntriesOptions): AsyncGenerator<StateEntry> {
  const opened = options.opened ?? (await openSavepoint(files));
  const entries: StateEntry[] = [];
  let failure: { error: unknown } | undefined;
  try {
    const covered = await scanState(
      opened,
      registry,
      {
        operatorId: options.operatorId,
        states: options.state,
        ...(options.limit !== undefined ? { limit: options.limit } : {}),
        ...(options.sample ? { sample: options.sample } : {}),
        ...(options.subtasks ? { subtasks: options.subtasks } : {}),
      },
      { entry: (e) => void entries.push(e) },
      { values: { mode: options.mode ?? 'decode' }, ...(options.signal ? { signal: options.signal } : {}) },
    );
    if (options.coverage) {
      options.coverage.keyGroupsRead += covered.keyGroupsRead;
      options.coverage.keyGroupsWithData += covered.keyGroupsWithData;
    }
  } catch (error) {
    failure = { error };
  }
  yield* entries;
  if (failure) throw failure.error;
}
