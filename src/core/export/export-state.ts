/**
 * Exports states' entries as JSON Lines, CSV, Parquet or Arrow: a scanState walk over the states
 * (the one scan engine; sampling and a row limit apply; several states of an operator in one walk,
 * exportStates), each entry turned into rows
 * (list-export-rows.ts) and streamed to the sink; memory is bounded by one Parquet row group (text
 * formats: one chunk). Rows are shaped as each entry is visited; the encoded bytes wait in an outbox
 * that the scan's `drain` hook empties into the sink between reads, awaiting it, so a slow sink pauses
 * the scan (back pressure) instead of letting rows pile up. A state whose values cannot be read here (its serializer unknown) is refused up
 * front with its reason; entries that are not the whole state (a changelog's
 * changes, a sample, a stream that failed) are reported in the result, never passed over in silence.
 */
import type { InspectedState, OpenedSavepoint, SnapshotRegistry } from '../flink';
import { findOperator, scanState, type ScanPart, type StateEntry } from '../flink';
import { DecodeError, wrongInput } from '../io';
import { encodeUtf8, type ProtobufSnapshotContent } from '../protobuf';
import { EXPORT_UNKNOWN_FIELDS_PER_VALUE, type ExportRow, type ExportSink, type ExportUnknownField } from './export-types';
import { formatCsvHeader, formatCsvRowPieces, formatJsonLinePieces, listExportColumns, type ExportColumns } from './format-export-rows-text';
import { listExportRows, listFramedExportRows } from './list-export-rows';
import { ParquetExportWriter } from './parquet-export-writer';
import { ArrowExportWriter, type FramedExportRowSource } from './arrow-export-writer';
import { countUndecodable, findValueProtobufContent } from './describe-export-state-values';
import { ProtobufWireJsonWriter } from './write-protobuf-wire-json';
import {
  INCOMPLETE_METADATA_KEY,
  TEXT_CHUNK_BYTES,
  UNKNOWN_FIELDS_CAPPED_METADATA_KEY,
  type ExportStateRequest,
  type ExportStateResult,
  type ExportStatesRequest,
  type IndexedExportSink,
} from './export-state-types';

export async function exportState(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  request: ExportStateRequest,
  sink: ExportSink,
): Promise<ExportStateResult> {
  const { state, progress, ...rest } = request;
  const [result] = await exportStates(
    opened,
    registry,
    { ...rest, states: [state], ...(progress === undefined ? {} : { progress: (_i, p) => progress(p) }) },
    (_i, chunk) => sink(chunk),
  );
  return result!;
}

/**
 * The states' entries as rows, each state into its own sink: one scan for them all (two where some
 * are read from their frames and some decoded: Arrow of Protobuf values, and everything else), so
 * loading every state of an operator reads its state files once, not once per state.
 */
export async function exportStates(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  request: ExportStatesRequest,
  sink: IndexedExportSink,
): Promise<ExportStateResult[]> {
  for (const state of request.states) {
    if (state.status !== 'ok') {
      throw new DecodeError({
        code: state.status === 'unknown' ? 'unknown-serializer' : 'unsupported-format',
        detail: `state ${JSON.stringify(state.name)} cannot be exported: its values are not decodable here (${state.statusReason ?? state.status})`,
        path: [`operator ${request.operator}`, `state ${state.name}`],
      });
    }
  }
  const op = findOperator(opened, request.operator);
  if (op === undefined) throw wrongInput('not-found', `expected an operator of the savepoint, found ${JSON.stringify(request.operator)}`);
  const jobs = request.states.map((state, i) => new StateExportJob(i, state, request));
  for (const framed of [true, false]) {
    const group = jobs.filter((j) => j.framed === framed);
    if (group.length > 0) await scanJobs(opened, registry, op.id, group, framed, request, sink);
  }
  const results: ExportStateResult[] = [];
  for (const job of jobs) {
    job.finish();
    await job.drain(sink);
    request.progress?.(job.index, { rows: job.result.rows, valueBytes: job.result.valueBytes, done: true });
    results.push(job.result);
  }
  return results;
}

