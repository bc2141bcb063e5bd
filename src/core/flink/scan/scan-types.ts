/** The types of the one state scan (scan-state.ts): what it selects, what its visitor sees, how it reads. */
import type { DecodeError } from '../../io';
import type { CancelSignal } from '../cancel-signal';
import type { KeyedStreamFormat, SubtaskKeyedStream, SubtaskOperatorStream } from '../headers/read-subtask-state-headers';
import type { KeyedEntryRun } from '../keyed/keyed-entry-run';
import type { StateSample } from '../keyed/sample-keyed-stream';
import type { OperatorState } from '../metadata/metadata-types';
import type { RocksDbSnapshot } from '../rocksdb/open-rocksdb-snapshot';
import type { StateEntry } from '../savepoint/inspection-types';
import type { ValueFrame, ValueModeSource } from '../snapshots/snapshot-types';

export interface StateScanSelection {
  /** one operator: 32-hex id or uid (findOperator; a DecodeError names the operators when none matches); default every operator */
  operatorId?: string;
  /** instead: these (operator id, subtask) pairs in this order (a worker thread's share); pairs not in `_metadata` are passed over */
  units?: readonly { operatorId: string; subtask: number }[];
  /** the states to read (default every state) */
  states?: string | readonly string[];
  /** only these subtasks (by index) */
  subtasks?: readonly number[];
  /** every n-th key group, or the first N entries of each state */
  sample?: StateSample;
  /** at most this many entries of each state (with a first-entries sample, the smaller of the two) */
  limit?: number;
  /** broadcast states: every subtask's copy (default), or only the copy statistics count (isCountedBroadcastCopy) */
  broadcastCopies?: 'every' | 'counted';
  /** operator state, keyed state, or both (default) */
  scopes?: readonly ('operator' | 'keyed')[];
  /** only these key groups of the keyed streams (each read with exactly its block's byte range) */
  keyGroups?: readonly number[];
  /**
   * A key-group shard (inclusive, as Flink's KeyGroupRange): only these key groups' bytes of the keyed
   * streams are read; a subtask whose keyed handle's range does not meet it has its keyed stream left
   * unopened. Operator state is then read only when `operatorState` says so (default: when the range
   * starts at key group 0, so exactly one shard of a split reads it).
   */
  keyGroupRange?: { start: number; end: number };
  /** with `keyGroupRange`: whether this shard reads the operator state (default: the range starts at 0) */
  operatorState?: boolean;
}

/**
 * The subtasks' stream headers, read once for several scans of one savepoint (a session's page reads),
 * and each RocksDB native subtask's snapshot (its MANIFEST replayed, its tables' footers, properties and
 * range deletions): a failed read is not kept. The savepoint's byte sources must then be the same for
 * every scan.
 */
export interface SubtaskHeaderCache {
  operator: Map<string, Promise<SubtaskOperatorStream | undefined>>;
  keyed: Map<string, Promise<SubtaskKeyedStream | undefined>>;
  rocksdb: Map<string, Promise<RocksDbSnapshot>>;
}

/** One stream of a subtask as the visitor sees it. */
export interface ScanPart {
  operator: OperatorState;
  subtask: number;
  kind: 'operator' | 'keyed';
  /** operator state, or the keyed stream's format */
  format: 'operator' | KeyedStreamFormat;
  /** the states its header names (operator parts: list and union states, then `broadcastStates`) */
  states: readonly string[];
  broadcastStates: readonly string[];
  /** set when the part's entries are read but are not the whole of its states: why (a changelog's changes after the materialized snapshot) */
  incomplete?: string;
}

export interface StateScanVisitor {
  /** a part begins, before its entries (also a part whose states are all capped already) */
  part?(part: ScanPart): void;
  /** one entry in read order; false stops the whole scan */
  entry(e: StateEntry, part: ScanPart): boolean | void;
  /**
   * `frame` scans only: a canonical keyed row whose key surely decodes (KeyedEntryRun.checkRowKey) and
   * whose value is one value of a codec with frameInPlace, without decoding it: `frame` is filled (a
   * scratch object: use it before returning) or undefined where frameInPlace refused the bytes. Without
   * this hook every row is decoded and goes to `entry`. False stops the whole scan.
   */
  row?(run: KeyedEntryRun, i: number, frame: ValueFrame | undefined, part: ScanPart): boolean | void;
  /** a stream could not be read: with this hook the error is handed over and the scan goes on with the next stream; without it the scan throws it */
  streamError?(error: DecodeError, where: { operator: OperatorState; subtask: number; kind: 'operator' | 'keyed' }): void;
  /** keyed state whose values are not readable here (a RocksDB native handle without meta data, a state only a changelog names): with this hook it is reported, without it the scan throws unsupported-format */
  unreadable?(part: ScanPart, reason: string): void;
  /**
   * Back pressure: called after the entries of each read (a run of a read window, a batch of RocksDB
   * entries, a state's entries of a heap key group, an entry of an operator stream or of a changelog
   * replay); a returned promise is awaited before the scan reads on, so a visitor whose consumer is
   * slower than the scan (a slow sink) holds at most one read's entries.
   */
  drain?(): Promise<void> | void;
}

export interface StateScanOptions {
  /** the value mode, looked up as each value is read */
  values: ValueModeSource;
  signal?: CancelSignal;
  /** read every canonical keyed stream into one set of reused buffers (a scan that keeps no entry past its visit): fewer allocations, and the next window is read ahead */
  reuseReadBuffers?: boolean;
  /** stream headers remembered across scans (default: read for this scan) */
  headers?: SubtaskHeaderCache;
}

export interface StateScanResult {
  /** key groups with data in the keyed streams visited, and how many of them were read (under a key-group sample, fewer) */
  keyGroupsWithData: number;
  keyGroupsRead: number;
}
