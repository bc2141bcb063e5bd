/**
 * The serializer snapshots of Flink's Table runtime (`org.apache.flink.table.runtime.typeutils`,
 * `org.apache.flink.table.dataview`; with the `StreamElementSerializer` of stream-element-snapshot.ts
 * that operators buffering records use), and the codecs of their values. Facts from Flink's sources (docs/flink-formats.md):
 *
 * - `RowDataSerializer$RowDataSerializerSnapshot` v3: `i32` field count, one Java serialization
 *   stream per field `LogicalType`, the nested-serializer delegate (one per field); v4 adds, after
 *   the types, `bool` has-field-names and that many `utf` names. Values: `i32` length + BinaryRowData.
 * - `BinaryRowDataSerializer$BinaryRowDataSerializerSnapshot`: `i32` field count only (no types).
 * - `ExternalSerializer$ExternalSerializerSnapshot`: composite; outer = the Java-serialized
 *   `DataType`; one nested serializer (the internal one) that writes the values.
 * - `StringDataSerializer`: `i32` length + UTF-8 bytes. `RawValueDataSerializer`: composite of the
 *   wrapped serializer; `i32` length + the bytes it wrote. `NullSerializer`: one byte.
 * - `DecimalDataSerializer`: `i32` precision, `i32` scale; values: the unscaled `i64` (precision ≤ 18)
 *   or `i32` length + big-endian two's-complement bytes. `TimestampDataSerializer`: `i32` precision;
 *   values: `i64` epoch millis, and (precision > 3) `i32` nanos of the millisecond.
 * - `ArrayDataSerializer` / `MapDataSerializer` (snapshot `BaseMapSerializerSnapshot`, in newer versions
 *   `MapDataSerializerSnapshot`): the element (key, value) types, then the element (key, value)
 *   serializers, each a Java serialization stream; values: `i32` length + BinaryArrayData / BinaryMapData.
 * - `SortedMapSerializerSnapshot` (retracting Top-N): the Java-serialized comparator, then the key and value
 *   serializers; values `i32` size, then per entry the key, a `bool` null flag and (unless null) the value.
 * - `LinkedListSerializer` (composite; outer version 1: no null mask, 2: a mask, ≥ 3: `bool` has-null-mask):
 *   values `i32` size, the null mask (one bit per element, most significant first, in whole bytes), the
 *   elements that are not null.
 * - the Table runtime's `TimeWindow` (`i64` start, `i64` end) and `CountWindow` (`i64` id) serializers.
 */
import { strFromU8 } from 'fflate';
import type { ByteReader } from '../../../io';
import type { DecodedValue, SerializerSnapshot, SnapshotReader, ValueCodec } from '../snapshot-types';
import { expectNestedCount, readCompositeSnapshot, readNestedSnapshots } from '../read-composite-snapshot';
import { makeComposite } from '../make-composite';
import { encodeBase64 } from '../../values/encode-base64';
import { readJavaSerializedObject } from '../../values/read-java-object-stream';
import { formatBigDecimal } from '../../values/string-codecs';
import { decodeBinaryCollection, decodeBinaryRow, formatTimestamp, type RowShape } from './decode-binary-row';
import { formatLogicalType, readDataTypeStream, readLogicalOrDataTypeStream, readLogicalTypeStream, type LogicalType } from './read-logical-type';
import { bigIntFromTwosComplement } from '../../values/big-int-from-twos-complement';
import { streamElementSnapshotReader } from './stream-element-snapshot';