/** One scan over the jobs' states: each entry to the job of its state, the sinks drained between reads. */
async function scanJobs(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  operatorId: string,
  jobs: readonly StateExportJob[],
  framed: boolean,
  request: ExportStatesRequest,
  sink: IndexedExportSink,
): Promise<void> {
  const byKey = new Map<string, StateExportJob[]>();
  for (const job of jobs) byKey.set(job.key, [...(byKey.get(job.key) ?? []), job]);
  const kindOf = (kind: 'operator' | 'keyed') => (kind === 'keyed' ? 'keyed' : 'operator');
  /** the jobs of a part's kind whose state the part names (all of that kind when it names none) */
  const jobsOf = (kind: 'operator' | 'keyed', names: readonly string[]) => {
    const ofKind = jobs.filter((j) => j.kind === kindOf(kind));
    const named = ofKind.filter((j) => names.includes(j.state.name));
    return names.length === 0 ? ofKind : named;
  };
  const drainAll = async () => {
    for (const job of jobs) await job.drain(sink);
  };
  await scanState(
    opened,
    registry,
    {
      operatorId,
      states: [...new Set(jobs.map((j) => j.state.name))],
      ...(request.sample === undefined ? {} : { sample: request.sample }),
      ...(request.limit === undefined ? {} : { limit: request.limit }),
      ...(request.keyGroupRange === undefined ? {} : { keyGroupRange: request.keyGroupRange }),
      ...(request.operatorState === undefined ? {} : { operatorState: request.operatorState }),
      scopes: [...new Set(jobs.map((j) => j.kind))],
    },
    {
      part: (p) => {
        for (const job of jobsOf(p.kind, [...p.states, ...p.broadcastStates])) job.part(p);
      },
      entry: (e, p) => {
        for (const job of byKey.get(`${kindOf(p.kind)}:${e.state}`) ?? []) job.entry(e);
      },
      // between reads: the scan waits while the sinks take what this read's rows made (at most a row group's bytes, or a text chunk, per state and read)
      drain: () => (jobs.some((j) => j.queued) ? drainAll() : undefined),
      streamError: (error: DecodeError, where) => {
        for (const job of jobs) if (job.kind === kindOf(where.kind)) job.streamError(error);
      },
      unreadable: (p, reason) => {
        for (const job of jobsOf(p.kind, p.states)) job.unreadable(reason);
      },
    },
    // every row is shaped, formatted or copied into the writers while its entry is visited (no entry outlives its visit): the read buffers are reused and the next window read ahead
    {
      values: { mode: framed ? 'frame' : 'decode' },
      reuseReadBuffers: true,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.headers === undefined ? {} : { headers: request.headers }),
    },
  );
}

/**
 * One state's export: its rows shaped (Parquet, Arrow) or formatted (text) as each entry is visited,
 * the encoded bytes queued for its sink until the scan drains them.
 */
class StateExportJob {
  readonly result: ExportStateResult = {
    rows: 0,
    entries: 0,
    valueBytes: 0,
    incomplete: [],
    errors: [],
    undecodable: 0,
    failures: [],
    unknownFieldsCapped: { rows: 0, omitted: 0 },
  };
  private readonly unreadableReasons: string[] = [];
  /** Protobuf values: read from the frames (ArrowExportWriter.addEntry, ProtobufWireJsonWriter, ParquetExportWriter.addFramed) */
  readonly framed: boolean;
  /** JSON Lines and CSV of Protobuf values: the value's JSON text from its wire bytes */
  private readonly wireJson: ProtobufWireJsonWriter | undefined;
  /** `operator` (operator and broadcast state) or `keyed`, and the state's name: how entries find their job */
  readonly kind: 'operator' | 'keyed';
  readonly key: string;
  private readonly content: ProtobufSnapshotContent | undefined;
  private readonly listState: boolean;
  /** encoded bytes not yet taken by the sink: filled synchronously as rows arrive, drained between the scan's reads */
  private readonly outbox: Uint8Array[] = [];
  private columns?: ExportColumns;
  private writer?: ParquetExportWriter | ArrowExportWriter;
  private pending: string[] = [];
  private pendingBytes = 0;
  private lastProgress = 0;

  constructor(
    readonly index: number,
    readonly state: InspectedState,
    private readonly request: ExportStatesRequest,
  ) {
    this.content = findValueProtobufContent(state);
    this.listState = state.kind === 'LIST';
    this.framed = this.content !== undefined;
    this.wireJson =
      this.content !== undefined && (request.format === 'jsonl' || request.format === 'csv')
        ? new ProtobufWireJsonWriter(this.content.schema.root, this.content.settings.recursionLimit)
        : undefined;
    this.kind = state.scope === 'keyed' ? 'keyed' : 'operator';
    this.key = `${this.kind}:${state.name}`;
    const sample = request.sample;
    if (sample !== undefined)
      this.result.incomplete.push(
        sample.kind === 'first-entries'
          ? `a sample: the first ${sample.count} entries of each state`
          : `a sample: one key group in every ${sample.every} (key groups 0, ${sample.every}, ${2 * sample.every}, …)`,
      );
  }

  get queued(): boolean {
    return this.outbox.length > 0;
  }

