import type { SampleCoverage, StateSample, StateScope } from '../../core/flink';
import type { DecodeErrorJson } from '../../core/io';
import type { ProtobufStateScanSummary } from '../../core/protobuf';

/** One subtask of one operator: the unit of work a scan worker takes. */
export interface ScanUnit {
  operatorId: string;
  subtask: number;
  /** bytes of its state handles (for balancing workers) */
  bytes: number;
}

/** Whole-state statistics of one state (over the units scanned). */
export interface StateStats {
  operatorId: string;
  state: string;
  scope: StateScope;
  entries: number;
  /** bytes of the serialized values (frames included) */
  valueBytes: number;
  /** why the state's values were not read (RocksDB native SST files): its counts are then 0, not a count */
  notRead?: string;
  /** structural scan of the Protobuf values (states whose value serializer is the Protobuf one) */
  protobuf?: ProtobufStateScanSummary;
}

export interface ScanOptions {
  sample?: StateSample;
  /** the new application's limits, for VALUE_EXCEEDS_NEW_LIMIT */
  newLimits?: { maxMessageSize: number; recursionLimit: number };
}

export interface SavepointStats {
  states: StateStats[];
  errors: DecodeErrorJson[];
  /** present for a sampled scan */
  coverage?: SampleCoverage;
  /** bytes read from state files (headers + values), a read-ahead included (a stream that fails or is cancelled may have read its next window) */
  bytesRead: number;
}