const TYPEUTILS = 'org.apache.flink.table.runtime.typeutils.';
const ROW_DATA = `${TYPEUTILS}RowDataSerializer$RowDataSerializerSnapshot`;
const BINARY_ROW = `${TYPEUTILS}BinaryRowDataSerializer$BinaryRowDataSerializerSnapshot`;
const EXTERNAL = `${TYPEUTILS}ExternalSerializer$ExternalSerializerSnapshot`;
const STRING_DATA = `${TYPEUTILS}StringDataSerializer$StringDataSerializerSnapshot`;
const RAW_VALUE = `${TYPEUTILS}RawValueDataSerializer$RawValueDataSerializerSnapshot`;
const DECIMAL = `${TYPEUTILS}DecimalDataSerializer$DecimalSerializerSnapshot`;
const TIMESTAMP = `${TYPEUTILS}TimestampDataSerializer$TimestampDataSerializerSnapshot`;
const ARRAY = `${TYPEUTILS}ArrayDataSerializer$ArrayDataSerializerSnapshot`;
const MAP = `${TYPEUTILS}MapDataSerializer$BaseMapSerializerSnapshot`;
/** the same snapshot under the name newer Flink versions give it */
const MAP_DATA = `${TYPEUTILS}MapDataSerializer$MapDataSerializerSnapshot`;
const NULL = 'org.apache.flink.table.dataview.NullSerializer$NullSerializerSnapshot';
const SORTED_MAP = `${TYPEUTILS}SortedMapSerializerSnapshot`;
const LINKED_LIST = `${TYPEUTILS}LinkedListSerializer$LinkedListSerializerSnapshot`;
const TABLE_TIME_WINDOW = 'org.apache.flink.table.runtime.operators.window.TimeWindow$Serializer$TimeWindowSerializerSnapshot';
const TABLE_COUNT_WINDOW = 'org.apache.flink.table.runtime.operators.window.CountWindow$Serializer$CountWindowSerializerSnapshot';

/** Most fields a row may declare (a count above this is corruption, not a table). */
const MAX_ROW_FIELDS = 65_536;

/** `i32` length, then that many bytes read by `read` at their start; the reader ends after them. */
function readLengthPrefixed(r: ByteReader, what: string, read: (start: number, size: number) => DecodedValue): DecodedValue {
  const at = r.position;
  const size = r.readI32(`${what} length`);
  if (size < 0) throw r.error('invalid-value', `expected a non-negative ${what} length, found ${size}`, at);
  r.require(size, what);
  const start = r.position;
  const value = read(start, size);
  r.seek(start + size);
  return value;
}

function rowCodec(shape: RowShape): ValueCodec {
  return { decode: (r) => readLengthPrefixed(r, 'binary row', (start, size) => decodeBinaryRow(r, start, size, shape)) };
}

function collectionCodec(type: LogicalType, what: string): ValueCodec {
  return { decode: (r) => readLengthPrefixed(r, what, (start, size) => decodeBinaryCollection(r, start, size, type)) };
}

/** The serializer a RawValueDataSerializer snapshot wraps: its codec (when known) and label. */
function rawInner(s: SerializerSnapshot | undefined): { codec?: ValueCodec; label: string } | undefined {
  if (s === undefined || s.className !== RAW_VALUE) return undefined;
  const inner = s.nested[0];
  if (inner === undefined) return undefined;
  return { ...(inner.codec === undefined ? {} : { codec: inner.codec }), label: inner.typeLabel };
}

/** `count` Java serialization streams, each a LogicalType (or a DataType), as r advances. */
function readTypes(r: ByteReader, count: number, className: string): LogicalType[] {
  const types: LogicalType[] = [];
  for (let i = 0; i < count; i++) {
    const tr = r.withPath(`type ${i}`);
    types.push(readLogicalOrDataTypeStream(tr, `a logical type of ${shortName(className)}`));
    r.syncFrom(tr);
  }
  return types;
}

/** A Java-serialized TypeSerializer object (read to its end, for its class name). */
function readJavaSerializer(r: ByteReader, className: string): string {
  const v = readJavaSerializedObject(r, `a Java-serialized serializer of ${shortName(className)}`);
  return v.kind === 'object' ? v.className : v.kind;
}

function shortName(className: string): string {
  return className.slice(className.lastIndexOf('.') + 1);
}

function rowLabel(types: readonly LogicalType[], names: readonly string[]): string {
  return `Row<${types.map((t, i) => `${names[i] ?? `f${i}`} ${formatLogicalType(t)}`).join(', ')}>`;
}