  part(p: ScanPart): void {
    if (p.incomplete !== undefined && !this.result.incomplete.includes(p.incomplete)) this.result.incomplete.push(p.incomplete);
  }

  entry(e: StateEntry): void {
    this.result.entries++;
    if (this.wireJson !== undefined) {
      for (const source of listFramedExportRows(e, this.listState, this.content!.schema.root)) this.writeFramedTextRow(source, this.wireJson);
    } else if (this.framed && this.request.format === 'parquet') {
      for (const source of listFramedExportRows(e, this.listState, this.content!.schema.root)) this.writeFramedParquetRow(source);
    } else if (this.framed) {
      // a row the Arrow writer decodes (not the plain wire case) may hold a value its decoder refused: counted as in a decode scan
      const sources = listFramedExportRows(e, this.listState, this.content!.schema.root).map((s) => ({
        ...s,
        decode: () => {
          const row = s.decode();
          this.result.undecodable += countUndecodable(row);
          this.countCapped(row);
          return row;
        },
      }));
      this.writeFramedEntry(sources);
    } else for (const row of listExportRows(e, this.listState)) this.writeRow(row);
  }

  streamError(error: DecodeError): void {
    this.result.errors.push(error.toJSON());
    this.result.incomplete.push(`a stream failed: ${error.message}`);
  }

  unreadable(reason: string): void {
    this.result.incomplete.push(`not readable here: ${reason}`);
    this.unreadableReasons.push(reason);
  }

  /** the last row group or text chunk, after the scan; a failed export says why in the file (Parquet metadata, a last JSON line) */
  finish(): void {
    const { result } = this;
    const limit = this.request.limit;
    if (limit !== undefined && result.entries >= limit) result.incomplete.push(`limited to the first ${limit} entries`);
    for (const e of result.errors) result.failures.push(`a stream failed: ${e.message}`);
    for (const why of this.unreadableReasons) result.failures.push(`not readable here: ${why}`);
    if (result.undecodable > 0)
      result.failures.push(`${result.undecodable} value${result.undecodable === 1 ? '' : 's'} could not be decoded (exported as their bytes)`);
    this.ensureColumns(undefined);
    if (this.writer instanceof ArrowExportWriter) {
      result.unknownFieldsCapped.rows += this.writer.unknownFieldsCapped.rows;
      result.unknownFieldsCapped.omitted += this.writer.unknownFieldsCapped.omitted;
    }
    const capped = result.unknownFieldsCapped;
    if (this.writer instanceof ParquetExportWriter) {
      this.writer.finish([
        ...(result.failures.length === 0 ? [] : [{ key: INCOMPLETE_METADATA_KEY, value: JSON.stringify({ rows: result.rows, reasons: result.failures }) }]),
        ...(capped.rows === 0
          ? []
          : [
              {
                key: UNKNOWN_FIELDS_CAPPED_METADATA_KEY,
                value: JSON.stringify({ perValue: EXPORT_UNKNOWN_FIELDS_PER_VALUE, rows: capped.rows, omitted: capped.omitted }),
              },
            ]),
      ]);
    } else if (this.writer !== undefined) this.writer.finish();
    else {
      if (result.failures.length > 0 && this.request.format === 'jsonl')
        this.pending.push(`${JSON.stringify({ exportIncomplete: { rows: result.rows, reasons: result.failures } })}\n`);
      this.flushText();
    }
  }

  /** hands the queued bytes to the sink one chunk at a time, awaiting each (back pressure) */
  async drain(sink: IndexedExportSink): Promise<void> {
    while (this.outbox.length > 0) await sink(this.index, this.outbox.shift()!);
  }

  private readonly emit = (chunk: Uint8Array) => void this.outbox.push(chunk);

  private ensureColumns(row: ExportRow | undefined): ExportColumns {
    if (this.columns !== undefined) return this.columns;
    const { state, request, content } = this;
    const columns =
      row !== undefined
        ? listExportColumns(row)
        : {
            key: state.scope === 'keyed',
            namespace: state.scope === 'keyed',
            userKey: state.kind === 'MAP' || state.scope === 'broadcast',
            elementIndex: this.listState,
          };
    this.columns = columns;
    if (request.format === 'arrow')
      this.writer = new ArrowExportWriter(this.emit, columns, content?.schema.root, request.rowGroupRows, content?.settings.recursionLimit);
    if (request.format === 'parquet') {
      this.writer = new ParquetExportWriter(this.emit, columns, {
        layout: request.layout ?? 'legacy',
        ...(content === undefined ? {} : { message: content.schema.root, javaClass: content.javaClass, recursionLimit: content.settings.recursionLimit }),
        ...(request.rowGroupRows === undefined ? {} : { rowGroupRows: request.rowGroupRows }),
      });
    }
    return columns;
  }

