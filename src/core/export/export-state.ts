/**
 * Exports one state's entries as JSON Lines, CSV or Parquet: a `decode`-mode scanState walk over
 * the state (the one scan engine; sampling and a row limit apply), each entry turned into rows
 * (list-export-rows.ts) and streamed to the sink; memory is bounded by one Parquet row group (text
 * formats: one chunk). Rows are shaped as each entry is visited; the encoded bytes wait in an outbox
 * that the scan's `drain` hook empties into the sink between reads, awaiting it, so a slow sink pauses
 * the scan (back pressure) instead of letting rows pile up. A state whose values cannot be read here (its serializer unknown) is refused up
 * front with its reason; entries that are not the whole state (a changelog's
 * changes, a sample, a stream that failed) are reported in the result, never passed over in silence.
 */
import type { CancelSignal, InspectedState, OpenedSavepoint, SerializerSnapshot, SnapshotRegistry, StateSample } from '../flink';
import { findOperator, scanState, type ScanPart } from '../flink';
import { DecodeError, wrongInput, type DecodeErrorJson } from '../io';
import { encodeUtf8, getProtobufSnapshotContent, type ProtobufSnapshotContent } from '../protobuf';
import type { ExportFormat, ExportProgress, ExportRow, ExportSink, ParquetListLayout } from './export-types';
import { formatCsvHeader, formatCsvRow, formatJsonLine, listExportColumns, type ExportColumns } from './format-export-rows-text';
import { listExportRows, listFramedExportRows } from './list-export-rows';
import { ParquetExportWriter } from './parquet-export-writer';
import { ArrowExportWriter, type FramedExportRowSource } from './arrow-export-writer';

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

/** JSON Lines and CSV are handed to the sink in chunks of about this many characters. */
export const TEXT_CHUNK_BYTES = 1 << 20;

export interface ExportStateResult {
  rows: number;
  entries: number;
  valueBytes: number;
  /** why the rows are not the whole state (sampled, limited, a changelog's changes, a stream that failed) */
  incomplete: string[];
  errors: DecodeErrorJson[];
}


