/**
 * Streams export rows into a Parquet file: rows are buffered up to one row group (memory bounded by
 * a row group, not by the state), then shredded (shred-parquet-column.ts) and encoded with
 * hyparquet-writer's column writer (pages, dictionary, Snappy, statistics, footer) and handed to the
 * export (ExportEmit: synchronous; exportState hands the bytes to the sink between the scan's reads,
 * awaiting it). A Protobuf value given as its frame (addFramed) is shredded straight from its wire bytes
 * where the plain case holds (shred-protobuf-wire-parquet.ts), else decoded and shaped. Columns: key_group, subtask, key (typed by the first row: INT32, INT64, STRING, BOOLEAN,
 * FLOAT, DOUBLE; other keys as JSON text), namespace (text), user_key (typed like key),
 * element_index, value (a Protobuf value: its message's group as parquet-protobuf derives it; other
 * values: JSON text), value_size, unknown_fields (path, number, wire_type, bytes).
 */
import type { DescMessage } from '@bufbuild/protobuf';
import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { writeColumn } from 'hyparquet-writer/src/column.js';
import type { DecodedValue, ValueFrame } from '../flink';
import { deriveParquetFields } from './derive-parquet-schema';
import {
  EXPORT_UNKNOWN_FIELDS_PER_VALUE,
  type ExportEmit,
  type ExportRow,
  type ExportUnknownField,
  type FramedExportRow,
  type ParquetListLayout,
} from './export-types';
import type { ExportColumns } from './format-export-rows-text';
import type { ParquetNode, ParquetPhysicalType } from './parquet-schema-types';
import { ParquetLeafColumn } from './shred-parquet-column';
import { ProtobufWireParquetShredder } from './shred-protobuf-wire-parquet';
import { toParquetMessageValue, type ParquetValue } from './to-parquet-message-value';
import { formatPlainText, toPlainValue } from './to-plain-value';

export const PARQUET_ROW_GROUP_ROWS = 10_000;
const CREATED_BY = 'savepoint-inspector';

export interface ParquetExportOptions {
  layout: ParquetListLayout;
  /** the state's Protobuf root message (its values become nested columns), if its values are Protobuf */
  message?: DescMessage;
  /** the generated Java class, for parquet-protobuf's reader (`parquet.proto.class`) */
  javaClass?: string;
  rowGroupRows?: number;
  /** the value's decoding limits (recursion), for the wire shredder */
  recursionLimit?: number;
}

export type KeyType = { type: ParquetPhysicalType; logical?: 'STRING' } | 'json';

/** What shaping a row's column values needs: the key types and, for Protobuf values, the value group's nodes. */
export interface ShapeContext {
  keyType: KeyType;
  userKeyType: KeyType;
  layout: ParquetListLayout;
  valueNodes: readonly ParquetNode[] | undefined;
}

export class ParquetExportWriter {
  /** the row group's slots so far, per top-level column its leaf columns (no entry, message or read buffer is kept) */
  private leaves: ParquetLeafColumn[][] = [];
  private names: string[] = [];
  private valueIndex = -1;
  private rows = 0;
  private ctx?: ShapeContext;
  private writer?: ParquetWriter;
  private bytes?: ByteWriter;
  private root?: ParquetNode;
  private wire?: ProtobufWireParquetShredder;
  private readonly rowGroupRows: number;
  /** rows whose value the wire shredder took, and those shaped from a decoded row */
  readonly counts = { wire: 0, decoded: 0 };

  constructor(
    private readonly emit: ExportEmit,
    private readonly columns: ExportColumns,
    private readonly options: ParquetExportOptions,
  ) {
    this.rowGroupRows = options.rowGroupRows ?? PARQUET_ROW_GROUP_ROWS;
  }

  private readonly kvMetadata: { key: string; value: string }[] = [];

  /** Shapes the row into its column values and shreds them; a full row group is encoded and emitted. */
  add(row: ExportRow): void {
    this.start(row);
    for (let i = 0; i < this.names.length; i++) this.addColumn(i, shapeExportColumn(this.names[i]!, row, this.ctx!));
    this.counts.decoded++;
    this.endRow();
  }

