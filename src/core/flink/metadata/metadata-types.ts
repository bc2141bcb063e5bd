/**
 * The decoded model of a checkpoint/savepoint `_metadata` file and its state handles. Plain data:
 * JSON-friendly except bigint where noted.
 */

/** A handle's bytes: inline in `_metadata` or a file next to it. */
export type StreamHandle =
  | { kind: 'inline'; name: string; size: number; /** absolute offset of the data inside `_metadata` */ offset: number; data: Uint8Array }
  | {
      kind: 'relative-file';
      relativePath: string;
      size: number;
      /** absolute offset in `_metadata` of the path string (absent for handles not read from bytes) */ pathOffset?: number;
    }
  | { kind: 'file'; path: string; size: number; /** absolute offset in `_metadata` of the path string */ pathOffset?: number }
  | {
      kind: 'segment-file';
      physicalPath: string;
      logicalFileId: string;
      start: number;
      size: number;
      scope: 'EXCLUSIVE' | 'SHARED';
      /** absolute offset in `_metadata` of the physical path string */ pathOffset?: number;
    }
  | { kind: 'empty-segment' }
  | { kind: 'legacy-key-groups'; range: KeyGroupRange; offsets: number[]; delegate: StreamHandle | null };

export interface KeyGroupRange {
  start: number;
  /** inclusive; end = start - 1 for an empty range */
  end: number;
}

export type KeyedStateHandle =
  | {
      kind: 'key-groups';
      /** 7: canonical savepoint; 12/3: heap snapshot format (or raw keyed state) */
      code: 3 | 7 | 12;
      range: KeyGroupRange;
      /** one offset per key group of the range; 0 = no data for that key group */
      offsets: number[];
      delegate: StreamHandle | null;
      handleId?: string;
    }
  | {
      kind: 'incremental';
      code: 5 | 11;
      checkpointId: bigint;
      backendId: string;
      range: KeyGroupRange;
      checkpointedSize?: bigint;
      metaData: StreamHandle | null;
      sharedFiles: { localPath: string; handle: StreamHandle | null }[];
      privateFiles: { localPath: string; handle: StreamHandle | null }[];
      handleId?: string;
    }
  | {
      kind: 'changelog';
      code: 8 | 9 | 10 | 13 | 14;
      range: KeyGroupRange;
      description: string;
      nested: KeyedStateHandle[];
      /** (added by flink-metadata) details per code; all optional */
      checkpointedSize?: bigint;
      /** 8/14: number of materialized handles at the start of `nested` (the rest are non-materialized) */
      materializedCount?: number;
      materializationId?: bigint;
      /** 14 only */
      checkpointId?: bigint;
      /** 9: sequence numbers */
      fromSequence?: bigint;
      toSequence?: bigint;
      /** 9: inline changes (absolute offset of the bytes inside `_metadata`) */
      changes?: { keyGroup: number; offset: number; length: number }[];
      /** 9, for writers only (tests, fixtures): the bytes of each change, written in place of `changes` */
      changeBytes?: { keyGroup: number; bytes: Uint8Array }[];
      /** 10/13: change files with their start offsets */
      files?: { offset: number; handle: StreamHandle | null }[];
      stateSize?: bigint;
      /** 13 (10: always "filesystem") */
      storageIdentifier?: string;
      handleId?: string;
    };

export type DistributionMode = 'SPLIT_DISTRIBUTE' | 'UNION' | 'BROADCAST';

export interface OperatorStateEntry {
  name: string;
  mode: DistributionMode;
  /** list/union: start of each element; broadcast: exactly one (start of the map) */
  offsets: number[];
}

export interface OperatorStateHandle {
  kind: 'operator';
  code: 4 | 17;
  states: OperatorStateEntry[];
  delegate: StreamHandle | null;
  /** code 17 (file merging) only */
  taskOwnedDirectory?: string;
  sharedDirectory?: string;
  emptyPlaceholder?: boolean;
}

/** Unaligned-checkpoint in-flight data; never present in savepoints. */
export type ChannelStateHandle =
  | {
      kind: 'input-channel' | 'result-subpartition';
      subtaskIndex: number;
      /** input: gate index, channel index; output: partition index, subpartition index */
      info: [number, number];
      offsets: number[];
      stateSize: bigint;
      delegate: StreamHandle | null;
    }
  | {
      kind: 'merged-input-channel' | 'merged-result-subpartition';
      subtaskIndex: number;
      stateSize: bigint;
      delegate: StreamHandle | null;
      /** length of the opaque serialized channel offsets */
      serializedOffsetsLength: number;
    };

export interface SubtaskState {
  index: number;
  finished: boolean;
  managedOperatorState: OperatorStateHandle | null;
  rawOperatorState: OperatorStateHandle | null;
  managedKeyedState: KeyedStateHandle | null;
  rawKeyedState: KeyedStateHandle | null;
  inputChannelStateCount: number;
  resultSubpartitionStateCount: number;
  /** (added by flink-metadata) the channel handles themselves; empty for savepoints */
  inputChannelStates?: ChannelStateHandle[];
  resultSubpartitionStates?: ChannelStateHandle[];
  /** V7 only: reference checkpoint id when the marker byte was 1 */
  referenceCheckpointId?: bigint;
}

export interface OperatorState {
  /** 32 lower-case hex chars, as Flink prints it */
  id: string;
  /** V5+ only; undefined before V5 or when empty */
  name?: string;
  uid?: string;
  parallelism: number;
  maxParallelism: number;
  coordinatorState: StreamHandle | null;
  /** true when the subtask count was -1 (fully finished operator) */
  fullyFinished: boolean;
  subtasks: SubtaskState[];
}

export interface MasterState {
  name: string;
  version: number;
  data: Uint8Array;
}

export interface CheckpointProperties {
  /** 'savepoint' | 'checkpoint' from the Java-serialized CheckpointProperties (V4+) */
  type: 'savepoint' | 'checkpoint' | 'unknown';
  /** CANONICAL / NATIVE for savepoints */
  formatType?: 'CANONICAL' | 'NATIVE';
  /** e.g. "Savepoint", "Suspend Savepoint", "Checkpoint", "Full Checkpoint" */
  name?: string;
  trailerSize: number;
  /** (added by flink-metadata) absolute offset of the trailer in `_metadata` */
  trailerOffset?: number;
  /** Java class of checkpointType, e.g. org.apache.flink.runtime.checkpoint.SavepointType */
  snapshotTypeClass?: string;
  /** set when the trailer was read by the scanning fallback or had trailing bytes */
  warning?: string;
}

export interface CheckpointMetadata {
  version: number;
  checkpointId: bigint;
  masterStates: MasterState[];
  operators: OperatorState[];
  properties: CheckpointProperties | null;
  /** size of `_metadata` in bytes */
  size: number;
  /** set when the savepoint is opened: structures `_metadata` holds more than once, and how they are read once (drop-duplicate-structures.ts) */
  warnings?: string[];
}