export async function exportState(opened: OpenedSavepoint, registry: SnapshotRegistry, request: ExportStateRequest, sink: ExportSink): Promise<ExportStateResult> {
  const { state } = request;
  if (state.status !== 'ok') {
    throw new DecodeError({
      code: state.status === 'unknown' ? 'unknown-serializer' : 'unsupported-format',
      detail: `state ${JSON.stringify(state.name)} cannot be exported: its values are not decodable here (${state.statusReason ?? state.status})`,
      path: [`operator ${request.operator}`, `state ${state.name}`],
    });
  }
  const op = findOperator(opened, request.operator);
  if (op === undefined) throw wrongInput('not-found', `expected an operator of the savepoint, found ${JSON.stringify(request.operator)}`);
  const content = findValueProtobufContent(state);
  const listState = state.kind === 'LIST';
  // Arrow of Protobuf values: a `frame`-mode scan, each value read from its wire bytes into the columns (ArrowExportWriter.addEntry)
  const framed = request.format === 'arrow' && content !== undefined;
  const result: ExportStateResult = { rows: 0, entries: 0, valueBytes: 0, incomplete: [], errors: [] };
  if (request.sample !== undefined) result.incomplete.push(request.sample.kind === 'first-entries' ? `a sample: the first ${request.sample.count} entries of each state` : `a sample: every ${request.sample.every}th key group`);
  // encoded bytes not yet taken by the sink: filled synchronously as rows arrive, drained between the scan's reads
  const outbox: Uint8Array[] = [];
  const emit = (chunk: Uint8Array) => void outbox.push(chunk);
  let columns: ExportColumns | undefined;
  let parquet: ParquetExportWriter | ArrowExportWriter | undefined;
  const ensureColumns = (row: ExportRow | undefined): ExportColumns => {
    if (columns !== undefined) return columns;
    columns = row !== undefined ? listExportColumns(row) : { key: state.scope === 'keyed', namespace: state.scope === 'keyed', userKey: state.kind === 'MAP' || state.scope === 'broadcast', elementIndex: listState };
    if (request.format === 'arrow') parquet = new ArrowExportWriter(emit, columns, content?.schema.root, request.rowGroupRows, content?.settings.recursionLimit);
    if (request.format === 'parquet') {
      parquet = new ParquetExportWriter(emit, columns, {
        layout: request.layout ?? 'legacy',
        ...(content === undefined ? {} : { message: content.schema.root, javaClass: content.javaClass }),
        ...(request.rowGroupRows === undefined ? {} : { rowGroupRows: request.rowGroupRows }),
      });
    }
    return columns;
  };
  const chunkBytes = request.textChunkBytes ?? TEXT_CHUNK_BYTES;
  let pending: string[] = [];
  let pendingBytes = 0;
  const flushText = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    pendingBytes = 0;
    emit(encodeUtf8(text));
  };
  let lastProgress = 0;
  /** one row: shaped (Parquet, Arrow) or formatted (text) at once, so no entry or decoded message outlives its visit */
  const writeRow = (row: ExportRow) => {
    const cols = ensureColumns(row);
    result.rows++;
    result.valueBytes += row.valueSize;
    if (parquet !== undefined) {
      parquet.add(row);
    } else {
      if (result.rows === 1 && request.format === 'csv') pending.push(formatCsvHeader(cols));
      const line = request.format === 'csv' ? formatCsvRow(row, cols) : formatJsonLine(row, cols);
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes >= chunkBytes) flushText();
    }
    if (result.rows - lastProgress >= 1000) {
      lastProgress = result.rows;
      request.progress?.({ rows: result.rows, valueBytes: result.valueBytes });
    }
  };
  /** one entry's rows into the Arrow writer, all or none (a payload that does not decode fails the stream before any of them, as in a `decode` scan) */
  const writeFramedEntry = (sources: FramedExportRowSource[]) => {
    if (sources.length === 0) return;
    ensureColumns(sources[0]!.row as ExportRow);
    result.valueBytes += (parquet as ArrowExportWriter).addEntry(sources);
    result.rows += sources.length;
    if (result.rows - lastProgress >= 1000) {
      lastProgress = result.rows;
      request.progress?.({ rows: result.rows, valueBytes: result.valueBytes });
    }
  };
  /** hands the queued bytes to the sink one chunk at a time, awaiting each (back pressure) */
  const drainOutbox = async () => {
    while (outbox.length > 0) await sink(outbox.shift()!);
  };
  const part = (p: ScanPart) => {
    if (p.incomplete !== undefined && !result.incomplete.includes(p.incomplete)) result.incomplete.push(p.incomplete);
  };
  await scanState(
    opened,
    registry,
    { operatorId: op.id, states: state.name, ...(request.sample === undefined ? {} : { sample: request.sample }), ...(request.limit === undefined ? {} : { limit: request.limit }), scopes: [state.scope === 'keyed' ? 'keyed' : 'operator'] },
    {
      part,
      entry: (e) => {
        result.entries++;
        if (framed) writeFramedEntry(listFramedExportRows(e, listState, content.schema.root));
        else for (const row of listExportRows(e, listState)) writeRow(row);
      },
      // between reads: the scan waits while the sink takes what this read's rows made (at most a row group's bytes, or a text chunk, per read)
      drain: () => (outbox.length > 0 ? drainOutbox() : undefined),
      streamError: (error: DecodeError) => {
        result.errors.push(error.toJSON());
        result.incomplete.push(`a stream failed: ${error.message}`);
      },
      unreadable: (_p, reason) => {
        result.incomplete.push(`not readable here: ${reason}`);
      },
    },
    { values: { mode: framed ? 'frame' : 'decode' }, ...(request.signal === undefined ? {} : { signal: request.signal }) },
  );
  if (request.limit !== undefined && result.entries >= request.limit) result.incomplete.push(`limited to the first ${request.limit} entries`);
  ensureColumns(undefined);
  if (parquet !== undefined) parquet.finish();
  else flushText();
  await drainOutbox();
  request.progress?.({ rows: result.rows, valueBytes: result.valueBytes, done: true });
  return result;
}

/**
 * The Protobuf snapshot of the state's row values: the value serializer itself, a list state's
 * element serializer, a map state's value serializer, or the one Protobuf serializer inside a wrapper
 * (TTL); undefined when there is none or more than one (the value is then exported as JSON text).
 */
function findValueProtobufContent(state: InspectedState): ProtobufSnapshotContent | undefined {
  const s = state.valueSerializer;
  if (s === undefined) return undefined;
  // a map (MapState, broadcast state as a map) holds its key serializer first: not the rows' values
  const start = getProtobufSnapshotContent(s) === undefined && (state.kind === 'MAP' || state.scope === 'broadcast') ? s.nested.slice(1) : [s];
  const found: ProtobufSnapshotContent[] = [];
  const walk = (x: SerializerSnapshot) => {
    const c = getProtobufSnapshotContent(x);
    if (c !== undefined) found.push(c);
    else x.nested.forEach(walk);
  };
  start.forEach(walk);
  return found.length === 1 ? found[0] : undefined;
}