  /** a piece of text into the current chunk; a piece of a chunk's size or more goes out on its own, a slice at a time */
  private pushText(piece: string): void {
    const chunk = this.request.textChunkBytes ?? TEXT_CHUNK_BYTES;
    if (piece.length < chunk) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      if (this.pendingBytes >= chunk) this.flushText();
      return;
    }
    this.flushText();
    for (let start = 0; start < piece.length;) {
      let end = Math.min(piece.length, start + chunk);
      // a surrogate pair stays in one slice
      const last = piece.charCodeAt(end - 1);
      if (end < piece.length && last >= 0xd800 && last <= 0xdbff) end--;
      this.emit(encodeUtf8(piece.slice(start, end)));
      start = end;
    }
  }

  private flushText(): void {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    this.emit(encodeUtf8(text));
  }

  /** one row: shaped (Parquet, Arrow) or formatted (text) at once, so no entry or decoded message outlives its visit */
  private countCapped(row: ExportRow): void {
    if (row.unknownFieldsOmitted === undefined) return;
    this.result.unknownFieldsCapped.rows++;
    this.result.unknownFieldsCapped.omitted += row.unknownFieldsOmitted;
  }

  /** one row of a `frame`-mode scan as text: its value's JSON from the wire bytes where the plain case holds, else the row decoded */
  private writeFramedTextRow(source: FramedExportRowSource, wireJson: ProtobufWireJsonWriter): void {
    const frame = source.frame;
    const json =
      frame !== undefined && source.whole && frame.end - frame.payloadStart === frame.length
        ? wireJson.write(frame.bytes, frame.payloadStart, frame.end)
        : undefined;
    if (frame === undefined || json === undefined) {
      this.writeRow(source.decode());
      return;
    }
    // the root's unknown fields, as many as a decoded row holds (the rest counted)
    const unknown = wireJson.unknown;
    const shown = Math.min(unknown.length, EXPORT_UNKNOWN_FIELDS_PER_VALUE);
    const unknownFields: ExportUnknownField[] = [];
    for (let k = 0; k < shown; k++) {
      const u = unknown[k]!;
      unknownFields.push({ path: '', number: u.number, wireType: u.wireType, bytes: frame.bytes.slice(u.start, u.end) });
    }
    const row: ExportRow = {
      ...(source.row as ExportRow),
      value: null,
      valueSize: frame.length,
      unknownFields,
      ...(shown < unknown.length ? { unknownFieldsOmitted: unknown.length - shown } : {}),
    };
    this.writeRow(row, json);
  }

  /** one row of a `frame`-mode scan into Parquet: its value shredded from the wire bytes where the plain case holds, else the row decoded */
  private writeFramedParquetRow(source: FramedExportRowSource): void {
    const frame = source.frame;
    this.ensureColumns(source.row as ExportRow);
    const row = frame === undefined ? undefined : (this.writer as ParquetExportWriter).addFramed(source.row, frame);
    if (row === undefined) {
      this.writeRow(source.decode());
      return;
    }
    this.result.rows++;
    this.result.valueBytes += row.valueSize;
    this.countCapped(row);
    this.reportProgress();
  }

  private writeRow(row: ExportRow, valueJson?: string): void {
    const cols = this.ensureColumns(row);
    const { result, request } = this;
    result.rows++;
    result.valueBytes += row.valueSize;
    result.undecodable += countUndecodable(row);
    this.countCapped(row);
    if (this.writer !== undefined) {
      this.writer.add(row);
    } else {
      if (result.rows === 1 && request.format === 'csv') this.pushText(formatCsvHeader(cols));
      for (const piece of request.format === 'csv' ? formatCsvRowPieces(row, cols, valueJson) : formatJsonLinePieces(row, cols, valueJson))
        this.pushText(piece);
    }
    this.reportProgress();
  }

  /** one entry's rows into the Arrow writer, all or none (a payload that does not decode fails the stream before any of them, as in a `decode` scan) */
  private writeFramedEntry(sources: FramedExportRowSource[]): void {
    if (sources.length === 0) return;
    this.ensureColumns(sources[0]!.row as ExportRow);
    this.result.valueBytes += (this.writer as ArrowExportWriter).addEntry(sources);
    this.result.rows += sources.length;
    this.reportProgress();
  }

  private reportProgress(): void {
    const { result } = this;
    if (result.rows - this.lastProgress < 1000) return;
    this.lastProgress = result.rows;
    this.request.progress?.(this.index, { rows: result.rows, valueBytes: result.valueBytes });
  }
}