  /**
   * One row whose Protobuf value (of this writer's message) is given as its frame, its value shredded
   * from the wire bytes: the row as written (no value, its size and root unknown fields), or undefined
   * when the value is not the plain case (nothing written: decode the row and `add` it).
   */
  addFramed(row: FramedExportRow, frame: ValueFrame): ExportRow | undefined {
    this.start(row as ExportRow);
    const wire = this.wire;
    if (wire === undefined || frame.end - frame.payloadStart !== frame.length) return undefined;
    const valueLeaves = this.leaves[this.valueIndex]!;
    for (const leaf of valueLeaves) leaf.mark();
    if (!wire.shred(frame.bytes, frame.payloadStart, frame.end)) {
      for (const leaf of valueLeaves) leaf.rollback();
      return undefined;
    }
    // the root's unknown fields, as many as a decoded row holds (the rest counted)
    const unknown = wire.unknown;
    const shown = Math.min(unknown.length, EXPORT_UNKNOWN_FIELDS_PER_VALUE);
    const unknownFields: ExportUnknownField[] = [];
    for (let k = 0; k < shown; k++) {
      const u = unknown[k]!;
      unknownFields.push({ path: '', number: u.number, wireType: u.wireType, bytes: frame.bytes.slice(u.start, u.end) });
    }
    const written: ExportRow = {
      ...(row as ExportRow),
      value: null,
      valueSize: frame.length,
      unknownFields,
      ...(shown < unknown.length ? { unknownFieldsOmitted: unknown.length - shown } : {}),
    };
    for (let i = 0; i < this.names.length; i++) if (i !== this.valueIndex) this.addColumn(i, shapeExportColumn(this.names[i]!, written, this.ctx!));
    this.counts.wire++;
    this.endRow();
    return written;
  }

  /** The last row group and the footer, with `extraMetadata` added to its key-value metadata (a failed export's reasons). */
  finish(extraMetadata: readonly { key: string; value: string }[] = []): void {
    this.flushRowGroup();
    this.start();
    // the writer holds this very array: it writes it in the footer
    this.kvMetadata.push(...extraMetadata);
    this.writer!.finish();
    this.drain();
  }

  /** The file's schema (known once the first row or the end is seen). */
  get schema(): ParquetNode | undefined {
    return this.root;
  }

  private addColumn(i: number, value: ParquetValue): void {
    const leaves = this.leaves[i]!;
    for (let k = 0; k < leaves.length; k++) leaves[k]!.add(value);
  }

  private endRow(): void {
    if (++this.rows >= this.rowGroupRows) this.flushRowGroup();
  }

  private start(first?: ExportRow): void {
    if (this.writer !== undefined) return;
    const keyType = chooseKeyType(first?.key);
    const userKeyType = chooseKeyType(first?.userKey);
    const root = buildExportSchema(this.columns, keyType, userKeyType, this.options);
    this.root = root;
    this.bytes = new ByteWriter();
    const kv = this.kvMetadata;
    kv.push({ key: 'savepoint-inspector.layout', value: this.options.layout });
    if (this.options.message !== undefined) kv.push({ key: 'parquet.proto.descriptor.root', value: this.options.message.typeName });
    if (this.options.javaClass !== undefined) kv.push({ key: 'parquet.proto.class', value: this.options.javaClass });
    this.writer = new ParquetWriter({ writer: this.bytes, schema: toSchemaElements(root), kvMetadata: kv, createdBy: CREATED_BY });
    const tops = root.children!;
    this.names = tops.map((c) => c.name);
    this.valueIndex = this.names.indexOf('value');
    this.leaves = tops.map((top) => listLeafPaths([top]).map((path) => new ParquetLeafColumn(path)));
    const valueNode = tops[this.valueIndex]!;
    this.ctx = { keyType, userKeyType, layout: this.options.layout, valueNodes: this.options.message === undefined ? undefined : valueNode.children! };
    if (this.options.message !== undefined) {
      const byNode = new Map(this.leaves[this.valueIndex]!.map((leaf) => [leaf.path[leaf.path.length - 1]!, leaf]));
      // the value group's children are present at definition level 1 (the optional `value` column)
      this.wire = new ProtobufWireParquetShredder(
        this.options.message,
        valueNode.children!,
        1,
        this.options.layout,
        (node) => byNode.get(node)!,
        this.options.recursionLimit ?? 100,
      );
    }
  }

