/** The facade of src/core/flink: what other folders use, and nothing else (everything else stays inside the folder). */
export { type CancelSignal } from './cancel-signal';
export { computeKeyGroup, computeKeyGroupRangeForSubtask } from './keyed/compute-key-group';
export { KeyedEntryRun } from './keyed/keyed-entry-run';
export { type SampleCoverage, type StateSample, checkStateSample } from './keyed/sample-keyed-stream';
export { computeOperatorId } from './metadata/compute-operator-id';
export { type CheckpointMetadata, type OperatorState, type StreamHandle, type SubtaskState } from './metadata/metadata-types';
export { readCheckpointMetadata } from './metadata/read-checkpoint-metadata';
export { writeCheckpointMetadata } from './metadata/write-checkpoint-metadata';
export { isCountedBroadcastCopy } from './operator/select-broadcast-copy';
export { inspectSavepoint } from './savepoint/inspect-savepoint';
export { type InspectedOperator, type InspectedState, type InspectionSummary, type SavepointInspection, type StateEntry, type StateScope } from './savepoint/inspection-types';
export { openHttpSavepointFolder } from './savepoint/open-http-savepoint-folder';
export { type OpenedSavepoint, openSavepoint } from './savepoint/open-savepoint';
export { type ScanPart, type SubtaskHeaderCache, createSubtaskHeaderCache, findOperator, scanState } from './scan/scan-state';
export { findNestedValues } from './snapshots/find-nested-values';
export { createSnapshotRegistry } from './snapshots/snapshot-registry';
export { type DecodedValue, SKIPPED_VALUE, type SerializerSnapshot, type SnapshotReader, type SnapshotRegistry, type ValueCodec, type ValueFrame, type ValueMode } from './snapshots/snapshot-types';
export { encodeBase64 } from './values/encode-base64';
