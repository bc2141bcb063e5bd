/**
 * Streams export rows as Arrow IPC: one complete IPC stream (schema, one record batch) per row group,
 * so a reader can take each chunk as it comes (the app's Query view inserts them into DuckDB-WASM,
 * whose Parquet reader is an extension it would fetch from elsewhere). The columns are the Parquet
 * export's (parquet-export-writer.ts), typed alike: groups → Struct, repeated nodes → List,
 * INT32/INT64/FLOAT/DOUBLE/BOOLEAN → the same Arrow types, STRING/ENUM → Utf8, bytes → Binary.
 */
import { Binary, Bool, Field, Float32, Float64, Int32, Int64, List, RecordBatch, Schema, Struct, Table, Utf8, makeBuilder, makeData, tableToIPC, type Builder, type DataType } from 'apache-arrow';
import type { DescMessage } from '@bufbuild/protobuf';
import type { ExportEmit, ExportRow } from './export-types';
import type { ExportColumns } from './format-export-rows-text';
import { buildExportSchema, chooseKeyType, shapeExportColumn, type ShapeContext } from './parquet-export-writer';
import type { ParquetNode } from './parquet-schema-types';
import type { ParquetValue } from './to-parquet-message-value';

export const ARROW_BATCH_ROWS = 10_000;

export class ArrowExportWriter {
  /** the batch's rows, each already shaped into its top-level column values */
  private readonly buffered: ParquetValue[][] = [];
  private root?: ParquetNode;
  private schema?: Schema;
  private ctx?: ShapeContext;
  private written = false;

  constructor(
    private readonly emit: ExportEmit,
    private readonly columns: ExportColumns,
    private readonly message: DescMessage | undefined,
    private readonly batchRows = ARROW_BATCH_ROWS,
  ) {}

  add(row: ExportRow): void {
    this.start(row);
    const nodes = this.root!.children!;
    this.buffered.push(nodes.map((top) => withNulls(shapeExportColumn(top.name, row, this.ctx!), top)));
    if (this.buffered.length >= this.batchRows) this.flush();
  }

  finish(): void {
    if (this.buffered.length > 0 || !this.written) this.flush();
  }

  private start(first?: ExportRow): void {
    if (this.root !== undefined) return;
    const keyType = chooseKeyType(first?.key);
    const userKeyType = chooseKeyType(first?.userKey);
    this.root = buildExportSchema(this.columns, keyType, userKeyType, { layout: 'legacy', ...(this.message === undefined ? {} : { message: this.message }) });
    this.schema = new Schema(this.root.children!.map(toArrowField));
    this.ctx = { keyType, userKeyType, layout: 'legacy', valueNodes: this.message === undefined ? undefined : this.root.children!.find((c) => c.name === 'value')!.children! };
  }

  private flush(): void {
    this.start();
    const rows = this.buffered.splice(0, this.buffered.length);
    const schema = this.schema!;
    const children = schema.fields.map((field, i) => {
      const builder = makeNullAwareBuilder(field.type as DataType);
      for (const r of rows) builder.append(r[i]);
      return builder.finish().flush();
    });
    const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children }));
    this.written = true;
    this.emit(tableToIPC(new Table(schema, [batch]), 'stream'));
  }
}

/**
 * An Arrow builder whose null test is a plain function: Arrow compiles the test from `nullValues` with
 * `new Function`, which the app's Content-Security-Policy forbids (no eval) — so none are given and
 * every builder of the tree gets this one.
 */
function makeNullAwareBuilder(type: DataType): Builder {
  const builder = makeBuilder({ type, nullValues: [] });
  const fix = (b: Builder) => {
    (b as unknown as { isValid: (v: unknown) => boolean }).isValid = (v) => v !== null && v !== undefined;
    b.children.forEach(fix);
  };
  fix(builder);
  return builder;
}

/** Arrow's struct builder wants every child present: absent fields become explicit nulls, all the way down. */
function withNulls(v: ParquetValue | undefined, node: ParquetNode): ParquetValue {
  if (v === null || v === undefined) return null;
  if (node.repetition === 'REPEATED') return (v as ParquetValue[]).map((x) => withNulls(x, { ...node, repetition: 'OPTIONAL' }));
  if (node.children === undefined) return v;
  const o = v as { [name: string]: ParquetValue };
  const out: { [name: string]: ParquetValue } = {};
  for (const c of node.children) out[c.name] = withNulls(o[c.name], c);
  return out;
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