  private flushRowGroup(): void {
    this.start();
    const rows = this.rows;
    if (rows === 0) return;
    this.rows = 0;
    const writer = this.writer!;
    const byteWriter = this.bytes!;
    const groupStart = byteWriter.offset;
    const chunks = [];
    for (const leaves of this.leaves) {
      for (const column of leaves) {
        const leafPath = column.path;
        const shredded = column.take();
        const schemaPath = [toElement(this.root!), ...leafPath.map(toElement)];
        const leaf = schemaPath[schemaPath.length - 1]!;
        // hyparquet's page writer refuses a REPEATED leaf; the levels carry the repetition (the footer keeps REPEATED)
        const element = leaf.repetition_type === 'REPEATED' ? { ...leaf, repetition_type: 'OPTIONAL' as const } : leaf;
        const result = writeColumn({
          writer: byteWriter,
          column: {
            columnName: leafPath.map((n) => n.name).join('.'),
            element,
            schemaPath,
            codec: 'SNAPPY',
            compressors: writer.compressors,
            stats: true,
            pageSize: 1 << 20,
            columnIndex: false,
            offsetIndex: true,
          },
          pageData: {
            values: shredded.values as never,
            definitionLevels: shredded.definitionLevels,
            repetitionLevels: shredded.maxRepetitionLevel === 0 ? [] : shredded.repetitionLevels,
            maxDefinitionLevel: shredded.maxDefinitionLevel,
          },
        });
        chunks.push(result.chunk);
        writer.pendingIndexes.push(result);
      }
    }
    let total = 0n;
    for (const c of chunks) total += c.meta_data?.total_uncompressed_size ?? 0n;
    writer.row_groups.push({
      columns: chunks,
      total_byte_size: total,
      num_rows: BigInt(rows),
      total_compressed_size: BigInt(byteWriter.offset - groupStart),
    });
    writer.num_rows += BigInt(rows);
    this.drain();
  }

  /** Emits the bytes written so far (a copy) and empties the buffer; offsets stay absolute. */
  private drain(): void {
    const w = this.bytes!;
    if (w.index === 0) return;
    const chunk = new Uint8Array(w.buffer, 0, w.index).slice();
    w.index = 0;
    this.emit(chunk);
  }
}

export function chooseKeyType(v: DecodedValue | undefined): KeyType {
  if (v === undefined) return 'json';
  switch (v.kind) {
    case 'int':
      return { type: 'INT32' };
    case 'long':
      return { type: 'INT64' };
    case 'string':
      return { type: 'BYTE_ARRAY', logical: 'STRING' };
    case 'boolean':
      return { type: 'BOOLEAN' };
    case 'float':
      return { type: v.type === 'Float' ? 'FLOAT' : 'DOUBLE' };
    default:
      return 'json';
  }
}

function toKeyValue(v: DecodedValue | undefined, type: KeyType): ParquetValue {
  if (v === undefined || v.kind === 'null') return null;
  if (type !== 'json') {
    if (type.type === 'INT32' && v.kind === 'int') return v.value;
    if (type.type === 'INT64' && v.kind === 'long') return BigInt(v.value);
    if (type.type === 'BYTE_ARRAY' && v.kind === 'string') return v.value;
    if (type.type === 'BOOLEAN' && v.kind === 'boolean') return v.value;
    if ((type.type === 'FLOAT' || type.type === 'DOUBLE') && v.kind === 'float') return typeof v.value === 'number' ? v.value : Number(v.value);
    throw new Error(`a key of kind ${v.kind} in a ${type.type} key column`);
  }
  return formatPlainText(toPlainValue(v));
}

function keyNode(name: string, type: KeyType): ParquetNode {
  return type === 'json' ? { name, repetition: 'OPTIONAL', type: 'BYTE_ARRAY', logical: 'STRING' } : { name, repetition: 'OPTIONAL', ...type };
}

