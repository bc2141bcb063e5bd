/**
 * Streams export rows into a Parquet file: rows are buffered up to one row group (memory bounded by
 * a row group, not by the state), then shredded (shred-parquet-column.ts) and encoded with
 * hyparquet-writer's column writer (pages, dictionary, Snappy, statistics, footer) and handed to the
 * export (ExportEmit: synchronous; exportState hands the bytes to the sink between the scan's reads,
 * awaiting it). Columns: key_group, subtask, key (typed by the first row: INT32, INT64, STRING, BOOLEAN,
 * FLOAT, DOUBLE; other keys as JSON text), namespace (text), user_key (typed like key),
 * element_index, value (a Protobuf value: its message's group as parquet-protobuf derives it; other
 * values: JSON text), value_size, unknown_fields (path, number, wire_type, bytes).
 */
import type { DescMessage } from '@bufbuild/protobuf';
import { ByteWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { writeColumn } from 'hyparquet-writer/src/column.js';
import type { DecodedValue } from '../flink';
import { deriveParquetFields } from './derive-parquet-schema';
import type { ExportEmit, ExportRow, ParquetListLayout } from './export-types';
import type { ExportColumns } from './format-export-rows-text';
import type { ParquetNode, ParquetPhysicalType } from './parquet-schema-types';
import { shredParquetColumn } from './shred-parquet-column';
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
  /** the row group's rows, each already shaped into its top-level column values (no entry, message or read buffer is kept) */
  private readonly buffered: ParquetValue[][] = [];
  private ctx?: ShapeContext;
  private writer?: ParquetWriter;
  private bytes?: ByteWriter;
  private root?: ParquetNode;
  private keyType?: KeyType;
  private userKeyType?: KeyType;
  private readonly rowGroupRows: number;

  constructor(
    private readonly emit: ExportEmit,
    private readonly columns: ExportColumns,
    private readonly options: ParquetExportOptions,
  ) {
    this.rowGroupRows = options.rowGroupRows ?? PARQUET_ROW_GROUP_ROWS;
  }

  private readonly kvMetadata: { key: string; value: string }[] = [];

  /** Shapes the row into its column values; a full row group is encoded and emitted. */
  add(row: ExportRow): void {
    this.start(row);
    this.buffered.push(this.root!.children!.map((top) => shapeExportColumn(top.name, row, this.ctx!)));
    if (this.buffered.length >= this.rowGroupRows) this.flushRowGroup();
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

  private start(first?: ExportRow): void {
    if (this.writer !== undefined) return;
    this.keyType = chooseKeyType(first?.key);
    this.userKeyType = chooseKeyType(first?.userKey);
    this.root = buildExportSchema(this.columns, this.keyType, this.userKeyType, this.options);
    this.bytes = new ByteWriter();
    const kv = this.kvMetadata;
    kv.push({ key: 'savepoint-inspector.layout', value: this.options.layout });
    if (this.options.message !== undefined) kv.push({ key: 'parquet.proto.descriptor.root', value: this.options.message.typeName });
    if (this.options.javaClass !== undefined) kv.push({ key: 'parquet.proto.class', value: this.options.javaClass });
    this.writer = new ParquetWriter({ writer: this.bytes, schema: toSchemaElements(this.root), kvMetadata: kv, createdBy: CREATED_BY });
    this.ctx = {
      keyType: this.keyType,
      userKeyType: this.userKeyType,
      layout: this.options.layout,
      valueNodes: this.options.message === undefined ? undefined : this.root.children!.find((c) => c.name === 'value')!.children!,
    };
  }

  private flushRowGroup(): void {
    this.start();
    const rows = this.buffered.splice(0, this.buffered.length);
    if (rows.length === 0) return;
    const writer = this.writer!;
    const byteWriter = this.bytes!;
    const groupStart = byteWriter.offset;
    const chunks = [];
    for (const [i, top] of this.root!.children!.entries()) {
      const values = rows.map((r) => r[i]!);
      for (const leafPath of listLeafPaths([top])) {
        const shredded = shredParquetColumn(leafPath, values);
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
      num_rows: BigInt(rows.length),
      total_compressed_size: BigInt(byteWriter.offset - groupStart),
    });
    writer.num_rows += BigInt(rows.length);
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
