/**
 * Streams export rows as Arrow IPC: one complete IPC stream (schema, one record batch) per row group,
 * so a reader can take each chunk as it comes (the app's Query view inserts them into DuckDB-WASM,
 * whose Parquet reader is an extension it would fetch from elsewhere). The columns are the Parquet
 * export's (parquet-export-writer.ts), typed alike: groups → Struct, repeated nodes → List,
 * INT32/INT64/FLOAT/DOUBLE/BOOLEAN → the same Arrow types, STRING/ENUM → Utf8, bytes → Binary.
 */
import {
  Binary,
  Bool,
  DataType,
  Field,
  Float32,
  Float64,
  Int32,
  Int64,
  List,
  Precision,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  makeData,
  tableToIPC,
} from 'apache-arrow';
import type { DescMessage } from '@bufbuild/protobuf';
import { EXPORT_UNKNOWN_FIELDS_PER_VALUE, type ExportEmit, type ExportRow, type FramedExportRow, type FramedExportRowSource } from './export-types';
import type { ExportColumns } from './format-export-rows-text';
import { buildExportSchema, chooseKeyType, shapeExportColumn, type ShapeContext } from './parquet-export-writer';
import type { ParquetNode } from './parquet-schema-types';
import type { ValueFrame } from '../flink';
import {
  BoolColumnBuilder,
  BytesColumnBuilder,
  ColumnTreeMark,
  NumberColumnBuilder,
  Int64ColumnBuilder,
  ListColumnBuilder,
  StructColumnBuilder,
  type ColumnBuilder,
} from './arrow-column-builders';
import { ProtobufWireAppender } from './append-protobuf-wire-value';

export const ARROW_BATCH_ROWS = 10_000;

export type { FramedExportRow, FramedExportRowSource } from './export-types';

export class ArrowExportWriter {
  private root?: ParquetNode;
  private schema?: Schema;
  private ctx?: ShapeContext;
  private written = false;
  /** one builder per top-level column */
  private builders: ColumnBuilder[] = [];
  private names: string[] = [];
  private rows = 0;
  private valueMarks?: ColumnTreeMark;
  private entryMarks?: ColumnTreeMark;
  private wire?: ProtobufWireAppender;
  /** rows whose value the wire appender took, and those left to the full decoder */
  readonly counts = { wire: 0, decoded: 0 };

  constructor(
    private readonly emit: ExportEmit,
    private readonly columns: ExportColumns,
    private readonly message: DescMessage | undefined,
    private readonly batchRows = ARROW_BATCH_ROWS,
    /** the value's decoding limits (recursion), for the wire appender */
    private readonly recursionLimit = 100,
  ) {}

  /** One row, every column shaped from the decoded row. */
  add(row: ExportRow): void {
    this.start(row);
    this.appendShaped(row);
    if (++this.rows >= this.batchRows) this.flush();
  }

  /**
   * The rows of one entry of a `frame`-mode scan, all or none: a row whose Protobuf value (of this
   * writer's message) is given as its frame has its value columns written from the wire bytes where
   * the plain case holds (append-protobuf-wire-value.ts); any other row is decoded (`decode`) and
   * added as `add` does. A decode that throws (a bad payload) leaves none of the entry's rows, as a
   * `decode`-mode scan fails before it hands the entry over.
   */
  addEntry(rows: readonly FramedExportRowSource[]): number {
    if (rows.length === 0) return 0;
    this.start(rows[0]!.row as ExportRow);
    const before = this.rows;
    const counts = { ...this.counts };
    let valueBytes = 0;
    // one row is all or none by itself (the wire appender's value is rolled back, a decode throws before any cell)
    if (rows.length > 1) this.entryMarks!.mark();
    try {
      for (const r of rows) {
        valueBytes += r.frame === undefined ? this.addDecoded(r.decode) : this.addFramed(r.row, r.frame, r.decode);
      }
    } catch (e) {
      if (rows.length > 1) this.entryMarks!.rollback();
      this.rows = before;
      Object.assign(this.counts, counts);
      throw e;
    }
    if (this.rows >= this.batchRows) this.flush();
    return valueBytes;
  }

  /** one row from its frame (else decoded); its value size */
  private addFramed(row: FramedExportRow, frame: ValueFrame, decode: () => ExportRow): number {
    const wire = this.wire;
    const complete = frame.end - frame.payloadStart === frame.length;
    if (wire === undefined || !complete) return this.addDecoded(decode);
    // the value first, into its own columns: what the appender leaves to the decoder is rolled back there alone
    this.valueMarks!.mark();
    if (!wire.append(frame.bytes, frame.payloadStart, frame.end)) {
      this.valueMarks!.rollback();
      return this.addDecoded(decode);
    }
    for (let i = 0; i < this.builders.length; i++) {
      const name = this.names[i]!;
      if (name === 'value') {
        (this.builders[i] as StructColumnBuilder).appendValid();
      } else if (name === 'value_size') {
        (this.builders[i] as Int64ColumnBuilder).appendWords(frame.length, 0);
      } else if (name === 'unknown_fields') {
        const list = this.builders[i] as ListColumnBuilder;
        const item = list.element as StructColumnBuilder;
        // as many as a decoded row holds (EXPORT_UNKNOWN_FIELDS_PER_VALUE); the rest counted
        const shown = Math.min(wire.unknown.length, EXPORT_UNKNOWN_FIELDS_PER_VALUE);
        if (shown < wire.unknown.length) {
          this.unknownFieldsCapped.rows++;
          this.unknownFieldsCapped.omitted += wire.unknown.length - shown;
        }
        for (let k = 0; k < shown; k++) {
          const u = wire.unknown[k]!;
          const [path, number, wireType, bytes] = item.children as [BytesColumnBuilder, NumberColumnBuilder, NumberColumnBuilder, BytesColumnBuilder];
          path.appendBytes(EMPTY, 0, 0);
          number.appendNumber(u.number);
          wireType.appendNumber(u.wireType);
          bytes.appendBytes(frame.bytes, u.start, u.end);
          item.appendValid();
        }
        list.endList(false);
      } else {
        this.builders[i]!.appendValue(shapeExportColumn(name, row as ExportRow, this.ctx!));
      }
    }
    this.counts.wire++;
    this.rows++;
    return frame.length;
  }