/** The export file's schema: the row's place and keys, the value (nested for Protobuf), its size and unknown fields. */
export function buildExportSchema(columns: ExportColumns, keyType: KeyType, userKeyType: KeyType, options: ParquetExportOptions): ParquetNode {
  const children: ParquetNode[] = [
    { name: 'key_group', repetition: 'REQUIRED', type: 'INT32' },
    { name: 'subtask', repetition: 'REQUIRED', type: 'INT32' },
  ];
  if (columns.key) children.push(keyNode('key', keyType));
  if (columns.namespace) children.push({ name: 'namespace', repetition: 'OPTIONAL', type: 'BYTE_ARRAY', logical: 'STRING' });
  if (columns.userKey) children.push(keyNode('user_key', userKeyType));
  if (columns.elementIndex) children.push({ name: 'element_index', repetition: 'OPTIONAL', type: 'INT32' });
  children.push(
    options.message === undefined
      ? { name: 'value', repetition: 'OPTIONAL', type: 'BYTE_ARRAY', logical: 'STRING' }
      : { name: 'value', repetition: 'OPTIONAL', children: deriveParquetFields(options.message, { layout: options.layout }) },
  );
  children.push({ name: 'value_size', repetition: 'REQUIRED', type: 'INT64' });
  const unknown: ParquetNode[] = [
    { name: 'path', repetition: 'REQUIRED', type: 'BYTE_ARRAY', logical: 'STRING' },
    { name: 'number', repetition: 'REQUIRED', type: 'INT32' },
    { name: 'wire_type', repetition: 'REQUIRED', type: 'INT32' },
    { name: 'bytes', repetition: 'REQUIRED', type: 'BYTE_ARRAY' },
  ];
  children.push(
    options.layout === 'spec'
      ? {
          name: 'unknown_fields',
          repetition: 'OPTIONAL',
          logical: 'LIST',
          children: [{ name: 'list', repetition: 'REPEATED', children: [{ name: 'element', repetition: 'REQUIRED', children: unknown }] }],
        }
      : { name: 'unknown_fields', repetition: 'REPEATED', children: unknown },
  );
  return { name: 'savepoint_state', repetition: 'REQUIRED', children };
}

function listLeafPaths(path: ParquetNode[]): ParquetNode[][] {
  const node = path[path.length - 1]!;
  if (node.children === undefined) return [path];
  return node.children.flatMap((c) => listLeafPaths([...path, c]));
}

function toElement(node: ParquetNode): SchemaElement {
  const e: SchemaElement = { name: node.name, repetition_type: node.repetition };
  if (node.children !== undefined) e.num_children = node.children.length;
  if (node.type !== undefined) e.type = node.type;
  if (node.fieldId !== undefined) e.field_id = node.fieldId;
  if (node.logical === 'STRING') {
    e.converted_type = 'UTF8';
    e.logical_type = { type: 'STRING' };
  } else if (node.logical === 'ENUM') {
    e.converted_type = 'ENUM';
    e.logical_type = { type: 'ENUM' };
  } else if (node.logical === 'LIST') {
    e.converted_type = 'LIST';
    e.logical_type = { type: 'LIST' };
  } else if (node.logical === 'MAP') {
    e.converted_type = 'MAP';
    e.logical_type = { type: 'MAP' };
  }
  return e;
}

/** The flat schema of the footer (depth-first); the root has no repetition. */
export function toSchemaElements(root: ParquetNode): SchemaElement[] {
  const out: SchemaElement[] = [];
  const walk = (n: ParquetNode, isRoot: boolean) => {
    const e = toElement(n);
    if (isRoot) delete e.repetition_type;
    out.push(e);
    for (const c of n.children ?? []) walk(c, false);
  };
  walk(root, true);
  return out;
}

/** The value of top-level column `name` for `row`, shaped as the export schema says (groups as objects, repeated nodes as arrays). */
export function shapeExportColumn(name: string, row: ExportRow, ctx: ShapeContext): ParquetValue {
  switch (name) {
    case 'key_group':
      return row.keyGroup;
    case 'subtask':
      return row.subtask;
    case 'key':
      return toKeyValue(row.key, ctx.keyType);
    case 'namespace':
      return row.namespace === undefined ? null : formatPlainText(toPlainValue(row.namespace));
    case 'user_key':
      return toKeyValue(row.userKey, ctx.userKeyType);
    case 'element_index':
      return row.elementIndex ?? null;
    case 'value':
      if (ctx.valueNodes !== undefined) return row.message === undefined ? null : toParquetMessageValue(row.message, ctx.valueNodes);
      return row.value === null ? null : formatPlainText(toPlainValue(row.value));
    case 'value_size':
      return BigInt(row.valueSize);
    case 'unknown_fields': {
      const items = row.unknownFields.map((u) => ({ path: u.path, number: u.number, wire_type: u.wireType, bytes: u.bytes }));
      return ctx.layout === 'spec' ? (items.length === 0 ? null : { list: items.map((element) => ({ element })) }) : items;
    }
    default:
      throw new Error(`unknown export column ${name}`);
  }
}
