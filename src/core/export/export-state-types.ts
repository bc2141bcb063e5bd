/**
 * What exportState and exportStates (export-state.ts) take and give back, and the markers they write into
 * an export that is not the whole state.
 */
import type { CancelSignal, InspectedState, StateSample, SubtaskHeaderCache } from '../flink';
import type { DecodeErrorJson } from '../io';
import type { ExportFormat, ExportProgress, ParquetListLayout } from './export-types';

export interface ExportStateRequest {
  /** the state as inspectSavepoint describes it (scope, kind, serializers, status) */
  state: InspectedState;
  operator: string;
  format: ExportFormat;
  layout?: ParquetListLayout;
  sample?: StateSample;
  limit?: number;
  signal?: CancelSignal;
  /** called every 1,000 rows and once at the end (`done`) */
  progress?: (p: ExportProgress) => void;
  /** Parquet row group / Arrow batch size (default 10,000 rows) */
  rowGroupRows?: number;
  /** JSON Lines / CSV: bytes of text per chunk handed to the sink (default TEXT_CHUNK_BYTES) */
  textChunkBytes?: number;
}

/** The Parquet key-value metadata key of a failed export's reasons (JSON: `{rows, reasons}`). */
export const INCOMPLETE_METADATA_KEY = 'savepoint-inspector.incomplete';

/** The Parquet key-value metadata key of the unknown fields left out (JSON: `{perValue, rows, omitted}`). */
export const UNKNOWN_FIELDS_CAPPED_METADATA_KEY = 'savepoint-inspector.unknown-fields-capped';

/** JSON Lines and CSV are handed to the sink in chunks of about this many characters. */
export const TEXT_CHUNK_BYTES = 1 << 20;

export interface ExportStateResult {
  rows: number;
  entries: number;
  valueBytes: number;
  /** why the rows are not the whole state (sampled, limited, a changelog's changes, a stream that failed) */
  incomplete: string[];
  errors: DecodeErrorJson[];
  /** keys, namespaces, user keys and values whose known serializer could not decode their bytes (exported as those bytes, `decodeFailed`) */
  undecodable: number;
  /**
   * why the rows fall short of the state (a stream failed, a part not readable here, values not
   * decoded): the export failed and its file is partial. Empty for a complete export (a sample or a
   * limit asked for is `incomplete`, not a failure). Written into the file when not empty: Parquet's
   * key-value metadata `savepoint-inspector.incomplete`, JSON Lines' last line `{"exportIncomplete": …}`.
   */
  failures: string[];
  /**
   * rows whose value had more unknown fields than an export writes (EXPORT_UNKNOWN_FIELDS_PER_VALUE), and how many
   * were left out in all; written into the file when not zero (JSON Lines `unknownFieldsOmitted` and CSV's last
   * `{omitted}` per row, Parquet's key-value metadata `savepoint-inspector.unknown-fields-capped`)
   */
  unknownFieldsCapped: { rows: number; omitted: number };
}

/** Several states of one operator, each into its own sink, in one read of the savepoint. */
export interface ExportStatesRequest {
  operator: string;
  /** the states (as inspectSavepoint describes them), each exported to `sink(i, …)` with i its index here */
  states: readonly InspectedState[];
  format: ExportFormat;
  layout?: ParquetListLayout;
  sample?: StateSample;
  limit?: number;
  /** a key-group shard (StateScanSelection.keyGroupRange): only these key groups of keyed state, operator state as `operatorState` says */
  keyGroupRange?: { start: number; end: number };
  operatorState?: boolean;
  signal?: CancelSignal;
  /** stream headers already read with `registry` (a SavepointSession's `headers`): not read again */
  headers?: SubtaskHeaderCache;
  /** per state (its index): every 1,000 rows and once at its end (`done`) */
  progress?: (index: number, p: ExportProgress) => void;
  rowGroupRows?: number;
  textChunkBytes?: number;
}

/** The bytes of state `index`, in order; a returned promise is awaited before the scan reads on (back pressure). */
export type IndexedExportSink = (index: number, chunk: Uint8Array) => void | Promise<void>;