  /** rows of the wire path whose unknown fields were more than EXPORT_UNKNOWN_FIELDS_PER_VALUE, and how many were left out (decoded rows say it in their ExportRow) */
  readonly unknownFieldsCapped = { rows: 0, omitted: 0 };

  finish(): void {
    if (this.rows > 0 || !this.written) this.flush();
  }

  private addDecoded(decode: () => ExportRow): number {
    const row = decode();
    this.appendShaped(row);
    this.counts.decoded++;
    this.rows++;
    return row.valueSize;
  }

  /** every column of the row, shaped as the Parquet writer shapes it */
  private appendShaped(row: ExportRow): void {
    for (let i = 0; i < this.builders.length; i++) this.builders[i]!.appendValue(shapeExportColumn(this.names[i]!, row, this.ctx!));
  }

  private start(first?: ExportRow): void {
    if (this.root !== undefined) return;
    const keyType = chooseKeyType(first?.key);
    const userKeyType = chooseKeyType(first?.userKey);
    this.root = buildExportSchema(this.columns, keyType, userKeyType, { layout: 'legacy', ...(this.message === undefined ? {} : { message: this.message }) });
    this.schema = new Schema(this.root.children!.map(toArrowField));
    const valueNode = this.root.children!.find((c) => c.name === 'value')!;
    this.ctx = { keyType, userKeyType, layout: 'legacy', valueNodes: this.message === undefined ? undefined : valueNode.children! };
    this.names = this.root.children!.map((c) => c.name);
    this.builders = this.schema.fields.map((f) => createColumnBuilder(f.type as DataType));
    this.entryMarks = new ColumnTreeMark(this.builders);
    const valueBuilder = this.builders[this.names.indexOf('value')];
    if (this.message !== undefined && valueBuilder instanceof StructColumnBuilder) {
      this.wire = new ProtobufWireAppender(this.message, valueNode.children!, valueBuilder, this.recursionLimit);
      this.valueMarks = new ColumnTreeMark(valueBuilder.children);
    }
  }

  private flush(): void {
    this.start();
    const schema = this.schema!;
    const length = this.rows;
    const children = this.builders.map((b) => b.finish());
    this.rows = 0;
    const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
    this.written = true;
    this.emit(tableToIPC(new Table(schema, [batch]), 'stream'));
  }
}

const EMPTY = new Uint8Array(0);

/** The builder of an Arrow type (the export's types only). */
function createColumnBuilder(type: DataType): ColumnBuilder {
  if (DataType.isStruct(type))
    return new StructColumnBuilder(
      type,
      type.children.map((f) => createColumnBuilder(f.type as DataType)),
    );
  if (DataType.isList(type)) return new ListColumnBuilder(type, createColumnBuilder(type.children[0]!.type as DataType));
  if (DataType.isInt(type)) return type.bitWidth === 64 ? new Int64ColumnBuilder(type) : new NumberColumnBuilder(type, 'int32');
  if (DataType.isFloat(type)) return new NumberColumnBuilder(type, type.precision === Precision.DOUBLE ? 'float64' : 'float32');
  if (DataType.isBool(type)) return new BoolColumnBuilder(type);
  if (DataType.isUtf8(type) || DataType.isBinary(type)) return new BytesColumnBuilder(type);
  throw new Error(`no column builder for Arrow type ${String(type)}`);
}

function toArrowField(node: ParquetNode): Field {
  return new Field(node.name, toArrowType(node), node.repetition !== 'REQUIRED');
}

function toArrowType(node: ParquetNode): DataType {
  if (node.repetition === 'REPEATED') return new List(new Field('element', elementType(node), true));
  return elementType(node);
}

function elementType(node: ParquetNode): DataType {
  if (node.children !== undefined) return new Struct(node.children.map(toArrowField));
  switch (node.type) {
    case 'INT32':
      return new Int32();
    case 'INT64':
      return new Int64();
    case 'FLOAT':
      return new Float32();
    case 'DOUBLE':
      return new Float64();
    case 'BOOLEAN':
      return new Bool();
    default:
      return node.logical === 'STRING' || node.logical === 'ENUM' ? new Utf8() : new Binary();
  }
}
