/**
 * Connector state as views (issue #36): what a Kafka source will resume from, what the enumerator had
 * assigned, what a legacy FlinkKafkaConsumer saved, which transactional ids a Kafka sink uses. Built by
 * readSourcesAndSinks from the operator states and coordinator states of a savepoint; every state the
 * views read is either shown or named in `problems` (never dropped).
 * 64-bit offsets are exact decimal strings.
 */
import type { DecodeErrorJson } from '../../io';

export interface KafkaTopicPartitionRef {
  topic: string;
  partition: number;
}

/** One KafkaPartitionSplit of a source reader (operator list state `SourceReaderState`). */
export interface KafkaSplitView extends KafkaTopicPartitionRef {
  subtask: number;
  /** the offset the restored reader starts from (the next record to read), or a marker (see startingOffsetMarker) */
  startingOffset: string;
  /** `earliest` (-2), `latest` (-1), `committed` (-3) when startingOffset is such a marker */
  startingOffsetMarker?: 'earliest' | 'latest' | 'committed';
  /** where a bounded split stops (exclusive), or null when unbounded (Long.MIN_VALUE) */
  stoppingOffset: string | null;
  stoppingOffsetMarker?: 'latest' | 'committed';
}

/** The Kafka source enumerator's checkpoint (KafkaSourceEnumStateSerializer) inside the operator's coordinator state. */
export interface KafkaEnumeratorView {
  /** the SourceCoordinator's own serde version (0: Flink 1.11–1.13, with the split assignment after; 1: since) */
  coordinatorSerdeVersion: number;
  /** KafkaSourceEnumStateSerializer version (1: assigned partitions; 2: with assignment status and initial discovery; 3 (connector 5.0): whole splits) */
  enumStateVersion: number;
  assignedPartitions: KafkaTopicPartitionRef[];
  /** discovered before the first assignment, not yet assigned (version 2) */
  unassignedInitialPartitions: KafkaTopicPartitionRef[];
  /** versions 2 and 3; null for version 1 (the connector then assumes true) */
  initialDiscoveryFinished: boolean | null;
  /** version 3 only: every split the enumerator keeps, by topic and partition (absent for versions 1 and 2, which store no offsets) */
  splits?: KafkaEnumeratorSplitView[];
}

/**
 * One split of the enumerator state v3 (connector 5.0): the split as the enumerator assigned it (the offsets the
 * job's OffsetsInitializers resolved, not a reader's progress: that is in the SourceReaderState splits) and its
 * assignment status.
 */
export interface KafkaEnumeratorSplitView extends Omit<KafkaSplitView, 'subtask'> {
  /** status code 0 (`assigned`) or 1 (`unassigned-initial`: discovered before the first assignment, not yet assigned) */
  status: 'assigned' | 'unassigned-initial';
}

/**
 * Why a connector state (or one element of it) is not shown:
 * - `corrupt`: recognised as the connector's layout (its envelope, or the operator's other state), but these bytes break it;
 * - `not-recognised`: not a layout this reader knows (another connector's source or sink);
 * - `unsupported-version`: the connector's layout, in a version this reader does not decode;
 * - `not-decoded`: a state known by name whose layout this reader does not decode (the sink committer's).
 */
export interface ConnectorProblem {
  kind: 'corrupt' | 'not-recognised' | 'unsupported-version' | 'not-decoded';
  /** `SourceReaderState`, `coordinator state`, … */
  state: string;
  subtask: number | null;
  /** the element's index in its subtask's list, when one element */
  element: number | null;
  message: string;
  error: DecodeErrorJson | null;
}

interface ConnectorOperatorRef {
  operatorId: string;
  uid: string | null;
  name: string | null;
  parallelism: number;
}

/** An operator of the FLIP-27 Source API (it has `SourceReaderState`, or a source coordinator's state). */
export interface SourceOperatorView extends ConnectorOperatorRef {
  /** `kafka` when its splits or enumerator are Kafka's layouts, else `not-recognised` */
  connector: 'kafka' | 'not-recognised';
  /** by subtask, then topic and partition */
  splits: KafkaSplitView[];
  /** how many split elements the reader state holds (decoded or not) */
  splitElements: number;
  enumerator: KafkaEnumeratorView | null;
  problems: ConnectorProblem[];
}

/** A legacy FlinkKafkaConsumer (union list state `topic-partition-offset-states`). */
export interface LegacyKafkaConsumerView extends ConnectorOperatorRef {
  /** the union state: every subtask's partitions (a restored job gives every subtask all of them) */
  offsets: (KafkaTopicPartitionRef & {
    subtask: number;
    /** the offset of the last record emitted (the consumer resumes after it), or a marker */
    offset: string;
    offsetMarker?: 'not-set' | 'earliest' | 'latest' | 'group-offsets';
  })[];
  problems: ConnectorProblem[];
}

/** A Sink V2 operator: a KafkaSink's writer (operator list state `writer_raw_states`, KafkaWriterStateSerializer), or its committer. */
export interface KafkaSinkView extends ConnectorOperatorRef {
  /** `kafka` when its writer states are KafkaWriterStates; `committer` for a committer operator (no writer state; its committables then in `pendingTransactions`); else `not-recognised` */
  connector: 'kafka' | 'committer' | 'not-recognised';
  writers: {
    subtask: number;
    stateVersion: number;
    transactionalIdPrefix: string;
    /** version 2 (connector 4.x/5.x): the subtask whose transactional ids this state owns, and of how many */
    ownedSubtaskId?: number;
    totalNumberOfOwnedSubtasks?: number;
    /** version 2: how ownership of transactional ids is told (the INCREMENTING naming strategy: by subtask id; POOLING: by writer state) */
    transactionOwnership?: 'implicit-by-subtask-id' | 'explicit-by-writer-state';
    /** version 2: the precommitted transactions the writer still owns (the POOLING naming strategy's), with their checkpoint */
    ongoingTransactions: { transactionalId: string; checkpointId: string }[];
  }[];
  /**
   * The committer's pending committables (state `streaming_committer_raw_states`, Flink's CommittableCollector of
   * KafkaCommittables): the transactions prepared at the checkpoint that a restore commits; by subtask, then checkpoint.
   */
  pendingTransactions: KafkaPendingTransaction[];
  problems: ConnectorProblem[];
}

/** One KafkaCommittable the committer holds: a transaction prepared for a checkpoint, not yet committed when the savepoint was taken. */
export interface KafkaPendingTransaction {
  /** the committer subtask whose state holds it */
  subtask: number;
  /** the subtask id the committer recorded with it (Flink 1.19+), else null */
  recordedSubtaskId: number | null;
  checkpointId: string;
  transactionalId: string;
  /** Kafka's producer id (int64, exact decimal) and epoch of the transaction */
  producerId: string;
  epoch: number;
  /** the commit request's state: `received` (not yet committed), `retry`, `failed`, or `committed` */
  state: 'received' | 'retry' | 'failed' | 'committed';
  retries: number;
}

export interface SourcesAndSinks {
  sources: SourceOperatorView[];
  legacyKafkaConsumers: LegacyKafkaConsumerView[];
  sinks: KafkaSinkView[];
  /** FileSource operators (FileSourceView, below); present only when the savepoint has one */
  fileSources?: FileSourceView[];
  /** FileSink writer and committer operators; present only when the savepoint has one */
  fileSinks?: FileSinkView[];
}

// ---- File connector (FileSource, FileSink) views: issue #36; where each reader resumes in its file, the enumerator's
// pending splits and processed paths, each writer bucket's in-progress part file, the part files a restore commits.
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
