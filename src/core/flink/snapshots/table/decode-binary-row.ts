/**
 * Decodes Flink's binary row format (`BinaryRowData`, and inside it `BinaryArrayData`,
 * `BinaryMapData`, nested rows) by the row's logical types. Layout (little-endian, as Flink's
 * MemorySegments on every platform it runs on):
 *
 * - row: null bits of `((arity + 63 + 8) / 64) * 8` bytes, their first byte the RowKind
 *   (0 +I, 1 -U, 2 +U, 3 -D) and field i's null bit at bit i + 8; then one 8-byte slot per field;
 *   then the variable part. A slot holds a fixed-size value (BOOLEAN, TINYINT…BIGINT, FLOAT,
 *   DOUBLE, DATE, TIME, compact DECIMAL (precision ≤ 18: the unscaled long), compact TIMESTAMP
 *   (precision ≤ 3: epoch millis)) or `offset << 32 | size` of bytes in the variable part
 *   (offsets from the row's start): strings and binaries (up to 7 bytes inline: the slot's
 *   highest byte is 0x80 | length and the bytes start at the slot), non-compact DECIMAL (the
 *   unscaled BigInteger's big-endian two's-complement bytes), non-compact TIMESTAMP (offset and
 *   the nanos of the millisecond; the variable part holds the epoch millis), ARRAY, MAP, MULTISET,
 *   ROW, RAW (the bytes its serializer wrote).
 * - array: `i32` element count, null bits in 4-byte words, elements of 1 (BOOLEAN, TINYINT),
 *   2 (SMALLINT), 4 (INT, FLOAT, DATE, TIME, INTERVAL_YEAR_MONTH) or 8 bytes, variable part
 *   (offsets from the array's start).
 * - map and multiset: `i32` byte size of the key array, the key array, the value array
 *   (a multiset maps each element to its INT count).
 */
import { strFromU8 } from 'fflate';
import { ByteReader } from '../../../io';
import type { DecodedValue, ValueCodec } from '../snapshot-types';
import { encodeBase64 } from '../../values/encode-base64';
import { formatBigDecimal } from '../../values/string-codecs';
import { formatLogicalType, type LogicalType } from './read-logical-type';
import { bigIntFromTwosComplement } from '../../values/big-int-from-twos-complement';

const ROW_KINDS = ['+I', '-U', '+U', '-D'] as const;
/** the value type of a MULTISET's map: each element's count */
const MULTISET_COUNT: LogicalType = { root: 'INTEGER', nullable: false, className: 'org.apache.flink.table.types.logical.IntType' };
const MAX_NESTING = 32;

/** How a RAW field's bytes are decoded: the codec of the serializer its RawValueDataSerializer wraps, when known. */
export type RawCodecLookup = (fieldIndex: number) => { codec?: ValueCodec; label: string } | undefined;

export interface RowShape {
  types: readonly LogicalType[];
  names: readonly string[];
  raw?: RawCodecLookup;
}

/** The bytes of one binary row: r.bytes[start, start + size). Positions in errors are r's. */
export function decodeBinaryRow(r: ByteReader, start: number, size: number, shape: RowShape): DecodedValue {
  return new BinaryDecoder(r).row(start, size, shape.types, shape.names, shape.raw, 0);
}

/** The bytes of one binary array, map or multiset (`type`'s root says which): r.bytes[start, start + size). */
export function decodeBinaryCollection(r: ByteReader, start: number, size: number, type: LogicalType): DecodedValue {
  return new BinaryDecoder(r).collection(type, start, size, 0);
}

