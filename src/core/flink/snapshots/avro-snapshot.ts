/**
 * flink-avro's AvroSerializerSnapshot (`org.apache.flink.formats.avro.typeutils.AvroSerializerSnapshot`):
 * version 1 `utf` writer schema; version 2 `utf` runtime class, `utf` writer schema; version 3 (Flink 1.20 writes
 * it) the runtime class and the writer schema as Flink StringValues (varint length + 1, then each UTF-16 unit as a
 * varint: no 64 KiB limit). Values are written by Avro's
 * DatumWriter through Flink's DataOutputEncoder, which is not Avro's binary encoding: int, enum index and union
 * index are big-endian i32, long i64, float/double IEEE big-endian, boolean one byte, bytes and string an i32
 * length then the bytes (UTF-8), fixed its bytes, arrays and maps blocks of a varint count (7 bits a byte, low
 * first) closed by a 0 byte, records their fields in order. Decoded with the saved writer schema: records as POJO-like
 * values named by the record's full name, enums by symbol, unions as the branch's value. Schema evolution (a new
 * Avro schema) is not checked.
 */
import type { ByteReader } from '../../io';
import { encodeBase64 } from '../values/encode-base64';
import { describeAvroType, parseAvroSchema, type AvroType } from './avro-schema';
import type { DecodedValue, SerializerSnapshot, SnapshotReader, ValueCodec } from './snapshot-types';

export const AVRO_SNAPSHOT = 'org.apache.flink.formats.avro.typeutils.AvroSerializerSnapshot';
const GENERIC_RECORD = 'org.apache.avro.generic.GenericRecord';
/** Nesting limit of decoded values (recursive schemas). */
const MAX_AVRO_DEPTH = 64;

export const avroSnapshotReader: SnapshotReader = {
  classNames: [AVRO_SNAPSHOT],
  read(r, version, className) {
    if (version < 1 || version > 3) throw r.error('unsupported-version', `expected ${className} version 1, 2 or 3, found ${version}`);
    const runtimeType = version === 1 ? undefined : version === 2 ? r.readUtf('Avro runtime class') : (r.readStringValue('Avro runtime class') ?? undefined);
    const schemaAt = r.absolutePosition;
    const schemaText = version === 3 ? r.readStringValue('Avro writer schema') : r.readUtf('Avro writer schema');
    if (schemaText === null) throw r.error('invalid-value', 'expected the Avro writer schema, found a null string');
    let schema: AvroType | undefined;
    let schemaError: string | undefined;
    try {
      schema = parseAvroSchema(schemaText);
    } catch (e) {
      schemaError = (e as Error).message;
    }
    const name = schema ? describeAvroType(schema) : 'unparsed schema';
    const generic = runtimeType === undefined || runtimeType === GENERIC_RECORD;
    const snapshot: SerializerSnapshot = {
      className,
      version,
      typeLabel: generic ? `Avro ${name}` : `Avro ${name} (${runtimeType})`,
      status: schema ? 'known' : 'opaque',
      nested: [],
      fixedLength: -1,
      details: {
        format: 'avro',
        recordName: name,
        runtimeType: runtimeType ?? null,
        record: generic ? 'generic' : 'specific or reflect',
        schema: schemaText,
        schemaOffset: schemaAt,
        schemaEvolution: 'not checked: the compatibility rules of a new Avro schema are out of scope',
        ...(schemaError ? { schemaError } : {}),
      },
    };
    if (schema) snapshot.codec = createAvroCodec(schema);
    return snapshot;
  },
};

/** The codec of values written with `schema` by Flink's AvroSerializer. */
export function createAvroCodec(schema: AvroType): ValueCodec {
  return { decode: (r) => readAvro(r, schema, 0) };
}

function readBlockCount(r: ByteReader, what: string): number {
  let result = 0;
  let shift = 0;
  for (let i = 0; i < 10; i++) {
    const b = r.readU8(`block count of ${what}`);
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) {
      if (result > r.remaining) throw r.error('invalid-value', `expected at most ${r.remaining} items in a block of ${what}, found a count of ${result}`);
      return result;
    }
    shift += 7;
  }
  throw r.error('invalid-value', `expected a block count of ${what} of at most 10 bytes, found a longer one`);
}

