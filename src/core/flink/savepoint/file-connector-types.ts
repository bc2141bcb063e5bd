/**
 * File connector state as views (issue #36): where each FileSource reader resumes in its file, which splits the
 * enumerator has not assigned yet and which paths it has seen; which bucket each FileSink writer has open (its
 * in-progress part file) and which part files the committer will commit on restore. Built by readSourcesAndSinks
 * beside the Kafka views; every state the views read is either shown or named in `problems` (never dropped).
 * 64-bit numbers are exact decimal strings.
 */
import type { ConnectorProblem } from './connector-types';

/** One FileSourceSplit (FileSourceSplitSerializer v1): a reader's split, or a pending split of the enumerator. */
export interface FileSourceSplitView {
  /** the reader subtask whose state holds it; -1 for the enumerator's pending splits */
  subtask: number;
  splitId: string;
  /** the file, as Flink's Path prints it (`file:/…`, `s3://bucket/…`) */
  path: string;
  /** the split's byte range in the file */
  offset: string;
  length: string;
  fileModificationTime: string;
  fileSize: string;
  hostnames: string[];
  /**
   * where the restored reader resumes: the checkpointed offset (-1: none, the format has no offsets of its own, e.g.
   * TextLineInputFormat) and the number of records after it to skip; null when the split was not started
   */
  position: { offset: string; recordsAfterOffset: string } | null;
}

/** The FileSource enumerator's checkpoint (PendingSplitsCheckpointSerializer) inside the operator's coordinator state. */
export interface FileEnumeratorView {
  coordinatorSerdeVersion: number;
  /** PendingSplitsCheckpointSerializer version, and the split serializer version it names */
  enumStateVersion: number;
  splitSerializerVersion: number;
  /** splits discovered and not yet assigned to a reader */
  pendingSplits: FileSourceSplitView[];
  /** every path the continuous enumerator has seen (it will not read them again); empty for a bounded source */
  alreadyProcessedPaths: string[];
}

export interface FileSourceView {
  operatorId: string;
  uid: string | null;
  name: string | null;
  parallelism: number;
  connector: 'file';
  /** by subtask, then path */
  splits: FileSourceSplitView[];
  splitElements: number;
  enumerator: FileEnumeratorView | null;
  problems: ConnectorProblem[];
}

/** A part-file recoverable: the part's path (and size, for a pending file) and the file system's recoverable. */
export interface FileRecoverableView {
  path: string | null;
  /** pending files only: the part's size in bytes */
  size: string | null;
  recoverable:
    | { kind: 'local'; offset: string; targetFile: string; tempFile: string }
    /** another file system's recoverable (S3, HDFS, …): not decoded, named with its serializer version and size */
    | { kind: 'other-file-system'; serializerVersion: number; bytes: number };
}

/** A FileSink operator: its writer's buckets (`writer_raw_states`) or, for its committer, the pending committables. */
export interface FileSinkView {
  operatorId: string;
  uid: string | null;
  name: string | null;
  parallelism: number;
  /** `file-writer`: the writer operator (buckets); `file-committer`: the committer operator (committables) */
  connector: 'file-writer' | 'file-committer';
  buckets: {
    subtask: number;
    stateVersion: number;
    bucketId: string;
    bucketPath: string;
    inProgressFileCreationTime: string;
    /** the open part file a restore resumes (truncating it to the recoverable's offset), or null */
    inProgressFile: FileRecoverableView | null;
  }[];
  /** the committer's FileSinkCommittables: part files a restore commits (or cleans up), by subtask, checkpoint, bucket */
  committables: {
    subtask: number;
    recordedSubtaskId: number | null;
    checkpointId: string;
    bucketId: string;
    pendingFile: FileRecoverableView | null;
    inProgressFileToCleanup: FileRecoverableView | null;
    compactedFileToCleanup: string | null;
    state: 'received' | 'retry' | 'failed' | 'committed';
    retries: number;
  }[];
  problems: ConnectorProblem[];
}