/** RowDataSerializer (v3, v4): the row's logical types (and names), then one nested serializer per field. */
export const rowDataSnapshotReader: SnapshotReader = {
  classNames: [ROW_DATA],
  read(r, version, className, ctx) {
    if (version < 3 || version > 4) throw r.error('unsupported-version', `expected RowDataSerializerSnapshot version 3 or 4, found ${version}`);
    const at = r.position;
    const count = r.readCount('row fields', 4, MAX_ROW_FIELDS);
    // each type is parsed as r advances (a ByteReader with a path shares r's bytes, not its position)
    const types: LogicalType[] = [];
    for (let i = 0; i < count; i++) {
      const tr = r.withPath(`field ${i} type`);
      types.push(readLogicalTypeStream(tr, `the LogicalType of field ${i} of RowDataSerializerSnapshot`));
      r.syncFrom(tr);
    }
    let names: string[] = [];
    if (version >= 4 && r.readBool('has field names')) {
      for (let i = 0; i < count; i++) names.push(r.readUtf(`name of field ${i}`));
    }
    if (names.length === 0) names = types.map((_, i) => `f${i}`);
    const nested = readNestedSnapshots(r, ctx);
    expectNestedCount(r, className, nested, count, at);
    const shape: RowShape = { types, names, raw: (i) => rawInner(nested[i]) };
    const snapshot: SerializerSnapshot = {
      className,
      version,
      typeLabel: rowLabel(types, names),
      status: 'known',
      nested,
      fixedLength: -1,
      details: { fields: types.map((t, i) => ({ name: names[i]!, type: formatLogicalType(t) })) },
      codec: rowCodec(shape),
    };
    ROW_SHAPES.set(snapshot.codec!, shape);
    return snapshot;
  },
};

/** The row shape of each RowDataSerializer snapshot read, for an ExternalSerializer that knows the field names. */
const ROW_SHAPES = new WeakMap<ValueCodec, RowShape>();

/** BinaryRowDataSerializer: only the field count, so rows are delimited and shown as their bytes. */
export const binaryRowDataSnapshotReader: SnapshotReader = {
  classNames: [BINARY_ROW],
  read(r, version, className) {
    const arity = r.readCount('binary row fields', 0, MAX_ROW_FIELDS);
    const reason = `BinaryRowDataSerializer saves the field count (${arity}), not the field types`;
    const codec: ValueCodec = {
      decode: (vr) =>
        readLengthPrefixed(vr, 'binary row', (start, size) => ({
          kind: 'opaque',
          reason,
          length: size,
          base64: encodeBase64(vr.bytes.subarray(start, start + size)),
        })),
    };
    return { className, version, typeLabel: `BinaryRow(${arity} fields)`, status: 'opaque', nested: [], fixedLength: -1, details: { arity }, codec };
  },
};

/** ExternalSerializer: the Java-serialized DataType, then the internal serializer, which writes the values. */
export const externalSnapshotReader: SnapshotReader = {
  classNames: [EXTERNAL],
  read(r, version, className, ctx) {
    const at = r.position;
    const { outer: dataType, nested } = readCompositeSnapshot(r, version, ctx, (o) => {
      const type = readDataTypeStream(o, 'the DataType of ExternalSerializerSnapshot');
      // Written by the Flink versions of the real Table savepoints (not by every version's source):
      // one `bool` after the DataType, before the nested-serializers delegate.
      if (!startsWithNestedMagic(o, 0) && (o.peekU8() === 0 || o.peekU8() === 1) && startsWithNestedMagic(o, 1)) o.readBool('ExternalSerializer flag');
      return type;
    });
    expectNestedCount(r, className, nested, 1, at);
    const inner = nested[0]!;
    // a ROW's field names live in the DataType; the internal RowDataSerializer (v3) has only the types
    const shape = inner.codec === undefined ? undefined : ROW_SHAPES.get(inner.codec);
    const names = dataType.root === 'ROW' ? dataType.fields?.map((f) => f.name) : undefined;
    const codec = shape !== undefined && names !== undefined && names.length === shape.types.length ? rowCodec({ ...shape, names }) : inner.codec;
    return {
      className,
      version,
      typeLabel: `External ${formatLogicalType(dataType)}`,
      status: inner.status,
      nested,
      fixedLength: inner.fixedLength,
      details: { dataType: formatLogicalType(dataType) },
      ...(codec === undefined ? {} : { codec }),
    };
  },
};

const stringDataCodec: ValueCodec = {
  decode: (r) => readLengthPrefixed(r, 'StringData', (start, size) => ({ kind: 'string', value: strFromU8(r.bytes.subarray(start, start + size)) })),
};

function simple(className: string, typeLabel: string, fixedLength: number, codec: ValueCodec): SnapshotReader {
  return { classNames: [className], read: (_r, version) => ({ className, version, typeLabel, status: 'known', nested: [], fixedLength, codec }) };
}

