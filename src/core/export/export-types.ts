/**
 * The row model of an export: one row per state entry (per element for list state), with the
 * entry's place (subtask, key group), its key, namespace and user key, the value, its size and the
 * unknown fields of its Protobuf message. JSON Lines, CSV and Parquet are renderings of it.
 */
import type { DecodedValue, ValueFrame } from '../flink';
import type { PbMessage } from '../protobuf';

/** `arrow`: an Arrow IPC stream per row group (the app's Query view; see arrow-export-writer.ts) */
export type ExportFormat = 'jsonl' | 'csv' | 'parquet' | 'arrow';

/** How repeated and map fields are laid out in Parquet (parquet-protobuf's `parquet.proto.writeSpecsCompliant`). */
export type ParquetListLayout = 'legacy' | 'spec';

export interface ExportUnknownField {
  /** dotted path of the containing message, '' for the root */
  path: string;
  number: number;
  /** 0 varint, 1 fixed64, 2 length-delimited, 3 group, 5 fixed32 */
  wireType: number;
  /** the field's bytes, tag included */
  bytes: Uint8Array;
}

export interface ExportRow {
  subtask: number;
  keyGroup: number;
  key?: DecodedValue;
  namespace?: DecodedValue;
  /** MapState and broadcast state */
  userKey?: DecodedValue;
  /** keyed list state: the element's index in its list */
  elementIndex?: number;
  /** null: a null MapState value */
  value: DecodedValue | null;
  /** the decoded Protobuf message of the value, when it is one */
  message?: PbMessage;
  /** serialized bytes of the value (a Protobuf value: its payload, without the 4-byte frame length) */
  valueSize: number;
  /** the first EXPORT_UNKNOWN_FIELDS_PER_VALUE unknown fields (all of them for any usual value) */
  unknownFields: ExportUnknownField[];
  /** the value's unknown fields past EXPORT_UNKNOWN_FIELDS_PER_VALUE, not written (absent when none were left out) */
  unknownFieldsOmitted?: number;
}

/** A row whose Protobuf value is still its frame: the writer decodes it into the value columns. */
export type FramedExportRow = Omit<ExportRow, 'message' | 'unknownFields' | 'valueSize' | 'value'>;

/** A row of a `frame`-mode scan: its one Protobuf frame (of the writer's message), if it has one, and the row decoded as listExportRows gives it. */
export interface FramedExportRowSource {
  row: FramedExportRow;
  frame: ValueFrame | undefined;
  /** the row's value is that frame itself (not one inside a TTL wrapper or another value): its JSON is the message's */
  whole: boolean;
  decode: () => ExportRow;
}

/**
 * Where an export's bytes go, in order; a returned promise is awaited before more is written, and the
 * scan reads no further meanwhile (back pressure: a slow sink keeps memory at one row group).
 */
export type ExportSink = (chunk: Uint8Array) => void | Promise<void>;

/** How a writer hands over encoded bytes (synchronously; exportState queues them for the sink). */
export type ExportEmit = (chunk: Uint8Array) => void;

export interface ExportProgress {
  rows: number;
  /** bytes of state values read so far */
  valueBytes: number;
  /** set on the last call, when the export is complete */
  done?: boolean;
}

/**
 * Unknown fields written per value (its message and nested ones, in the decoded message's walk); past it, a
 * row says how many it left out (JSON Lines `unknownFieldsOmitted`, CSV/Parquet/Arrow: see docs/export.md),
 * as `dump` caps its view: a value of a million unknown fields would otherwise be a million cells.
 */
export const EXPORT_UNKNOWN_FIELDS_PER_VALUE = 1000;
