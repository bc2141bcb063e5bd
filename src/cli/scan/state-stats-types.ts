import type { SampleCoverage, StateSample } from '../../core/flink';
import type { DecodeErrorJson } from '../../core/io';
import type { StateStats, TtlExpiry } from '../../core/report';

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
  /** a key-group shard (`--key-groups A-B`): only these key groups of keyed state, operator state as `operatorState` says (scanState) */
  keyGroupRange?: { start: number; end: number };
  operatorState?: boolean;
  /** `--ttl` with a time: the TTL values expired at `atMs` counted (last access + `ttlMs` ≤ `atMs`) */
  ttlExpiry?: TtlExpiry;
  /** a shard's scan: each unit's place in the whole scan's order (`operatorId \0 subtask` → index), for each state's and error's `at` (ScanPosition) */
  positions?: ReadonlyMap<string, number>;
}

/**
 * Where the whole scan first meets a state (or an error): the unit's index in the scan order, the part
 * of the unit (0: operator state, 1, 2, …: its keyed parts in order), the state's index in the part's
 * names. A merge of key-group shards orders the states and errors by it, as one scan over every unit meets them.
 */
export type ScanPosition = [unit: number, part: number, index: number];

export interface SavepointStats {
  states: (StateStats & { at?: ScanPosition })[];
  errors: DecodeErrorJson[];
  /** a shard's scan: the place of each error (same order as `errors`) */
  errorsAt?: ScanPosition[];
  /** present for a sampled scan */
  coverage?: SampleCoverage;
  /** bytes read from state files (headers + values), a read-ahead included (a stream that fails or is cancelled may have read its next window) */
  bytesRead: number;
}