export const stringDataSnapshotReader = simple(STRING_DATA, 'StringData', -1, stringDataCodec);
export const nullSnapshotReader = simple(NULL, 'Null', 1, {
  decode(r) {
    r.readU8('NullSerializer byte');
    return { kind: 'null' };
  },
});
export const tableTimeWindowSnapshotReader = simple(TABLE_TIME_WINDOW, 'TimeWindow', 16, {
  decode(r) {
    const start = r.readI64('TimeWindow start').toString();
    return { kind: 'time-window', start, end: r.readI64('TimeWindow end').toString() };
  },
});
export const tableCountWindowSnapshotReader = simple(TABLE_COUNT_WINDOW, 'CountWindow', 8, {
  decode: (r) => ({
    kind: 'pojo',
    className: 'org.apache.flink.table.runtime.operators.window.CountWindow',
    fields: [{ name: 'id', value: { kind: 'long', value: r.readI64('CountWindow id').toString() } }],
  }),
});

/** RawValueDataSerializer: `i32` length + the bytes the wrapped serializer wrote (decoded by it when known). */
export const rawValueSnapshotReader: SnapshotReader = {
  classNames: [RAW_VALUE],
  read(r, version, className, ctx) {
    const at = r.position;
    const { nested } = readCompositeSnapshot(r, version, ctx, () => undefined);
    expectNestedCount(r, className, nested, 1, at);
    const inner = nested[0]!;
    const codec: ValueCodec = {
      decode: (vr) =>
        readLengthPrefixed(vr, 'RAW value', (start, size) => {
          if (inner.codec === undefined)
            return {
              kind: 'opaque',
              reason: `RAW value serialized by ${inner.typeLabel}`,
              length: size,
              base64: encodeBase64(vr.bytes.subarray(start, start + size)),
            };
          const sub = vr.subReader(size, 'RAW value');
          const value = inner.codec.decode(sub);
          if (!sub.atEnd)
            throw sub.error('invalid-value', `expected the RAW value of ${inner.typeLabel} to fill its ${size} bytes, found ${sub.remaining} left after it`);
          return value;
        }),
    };
    return { className, version, typeLabel: `RAW<${inner.typeLabel}>`, status: 'known', nested, fixedLength: -1, codec };
  },
};

/** DecimalDataSerializer: precision and scale; compact (≤ 18 digits) values are the unscaled long. */
export const decimalDataSnapshotReader: SnapshotReader = {
  classNames: [DECIMAL],
  read(r, version, className) {
    const precision = r.readI32('decimal precision');
    const scale = r.readI32('decimal scale');
    const label = `DECIMAL(${precision}, ${scale})`;
    const codec: ValueCodec = {
      decode(vr): DecodedValue {
        if (precision <= 18) return { kind: 'other', type: label, text: formatBigDecimal(vr.readI64('compact decimal'), scale) };
        return readLengthPrefixed(vr, 'decimal bytes', (start, size) => ({
          kind: 'other',
          type: label,
          text: formatBigDecimal(bigIntFromTwosComplement(vr.bytes.subarray(start, start + size)), scale),
        }));
      },
    };
    return { className, version, typeLabel: label, status: 'known', nested: [], fixedLength: precision <= 18 ? 8 : -1, details: { precision, scale }, codec };
  },
};

/** TimestampDataSerializer: precision; values epoch millis (+ nanos of the millisecond above precision 3). */
export const timestampDataSnapshotReader: SnapshotReader = {
  classNames: [TIMESTAMP],
  read(r, version, className) {
    const precision = r.readI32('timestamp precision');
    const label = `TIMESTAMP(${precision})`;
    const codec: ValueCodec = {
      decode(vr): DecodedValue {
        const millis = vr.readI64('timestamp millis');
        const nanos = precision > 3 ? vr.readI32('timestamp nanos of millisecond') : 0;
        return { kind: 'other', type: label, text: formatTimestamp(millis, nanos, precision, true) };
      },
    };
    return { className, version, typeLabel: label, status: 'known', nested: [], fixedLength: precision > 3 ? 12 : 8, details: { precision }, codec };
  },
};

/** ArrayDataSerializer: the element's type, then the element serializer, both Java-serialized; values are BinaryArrayData. */
export const arrayDataSnapshotReader: SnapshotReader = {
  classNames: [ARRAY],
  read(r, version, className) {
    const [element] = readTypes(r, 1, className);
    const elementSerializer = readJavaSerializer(r, className);
    const type: LogicalType = { root: 'ARRAY', nullable: true, className: 'org.apache.flink.table.types.logical.ArrayType', element: element! };
    return {
      className,
      version,
      typeLabel: formatLogicalType(type),
      status: 'known',
      nested: [],
      fixedLength: -1,
      details: { elementSerializer },
      codec: collectionCodec(type, 'binary array'),
    };
  },
};

