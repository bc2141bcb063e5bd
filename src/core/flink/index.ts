/** The facade of src/core/flink: what other folders use, and nothing else (everything else stays inside the folder). */
export { type CancelSignal } from './cancel-signal';
export { computeKeyGroup, computeKeyGroupRangeForSubtask } from './keyed/compute-key-group';
export { KeyedEntryRun } from './keyed/keyed-entry-run';
export { type SampleCoverage, type StateSample, checkStateSample } from './keyed/sample-keyed-stream';
export { computeOperatorId } from './metadata/compute-operator-id';
export { type CheckpointMetadata, type KeyedStateHandle, type OperatorState, type StreamHandle, type SubtaskState } from './metadata/metadata-types';
export { readCheckpointMetadata } from './metadata/read-checkpoint-metadata';
export { writeCheckpointMetadata } from './metadata/write-checkpoint-metadata';
export { isCountedBroadcastCopy } from './operator/select-broadcast-copy';
export { initSnappyWasm, setSnappyWasmLoader } from './rocksdb/decompress-snappy';
export { SstMerge } from './rocksdb/merge-sst-entries';
export { openRocksDbSnapshot } from './rocksdb/open-rocksdb-snapshot';
export { END as SST_END, NEED_BLOCK as SST_NEED_BLOCK } from './rocksdb/sst-table-cursor';
export { openSstTable, TYPE_VALUE } from './rocksdb/open-sst-table';
export { type WrittenEntry, writeSstTable } from './rocksdb/write-rocksdb-files';
export { inspectSavepoint } from './inspection/inspect-savepoint';
export {
  type InspectedOperator,
  type InspectedState,
  type InspectionSummary,
  type SavepointInspection,
  type StateEntry,
  type StateScope,
} from './savepoint/inspection-types';
export { openHttpSavepointFolder } from './savepoint/open-http-savepoint-folder';
export { type OpenedSavepoint, openSavepoint, readSavepointMetadata } from './savepoint/open-savepoint';
export { type SavepointSession, createSavepointSession, openSavepointSession } from './inspection/savepoint-session';
export { type ScanPart, type StateScanVisitor, type SubtaskHeaderCache, createSubtaskHeaderCache, findOperator, scanState } from './scan/scan-state';
export { StateTallies } from './scan/state-tallies';
export { findNestedValues } from './snapshots/find-nested-values';
export { type KryoSnapshotDetails, getKryoSnapshotDetails, KRYO_SNAPSHOT_CLASS, kryoSnapshotReader } from './snapshots/kryo-snapshot';
export { createSnapshotRegistry } from './snapshots/snapshot-registry';
export {
  type DecodedValue,
  getInferredSnapshotNote,
  type InferredSnapshot,
  type InferredSnapshotNote,
  SKIPPED_VALUE,
  type SerializerSnapshot,
  type SnapshotInferrer,
  type SnapshotReader,
  type SnapshotRegistry,
  type ValueCodec,
  type ValueFrame,
  type ValueMode,
} from './snapshots/snapshot-types';
export { encodeBase64 } from './values/encode-base64';
export { type ConnectorProblem, type KafkaEnumeratorSplitView, type KafkaSplitView, type SourcesAndSinks } from './savepoint/connector-types';
export type { FileSourceSplitView, FileRecoverableView } from './savepoint/connector-types';
export { hasSourcesAndSinks, readSourcesAndSinks } from './connectors/read-sources-and-sinks';
