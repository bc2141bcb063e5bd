import type { SampleCoverage, StateSample } from '../../core/flink';
import type { DecodeErrorJson } from '../../core/io';
import type { StateStats } from '../../core/report';

/** One subtask of one operator: the unit of work a scan worker takes. */
export interface ScanUnit {
  operatorId: string;
  subtask: number;
  /** bytes of its state handles (for balancing workers) */
  bytes: number;
}

/** Whole-state statistics of one state (over the units scanned): the core's one statistics type. */
export type { StateStats };

export interface ScanOptions {
  sample?: StateSample;
  /** the new application's limits, for VALUE_EXCEEDS_NEW_LIMIT */
  newLimits?: { maxMessageSize: number; recursionLimit: number };
  /** the job's descriptor set (`--descriptors`): Protobuf held by Kryo is scanned like native Protobuf state */
  kryoSchema?: { name: string; bytes: Uint8Array };
}

export interface SavepointStats {
  states: StateStats[];
  errors: DecodeErrorJson[];
  /** present for a sampled scan */
  coverage?: SampleCoverage;
  /** bytes read from state files (headers + values), a read-ahead included (a stream that fails or is cancelled may have read its next window) */
  bytesRead: number;
}