/** MapDataSerializer: key and value types, then key and value serializers, all Java-serialized; values are BinaryMapData. */
export const mapDataSnapshotReader: SnapshotReader = {
  classNames: [MAP, MAP_DATA],
  read(r, version, className) {
    const [key, value] = readTypes(r, 2, className);
    const keySerializer = readJavaSerializer(r, className);
    const valueSerializer = readJavaSerializer(r, className);
    const type: LogicalType = { root: 'MAP', nullable: true, className: 'org.apache.flink.table.types.logical.MapType', key: key!, value: value! };
    return {
      className,
      version,
      typeLabel: formatLogicalType(type),
      status: 'known',
      nested: [],
      fixedLength: -1,
      details: { keySerializer, valueSerializer },
      codec: collectionCodec(type, 'binary map'),
    };
  },
};

/** SortedMapSerializer: the comparator (a Java serialization stream, read to its end), then key and value serializers. */
export const sortedMapSnapshotReader: SnapshotReader = {
  classNames: [SORTED_MAP],
  read(r, version, className, ctx) {
    const at = r.position;
    const comparator = readJavaSerializedObject(r, 'the comparator of SortedMapSerializerSnapshot');
    const nested = readNestedSnapshots(r, ctx);
    expectNestedCount(r, className, nested, 2, at);
    const comparatorClass = comparator.kind === 'object' ? comparator.className : comparator.kind;
    return makeComposite(
      className,
      version,
      nested,
      `SortedMap<${nested[0]!.typeLabel}, ${nested[1]!.typeLabel}>`,
      -1,
      (vr, [key, value], mode): DecodedValue => {
        const n = vr.readCount('sorted map entries', 2);
        const entries: { key: DecodedValue; value: DecodedValue }[] = [];
        for (let i = 0; i < n; i++) {
          const k = key!.decode(vr, mode);
          entries.push({ key: k, value: vr.readBool('sorted map value null flag') ? { kind: 'null' } : value!.decode(vr, mode) });
        }
        return { kind: 'map', entries };
      },
      { comparator: comparatorClass },
    );
  },
};

/** LinkedListSerializer: size, an optional null mask (as Flink's MaskUtils writes it), the non-null elements. */
export const linkedListSnapshotReader: SnapshotReader = {
  classNames: [LINKED_LIST],
  read(r, version, className, ctx) {
    const at = r.position;
    const { outer: hasNullMask, nested } = readCompositeSnapshot(r, version, ctx, (o, outerVersion) =>
      outerVersion < 2 ? false : outerVersion === 2 ? true : o.readBool('has null mask'),
    );
    expectNestedCount(r, className, nested, 1, at);
    return makeComposite(
      className,
      version,
      nested,
      `LinkedList<${nested[0]!.typeLabel}>`,
      -1,
      (vr, [element], mode): DecodedValue => {
        const n = vr.readCount('linked list elements', hasNullMask ? 0 : 1);
        const mask = hasNullMask ? vr.readBytes(Math.ceil(n / 8), 'linked list null mask') : undefined;
        const items: DecodedValue[] = [];
        for (let i = 0; i < n; i++)
          items.push(mask !== undefined && (mask[i >>> 3]! & (0x80 >>> (i & 7))) !== 0 ? { kind: 'null' } : element!.decode(vr, mode));
        return { kind: 'list', items };
      },
      { hasNullMask },
    );
  },
};

export const TABLE_SNAPSHOT_READERS: readonly SnapshotReader[] = [
  rowDataSnapshotReader,
  binaryRowDataSnapshotReader,
  externalSnapshotReader,
  stringDataSnapshotReader,
  rawValueSnapshotReader,
  nullSnapshotReader,
  decimalDataSnapshotReader,
  timestampDataSnapshotReader,
  arrayDataSnapshotReader,
  mapDataSnapshotReader,
  streamElementSnapshotReader,
  sortedMapSnapshotReader,
  linkedListSnapshotReader,
  tableTimeWindowSnapshotReader,
  tableCountWindowSnapshotReader,
];

/** Whether the 4 bytes `from` bytes ahead are NestedSerializersSnapshotDelegate's magic (1333245). */
function startsWithNestedMagic(r: ByteReader, from: number): boolean {
  return [0x00, 0x14, 0x57, 0xfd].every((b, i) => r.peekU8(from + i) === b);
}