function readLengthPrefixed(r: ByteReader, what: string): Uint8Array {
  const at = r.position;
  const n = r.readI32(`length of ${what}`);
  if (n < 0 || n > r.remaining)
    throw r.error(n < 0 ? 'invalid-value' : 'truncated', `expected 0 to ${r.remaining} bytes of ${what}, found a length of ${n}`, at);
  return r.readBytes(n, what);
}

const UTF8 = new TextDecoder('utf-8', { fatal: false });

function floatValue(type: 'Float' | 'Double', v: number): DecodedValue {
  if (Number.isNaN(v)) return { kind: 'float', type, value: 'NaN' };
  if (v === Infinity || v === -Infinity) return { kind: 'float', type, value: v > 0 ? 'Infinity' : '-Infinity' };
  return { kind: 'float', type, value: v };
}

function readAvro(r: ByteReader, t: AvroType, depth: number): DecodedValue {
  if (depth > MAX_AVRO_DEPTH) throw r.error('limit-exceeded', `expected Avro values nested at most ${MAX_AVRO_DEPTH} deep, found deeper nesting`);
  switch (t.type) {
    case 'null':
      return { kind: 'null' };
    case 'boolean': {
      const at = r.position;
      const b = r.readU8('Avro boolean');
      if (b > 1) throw r.error('invalid-value', `expected an Avro boolean 0 or 1, found ${b}`, at);
      return { kind: 'boolean', value: b === 1 };
    }
    case 'int':
      return { kind: 'int', type: 'Int', value: r.readI32('Avro int') };
    case 'long':
      return { kind: 'long', value: r.readI64('Avro long').toString() };
    case 'float':
      return floatValue('Float', r.readF32('Avro float'));
    case 'double':
      return floatValue('Double', r.readF64('Avro double'));
    case 'string':
      return { kind: 'string', value: UTF8.decode(readLengthPrefixed(r, 'Avro string')) };
    case 'bytes': {
      const b = readLengthPrefixed(r, 'Avro bytes');
      return { kind: 'bytes', length: b.length, base64: encodeBase64(b) };
    }
    case 'fixed': {
      const b = r.readBytes(t.size, `Avro fixed ${t.name}`);
      return { kind: 'bytes', length: b.length, base64: encodeBase64(b) };
    }
    case 'enum': {
      const at = r.position;
      const ordinal = r.readI32(`Avro enum ${t.name}`);
      const name = t.symbols[ordinal];
      if (name === undefined) throw r.error('invalid-value', `expected a symbol index of Avro enum ${t.name} below ${t.symbols.length}, found ${ordinal}`, at);
      return { kind: 'enum', className: t.name, ordinal, name };
    }
    case 'union': {
      const at = r.position;
      const index = r.readI32('Avro union branch');
      const branch = t.branches[index];
      if (branch === undefined) throw r.error('invalid-value', `expected an Avro union branch below ${t.branches.length}, found ${index}`, at);
      return readAvro(r, branch, depth + 1);
    }
    case 'array': {
      const items: DecodedValue[] = [];
      for (let n = readBlockCount(r, 'an Avro array'); n > 0; n = readBlockCount(r, 'an Avro array'))
        for (let i = 0; i < n; i++) items.push(readAvro(r, t.items, depth + 1));
      return { kind: 'list', items };
    }
    case 'map': {
      const entries: { key: DecodedValue; value: DecodedValue }[] = [];
      for (let n = readBlockCount(r, 'an Avro map'); n > 0; n = readBlockCount(r, 'an Avro map'))
        for (let i = 0; i < n; i++) {
          const key: DecodedValue = { kind: 'string', value: UTF8.decode(readLengthPrefixed(r, 'Avro map key')) };
          entries.push({ key, value: readAvro(r, t.values, depth + 1) });
        }
      return { kind: 'map', entries };
    }
    case 'record':
      return { kind: 'pojo', className: t.name, fields: t.fields.map((f) => ({ name: f.name, value: readAvro(r, f.type, depth + 1) })) };
  }
}