class BinaryDecoder {
  private readonly view: DataView;
  constructor(private readonly r: ByteReader) {
    this.view = new DataView(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  }

  row(start: number, size: number, types: readonly LogicalType[], names: readonly string[], raw: RawCodecLookup | undefined, depth: number): DecodedValue {
    this.depthCheck(depth, start);
    const arity = types.length;
    const nullBytes = Math.floor((arity + 63 + 8) / 64) * 8;
    const fixed = nullBytes + 8 * arity;
    if (size < fixed)
      throw this.r.error(
        'invalid-value',
        `expected a binary row of ${arity} field${arity === 1 ? '' : 's'} to have at least ${fixed} bytes (null bits and slots), found ${size}`,
        start,
      );
    const kindByte = this.r.bytes[start]!;
    const rowKind = ROW_KINDS[kindByte];
    if (rowKind === undefined) throw this.r.error('invalid-value', `expected a RowKind byte 0–3 at the start of a binary row, found ${kindByte}`, start);
    const fields: { name: string; type: string; value: DecodedValue }[] = [];
    for (let i = 0; i < arity; i++) {
      const type = types[i]!;
      const nullByte = start + ((i + 8) >>> 3);
      const isNull = (this.r.bytes[nullByte]! & (1 << ((i + 8) & 7))) !== 0;
      // a NULL in a NOT NULL column is a corrupt row, never a value to show
      if (isNull && !type.nullable)
        throw this.r.error('invalid-value', `expected no null bit for column ${names[i] ?? `f${i}`} of type ${columnLabel(type)}, found it set`, nullByte);
      const slot = start + nullBytes + 8 * i;
      const value = isNull ? { kind: 'null' as const } : this.slot(type, start, size, slot, raw === undefined ? undefined : () => raw(i), depth);
      fields.push({ name: names[i] ?? `f${i}`, type: columnLabel(type), value });
    }
    return { kind: 'row', rowKind, fields };
  }

  /** A value whose 8-byte slot is at `slot`, in a structure of `size` bytes at `base` (offsets are from there). */
  private slot(type: LogicalType, base: number, size: number, slot: number, raw: (() => ReturnType<RawCodecLookup>) | undefined, depth: number): DecodedValue {
    const v = this.view;
    switch (type.root) {
      case 'BOOLEAN':
        return { kind: 'boolean', value: v.getUint8(slot) !== 0 };
      case 'TINYINT':
        return { kind: 'int', type: 'Byte', value: v.getInt8(slot) };
      case 'SMALLINT':
        return { kind: 'int', type: 'Short', value: v.getInt16(slot, true) };
      case 'INTEGER':
        return { kind: 'int', type: 'Int', value: v.getInt32(slot, true) };
      case 'BIGINT':
        return { kind: 'long', value: v.getBigInt64(slot, true).toString() };
      case 'FLOAT':
        return floatValue('Float', v.getFloat32(slot, true));
      case 'DOUBLE':
        return floatValue('Double', v.getFloat64(slot, true));
      case 'DATE':
        return { kind: 'other', type: 'DATE', text: formatDate(v.getInt32(slot, true)) };
      case 'TIME_WITHOUT_TIME_ZONE':
        return { kind: 'other', type: typeLabel(type), text: formatTimeOfDay(v.getInt32(slot, true)) };
      case 'INTERVAL_YEAR_MONTH':
        return { kind: 'other', type: 'INTERVAL_YEAR_MONTH', text: `${v.getInt32(slot, true)} months` };
      case 'INTERVAL_DAY_TIME':
        return { kind: 'other', type: 'INTERVAL_DAY_TIME', text: `${v.getBigInt64(slot, true).toString()} ms` };
      case 'NULL':
        return { kind: 'null' };
      case 'DISTINCT_TYPE':
        if (type.source === undefined) break;
        return this.slot(type.source, base, size, slot, raw, depth);
      case 'DECIMAL': {
        const precision = type.precision ?? 0;
        const scale = type.scale ?? 0;
        const label = typeLabel(type);
        if (precision <= 18) return { kind: 'other', type: label, text: formatBigDecimal(v.getBigInt64(slot, true), scale) };
        const bytes = this.variable(base, size, slot, label);
        return { kind: 'other', type: label, text: formatBigDecimal(bigIntFromTwosComplement(bytes), scale) };
      }
      case 'TIMESTAMP_WITHOUT_TIME_ZONE':
      case 'TIMESTAMP_WITH_LOCAL_TIME_ZONE': {
        const precision = type.precision ?? 6;
        const label = typeLabel(type);
        const local = type.root === 'TIMESTAMP_WITHOUT_TIME_ZONE';
        if (precision <= 3) return { kind: 'other', type: label, text: formatTimestamp(v.getBigInt64(slot, true), 0, precision, local) };
        const offsetAndNanos = v.getBigInt64(slot, true);
        const offset = Number(offsetAndNanos >> 32n);
        const nanos = Number(BigInt.asIntN(32, offsetAndNanos));
        if (offset < 0 || offset + 8 > size)
          throw this.r.error('invalid-value', `expected the millis of a ${label} inside the ${size}-byte structure, found offset ${offset}`, slot);
        if (nanos < 0 || nanos > 999_999)
          throw this.r.error('invalid-value', `expected the nanos of the millisecond of a ${label} (0–999999), found ${nanos}`, slot);
        return { kind: 'other', type: label, text: formatTimestamp(v.getBigInt64(base + offset, true), nanos, precision, local) };
      }
      case 'CHAR':
      case 'VARCHAR': {
        const bytes = this.variable(base, size, slot, typeLabel(type));
        return { kind: 'string', value: decodeUtf8(bytes) };
      }
      case 'BINARY':
      case 'VARBINARY': {
        const bytes = this.variable(base, size, slot, typeLabel(type));
        return { kind: 'bytes', length: bytes.length, base64: encodeBase64(bytes) };
      }
      case 'ARRAY':
      case 'MULTISET':
      case 'MAP':
      case 'ROW':
      case 'STRUCTURED_TYPE': {
        const { offset, length } = this.offsetAndSize(base, size, slot, typeLabel(type));
        return this.collection(type, base + offset, length, depth + 1);
      }
      case 'RAW': {
        const bytes = this.variable(base, size, slot, typeLabel(type));
        return this.rawValue(type, bytes, slot, raw?.());
      }
      default:
        break;
    }
    throw this.r.error(
      'unsupported-format',
      `expected a logical type of Flink's binary row format, found ${formatLogicalType(type)} (${type.className}), which this reader does not decode`,
      slot,
    );
  }

  collection(type: LogicalType, at: number, size: number, depth: number): DecodedValue {
    this.depthCheck(depth, at);
    switch (type.root) {
      case 'ROW':
      case 'STRUCTURED_TYPE': {
        const fields = type.fields ?? [];
        return this.row(
          at,
          size,
          fields.map((f) => f.type),
          fields.map((f) => f.name),
          undefined,
          depth,
        );
      }
      case 'ARRAY':
        return { kind: 'list', items: this.array(at, size, type.element, depth) };
      case 'MULTISET':
      case 'MAP': {
        const keyType = type.root === 'MAP' ? type.key : type.element;
        const valueType = type.root === 'MAP' ? type.value : MULTISET_COUNT;
        if (size < 4) throw this.r.error('invalid-value', `expected a binary map of at least 4 bytes, found ${size}`, at);
        const keyBytes = this.view.getInt32(at, true);
        if (keyBytes < 0 || keyBytes > size - 4)
          throw this.r.error('invalid-value', `expected the key array of a binary map within its ${size} bytes, found a size of ${keyBytes}`, at);
        const keys = this.array(at + 4, keyBytes, keyType, depth + 1);
        const values = this.array(at + 4 + keyBytes, size - 4 - keyBytes, valueType, depth + 1);
        if (keys.length !== values.length)
          throw this.r.error('invalid-value', `expected as many values as keys in a binary map, found ${keys.length} keys and ${values.length} values`, at);
        return { kind: 'map', entries: keys.map((key, i) => ({ key, value: values[i]! })) };
      }
      default:
        throw this.r.error('unsupported-format', `expected a nested type of Flink's binary format, found ${formatLogicalType(type)}`, at);
    }
  }

  private array(at: number, size: number, element: LogicalType | undefined, depth: number): DecodedValue[] {
    this.depthCheck(depth, at);
    if (element === undefined) throw this.r.error('invalid-value', 'expected the element type of an array, found none in its logical type', at);
    if (size < 4) throw this.r.error('invalid-value', `expected a binary array of at least 4 bytes, found ${size}`, at);
    const n = this.view.getInt32(at, true);
    const header = 4 + Math.floor((n + 31) / 32) * 4;
    const width = elementWidth(element);
    if (n < 0 || header + n * width > size)
      throw this.r.error('invalid-value', `expected ${n} elements of ${width} byte${width === 1 ? '' : 's'} within a ${size}-byte binary array`, at);
    const items: DecodedValue[] = [];
    const v = this.view;
    for (let i = 0; i < n; i++) {
      if ((this.r.bytes[at + 4 + (i >>> 3)]! & (1 << (i & 7))) !== 0) {
        items.push({ kind: 'null' });
        continue;
      }
      const p = at + header + i * width;
      if (width === 8) {
        items.push(this.slot(element, at, size, p, undefined, depth));
        continue;
      }
      switch (element.root) {
        case 'BOOLEAN':
          items.push({ kind: 'boolean', value: v.getUint8(p) !== 0 });
          break;
        case 'TINYINT':
          items.push({ kind: 'int', type: 'Byte', value: v.getInt8(p) });
          break;
        case 'SMALLINT':
          items.push({ kind: 'int', type: 'Short', value: v.getInt16(p, true) });
          break;
        case 'INTEGER':
          items.push({ kind: 'int', type: 'Int', value: v.getInt32(p, true) });
          break;
        case 'FLOAT':
          items.push(floatValue('Float', v.getFloat32(p, true)));
          break;
        case 'DATE':
          items.push({ kind: 'other', type: 'DATE', text: formatDate(v.getInt32(p, true)) });
          break;
        case 'TIME_WITHOUT_TIME_ZONE':
          items.push({ kind: 'other', type: typeLabel(element), text: formatTimeOfDay(v.getInt32(p, true)) });
          break;
        default:
          items.push({ kind: 'other', type: 'INTERVAL_YEAR_MONTH', text: `${v.getInt32(p, true)} months` });
      }
    }
    return items;
  }

  private offsetAndSize(base: number, size: number, slot: number, what: string): { offset: number; length: number } {
    const word = this.view.getBigUint64(slot, true);
    const offset = Number(word >> 32n);
    const length = Number(word & 0xffffffffn);
    if (offset + length > size)
      throw this.r.error(
        'invalid-value',
        `expected the ${length} bytes of a ${what} at offset ${offset} inside the ${size}-byte structure, found them past its end`,
        slot,
      );
    return { offset, length };
  }

  /** Bytes of a string, binary, non-compact decimal or raw value: inline in the slot (marked) or in the variable part. */
  private variable(base: number, size: number, slot: number, what: string): Uint8Array {
    const mark = this.r.bytes[slot + 7]!;
    if ((mark & 0x80) !== 0) {
      const length = mark & 0x7f;
      if (length > 7) throw this.r.error('invalid-value', `expected at most 7 bytes of a ${what} inline in its slot, found ${length}`, slot);
      return this.r.bytes.subarray(slot, slot + length);
    }
    const { offset, length } = this.offsetAndSize(base, size, slot, what);
    return this.r.bytes.subarray(base + offset, base + offset + length);
  }

  private rawValue(type: LogicalType, bytes: Uint8Array, slot: number, serializer: ReturnType<RawCodecLookup>): DecodedValue {
    const label = formatLogicalType(type);
    if (serializer?.codec === undefined) {
      return {
        kind: 'opaque',
        reason: `${label} serialized by ${serializer?.label ?? 'a serializer the snapshot does not name'}`,
        length: bytes.length,
        base64: encodeBase64(bytes),
      };
    }
    const offset = bytes.byteOffset - this.r.bytes.byteOffset;
    const sub = new ByteReader(bytes, {
      ...(this.r.file === undefined ? {} : { file: this.r.file }),
      baseOffset: this.r.baseOffset + offset,
      path: this.r.path,
    });
    const value = serializer.codec.decode(sub);
    if (!sub.atEnd)
      throw this.r.error('invalid-value', `expected the ${label} value to fill its ${bytes.length} bytes, found ${sub.remaining} left after it`, slot);
    return value;
  }

  private depthCheck(depth: number, at: number): void {
    if (depth > MAX_NESTING)
      throw this.r.error('limit-exceeded', `expected binary rows, arrays and maps nested at most ${MAX_NESTING} deep, found deeper nesting`, at);
  }
}

const COLUMN_LABELS = new WeakMap<LogicalType, string>();
const TYPE_LABELS = new WeakMap<LogicalType, string>();

/** A column's type as shown (`BIGINT NOT NULL`), made once per type of a snapshot, not once per value. */
function columnLabel(t: LogicalType): string {
  let label = COLUMN_LABELS.get(t);
  if (label === undefined) COLUMN_LABELS.set(t, (label = formatLogicalType(t)));
  return label;
}

/** A value's type without its nullability (`DECIMAL(10, 2)`), made once per type. */
function typeLabel(t: LogicalType): string {
  let label = TYPE_LABELS.get(t);
  if (label === undefined) TYPE_LABELS.set(t, (label = formatLogicalType({ ...t, nullable: true })));
  return label;
}

function elementWidth(t: LogicalType): number {
  switch (t.root) {
    case 'BOOLEAN':
    case 'TINYINT':
      return 1;
    case 'SMALLINT':
      return 2;
    case 'INTEGER':
    case 'FLOAT':
    case 'DATE':
    case 'TIME_WITHOUT_TIME_ZONE':
    case 'INTERVAL_YEAR_MONTH':
      return 4;
    case 'DISTINCT_TYPE':
      return t.source === undefined ? 8 : elementWidth(t.source);
    default:
      return 8;
  }
}

function floatValue(type: 'Float' | 'Double', x: number): DecodedValue {
  return { kind: 'float', type, value: Number.isNaN(x) ? 'NaN' : x === Infinity ? 'Infinity' : x === -Infinity ? '-Infinity' : x };
}

function decodeUtf8(bytes: Uint8Array): string {
  return strFromU8(bytes);
}

const MS_PER_DAY = 86_400_000;

function formatDate(days: number): string {
  return isoDate(new Date(days * MS_PER_DAY));
}

function isoDate(d: Date): string {
  const y = d.getUTCFullYear();
  const year = y >= 0 && y <= 9999 ? String(y).padStart(4, '0') : (y < 0 ? '-' : '+') + String(Math.abs(y)).padStart(6, '0');
  return `${year}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
}

function formatTimeOfDay(millis: number): string {
  const ms = ((millis % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
  const text = `${pad(Math.floor(ms / 3_600_000), 2)}:${pad(Math.floor(ms / 60_000) % 60, 2)}:${pad(Math.floor(ms / 1000) % 60, 2)}`;
  return ms % 1000 === 0 ? text : `${text}.${pad(ms % 1000, 3)}`;
}

/** `2024-01-02T03:04:05.123456789` with `precision` fraction digits; with a trailing `Z` for TIMESTAMP_LTZ (an instant). */
export function formatTimestamp(millis: bigint, nanoOfMilli: number, precision: number, local: boolean): string {
  const dayMs = BigInt(MS_PER_DAY);
  let days = millis / dayMs;
  let rest = millis % dayMs;
  if (rest < 0n) {
    rest += dayMs;
    days -= 1n;
  }
  const msOfDay = Number(rest);
  const date = isoDate(new Date(Number(days) * MS_PER_DAY));
  const time = `${pad(Math.floor(msOfDay / 3_600_000), 2)}:${pad(Math.floor(msOfDay / 60_000) % 60, 2)}:${pad(Math.floor(msOfDay / 1000) % 60, 2)}`;
  const fraction = `${pad(msOfDay % 1000, 3)}${pad(nanoOfMilli, 6)}`.slice(0, Math.max(0, Math.min(9, precision)));
  return `${date}T${time}${fraction === '' ? '' : `.${fraction}`}${local ? '' : 'Z'}`;
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}
