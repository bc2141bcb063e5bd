/**
 * The Table runtime's snapshots and values, byte by byte: snapshots as Flink writes them (LogicalTypes
 * as Java serialization streams, written here by a small ObjectOutputStream-compatible writer) and
 * binary rows as Flink's BinaryRowWriter lays them out (null bits, little-endian 8-byte slots, a
 * variable part in 8-byte words).
 */
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, isDecodeError, type DecodeError } from '../../../io';
import { createSnapshotRegistry, type DecodedValue, type SerializerSnapshot } from '../../index';
import { readSerializerSnapshot } from '../read-serializer-snapshot';

const registry = createSnapshotRegistry();
const LOGICAL = 'org.apache.flink.table.types.logical.';
const TYPEUTILS = 'org.apache.flink.table.runtime.typeutils.';
const LONG_SNAPSHOT = 'org.apache.flink.api.common.typeutils.base.LongSerializer$LongSerializerSnapshot';

// ---- a minimal Java serialization writer (no back-references: every class descriptor is written anew) ----

type JField = { type: 'Z' | 'I'; name: string; value: number | boolean } | { type: 'L'; name: string; sig: string; value: (w: ByteWriter) => void };
interface JClass {
  name: string;
  flags?: number;
  fields: JField[];
  /** what writeObject wrote after the fields */
  annotation?: (w: ByteWriter) => void;
}

function classDesc(w: ByteWriter, chain: JClass[]): void {
  const [c, ...supers] = chain;
  if (c === undefined) {
    w.u8(0x70);
    return;
  }
  w.u8(0x72)
    .utf(c.name)
    .i64(1n)
    .u8(c.flags ?? 0x02)
    .i16(c.fields.length);
  for (const f of c.fields) {
    w.u8(f.type.charCodeAt(0)).utf(f.name);
    if (f.type === 'L') w.u8(0x74).utf(f.sig);
  }
  w.u8(0x78);
  classDesc(w, supers);
}

/** TC_OBJECT of a class chain (subclass first); field values are written superclass first. */
function object(w: ByteWriter, chain: JClass[]): void {
  w.u8(0x73);
  classDesc(w, chain);
  for (const c of [...chain].reverse()) {
    for (const f of c.fields) {
      if (f.type === 'Z') w.bool(f.value as boolean);
      else if (f.type === 'I') w.i32(f.value as number);
      else if (typeof f.value === 'function') f.value(w);
    }
    if (c.annotation) {
      c.annotation(w);
      w.u8(0x78);
    }
  }
}

function enumConstant(w: ByteWriter, className: string, constant: string): void {
  w.u8(0x7e);
  classDesc(w, [
    { name: className, flags: 0x12, fields: [] },
    { name: 'java.lang.Enum', flags: 0x12, fields: [] },
  ]);
  w.u8(0x74).utf(constant);
}

type TypeSpec = { cls: string; root: string; nullable?: boolean; fields?: JField[] };

function logicalType(w: ByteWriter, t: TypeSpec): void {
  object(w, [
    { name: `${LOGICAL}${t.cls}`, fields: t.fields ?? [] },
    {
      name: `${LOGICAL}LogicalType`,
      fields: [
        { type: 'Z', name: 'isNullable', value: t.nullable ?? true },
        {
          type: 'L',
          name: 'typeRoot',
          sig: `L${LOGICAL.replace(/\./g, '/')}LogicalTypeRoot;`,
          value: (x) => enumConstant(x, `${LOGICAL}LogicalTypeRoot`, t.root),
        },
      ],
    },
  ]);
}

const TYPE_SIG = `L${LOGICAL.replace(/\./g, '/')}LogicalType;`;
const nested = (name: string, t: TypeSpec): JField => ({ type: 'L', name, sig: TYPE_SIG, value: (w) => logicalType(w, t) });
const int = (name: string, value: number): JField => ({ type: 'I', name, value });

const T = {
  boolean: { cls: 'BooleanType', root: 'BOOLEAN' },
  tinyint: { cls: 'TinyIntType', root: 'TINYINT' },
  smallint: { cls: 'SmallIntType', root: 'SMALLINT' },
  int: { cls: 'IntType', root: 'INTEGER' },
  bigint: { cls: 'BigIntType', root: 'BIGINT', nullable: false },
  float: { cls: 'FloatType', root: 'FLOAT' },
  double: { cls: 'DoubleType', root: 'DOUBLE' },
  decimal: (p: number, s: number) => ({ cls: 'DecimalType', root: 'DECIMAL', fields: [int('precision', p), int('scale', s)] }),
  char: (n: number) => ({ cls: 'CharType', root: 'CHAR', fields: [int('length', n)] }),
  varchar: (n: number) => ({ cls: 'VarCharType', root: 'VARCHAR', fields: [int('length', n)] }),
  varbinary: (n: number) => ({ cls: 'VarBinaryType', root: 'VARBINARY', fields: [int('length', n)] }),
  date: { cls: 'DateType', root: 'DATE' },
  time: { cls: 'TimeType', root: 'TIME_WITHOUT_TIME_ZONE', fields: [int('precision', 0)] },
  timestamp: (p: number) => ({ cls: 'TimestampType', root: 'TIMESTAMP_WITHOUT_TIME_ZONE', fields: [int('precision', p)] }),
  ltz: (p: number) => ({ cls: 'LocalZonedTimestampType', root: 'TIMESTAMP_WITH_LOCAL_TIME_ZONE', fields: [int('precision', p)] }),
  zoned: { cls: 'ZonedTimestampType', root: 'TIMESTAMP_WITH_TIME_ZONE', fields: [int('precision', 3)] },
  array: (e: TypeSpec) => ({ cls: 'ArrayType', root: 'ARRAY', fields: [nested('elementType', e)] }),
  multiset: (e: TypeSpec) => ({ cls: 'MultisetType', root: 'MULTISET', fields: [nested('elementType', e)] }),
  map: (k: TypeSpec, v: TypeSpec) => ({ cls: 'MapType', root: 'MAP', fields: [nested('keyType', k), nested('valueType', v)] }),
  row: (fields: [string, TypeSpec][]) => ({
    cls: 'RowType',
    root: 'ROW',
    fields: [
      {
        type: 'L' as const,
        name: 'fields',
        sig: 'Ljava/util/List;',
        // Collections.unmodifiableList(new ArrayList<>(fields)): the wrapper's `c` and `list` name the same ArrayList (written twice here, without back-references)
        value: (w: ByteWriter) =>
          object(w, [
            {
              name: 'java.util.Collections$UnmodifiableList',
              fields: [{ type: 'L', name: 'list', sig: 'Ljava/util/List;', value: (x) => arrayList(x, fields) }],
            },
            {
              name: 'java.util.Collections$UnmodifiableCollection',
              fields: [{ type: 'L', name: 'c', sig: 'Ljava/util/Collection;', value: (x) => arrayList(x, fields) }],
            },
          ]),
      },
    ],
  }),
} satisfies Record<string, TypeSpec | ((...a: never[]) => TypeSpec)>;

function arrayList(w: ByteWriter, fields: [string, TypeSpec][]): void {
  object(w, [
    {
      name: 'java.util.ArrayList',
      flags: 0x03,
      fields: [int('size', fields.length)],
      annotation: (x) => {
        x.u8(0x77).u8(4).i32(fields.length);
        for (const [name, type] of fields) {
          object(x, [
            {
              name: `${LOGICAL}RowType$RowField`,
              fields: [
                { type: 'L', name: 'description', sig: 'Ljava/lang/String;', value: (y) => y.u8(0x70) },
                { type: 'L', name: 'name', sig: 'Ljava/lang/String;', value: (y) => y.u8(0x74).utf(name) },
                nested('type', type),
              ],
            },
          ]);
        }
      },
    },
  ]);
}

/** A RowDataSerializerSnapshot (proxy version 2, class name, version) with a LongSerializer as every nested serializer. */
function rowSnapshot(types: TypeSpec[], version = 3, names?: string[]): Uint8Array {
  const w = new ByteWriter().i32(2).utf(`${TYPEUTILS}RowDataSerializer$RowDataSerializerSnapshot`).i32(version).i32(types.length);
  for (const t of types) {
    w.u16(0xaced).u16(5);
    logicalType(w, t);
  }
  if (version >= 4) {
    w.bool(names !== undefined);
    for (const n of names ?? []) w.utf(n);
  }
  w.i32(1333245).i32(1).i32(types.length);
  for (let i = 0; i < types.length; i++) w.utf(LONG_SNAPSHOT).i32(3);
  return w.finish();
}

function readSnapshot(bytes: Uint8Array): SerializerSnapshot {
  const r = new ByteReader(bytes, { file: 'f' });
  const s = readSerializerSnapshot(r, registry);
  expect(r.remaining).toBe(0);
  return s;
}

// ---- a BinaryRowWriter-compatible row builder ----

class Binary {
  private readonly fixed: number;
  private bytes: number[];
  constructor(
    readonly slots: number,
    private readonly header: number,
    private readonly width = 8,
  ) {
    this.fixed = header + slots * width;
    this.bytes = Array(Math.ceil(this.fixed / 8) * 8).fill(0);
  }
  static row(arity: number, kind = 0): Binary {
    const b = new Binary(arity, Math.floor((arity + 63 + 8) / 64) * 8);
    b.bytes[0] = kind;
    return b;
  }
  static array(n: number, width: number): Binary {
    const b = new Binary(n, 4 + Math.floor((n + 31) / 32) * 4, width);
    b.le(0, 4, BigInt(n));
    return b;
  }
  private slot(i: number): number {
    return this.header + i * this.width;
  }
  private le(at: number, n: number, v: bigint): void {
    for (let k = 0; k < n; k++) this.bytes[at + k] = Number((BigInt.asUintN(64, v) >> BigInt(8 * k)) & 0xffn);
  }
  null(i: number, rowBits = true): this {
    const bit = rowBits ? i + 8 : i;
    const at = rowBits ? bit >>> 3 : 4 + (bit >>> 3);
    this.bytes[at]! |= 1 << (bit & 7);
    return this;
  }
  fixedValue(i: number, v: bigint | number, n = this.width): this {
    this.le(this.slot(i), n, BigInt(v));
    return this;
  }
  f64(i: number, v: number): this {
    const b = new Uint8Array(new Float64Array([v]).buffer);
    b.forEach((x, k) => (this.bytes[this.slot(i) + k] = x));
    return this;
  }
  f32(i: number, v: number): this {
    const b = new Uint8Array(new Float32Array([v]).buffer);
    b.forEach((x, k) => (this.bytes[this.slot(i) + k] = x));
    return this;
  }
  /** up to 7 bytes inline in the slot (highest byte 0x80 | length), else in the variable part */
  data(i: number, data: readonly number[] | Uint8Array, inline = true): this {
    if (inline && data.length <= 7) {
      [...data].forEach((x, k) => (this.bytes[this.slot(i) + k] = x));
      this.bytes[this.slot(i) + 7] = 0x80 | data.length;
      return this;
    }
    return this.variable(i, data, BigInt(data.length));
  }
  /** appends `data` (padded to 8-byte words) and sets the slot to offset << 32 | low */
  variable(i: number, data: readonly number[] | Uint8Array, low: bigint): this {
    const offset = this.bytes.length;
    this.bytes.push(...data, ...Array((8 - (data.length % 8)) % 8).fill(0));
    this.le(this.slot(i), 8, (BigInt(offset) << 32n) | low);
    return this;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

const utf8 = (s: string) => [...new TextEncoder().encode(s)];
const lengthPrefixed = (b: Uint8Array) => new ByteWriter().i32(b.length).bytes(b).finish();

function decodeValue(s: SerializerSnapshot, bytes: Uint8Array): DecodedValue {
  const r = new ByteReader(bytes, { file: 'v' });
  const v = s.codec!.decode(r);
  expect(r.remaining).toBe(0);
  return v;
}

function columns(v: DecodedValue): unknown {
  if (v.kind === 'row') return [v.rowKind, ...v.fields.map((f) => [f.name, f.type, columns(f.value)])];
  if (v.kind === 'list') return v.items.map(columns);
  if (v.kind === 'map') return v.entries.map((e) => [columns(e.key), columns(e.value)]);
  if (v.kind === 'null') return null;
  if (v.kind === 'other') return `${v.type}: ${v.text}`;
  if (v.kind === 'bytes') return `bytes ${v.base64}`;
  return 'value' in v ? v.value : v.kind;
}

function errorOf(f: () => unknown): DecodeError {
  try {
    f();
  } catch (e) {
    if (isDecodeError(e)) return e;
    throw e;
  }
  throw new Error('expected a DecodeError');
}

describe('RowDataSerializerSnapshot', () => {
  it('reads the field types from their Java serialization streams (v3: unnamed columns f0, f1, …)', () => {
    const s = readSnapshot(
      rowSnapshot([
        T.bigint,
        T.varchar(2147483647),
        T.decimal(10, 2),
        T.timestamp(3),
        T.array(T.int),
        T.map(T.varchar(10), T.double),
        T.row([
          ['x', T.int],
          ['y', T.varchar(5)],
        ]),
      ]),
    );
    expect([s.status, s.version, s.nested.length, s.fixedLength]).toEqual(['known', 3, 7, -1]);
    expect(s.typeLabel).toBe(
      'Row<f0 BIGINT NOT NULL, f1 VARCHAR(2147483647), f2 DECIMAL(10, 2), f3 TIMESTAMP(3), f4 ARRAY<INT>, f5 MAP<VARCHAR(10), DOUBLE>, f6 ROW<x INT, y VARCHAR(5)>>',
    );
  });

  it('v4 carries the field names', () => {
    const s = readSnapshot(rowSnapshot([T.int, T.varchar(3)], 4, ['id', 'name']));
    expect(s.typeLabel).toBe('Row<id INT, name VARCHAR(3)>');
    expect(decodeValue(s, lengthPrefixed(Binary.row(2).fixedValue(0, 7).data(1, utf8('abc')).finish()))).toEqual({
      kind: 'row',
      rowKind: '+I',
      fields: [
        { name: 'id', type: 'INT', value: { kind: 'int', type: 'Int', value: 7 } },
        { name: 'name', type: 'VARCHAR(3)', value: { kind: 'string', value: 'abc' } },
      ],
    });
  });

  it('decodes every fixed-size type from its little-endian slot, nulls from the null bits, and the RowKind', () => {
    const types = [T.boolean, T.tinyint, T.smallint, T.int, T.bigint, T.float, T.double, T.date, T.time, T.decimal(18, 3), T.timestamp(3), T.ltz(0), T.int];
    const s = readSnapshot(rowSnapshot(types));
    const row = Binary.row(types.length, 2)
      .fixedValue(0, 1, 1)
      .fixedValue(1, -5, 1)
      .fixedValue(2, -300, 2)
      .fixedValue(3, 123456, 4)
      .fixedValue(4, -(2n ** 62n))
      .f32(5, 1.5)
      .f64(6, -0.25)
      .fixedValue(7, 19_000, 4) // days since 1970-01-01
      .fixedValue(8, 45_296_789, 4) // millis of the day
      .fixedValue(9, -123_456_789n) // unscaled, scale 3
      .fixedValue(10, 1_700_000_000_123n)
      .fixedValue(11, -1_000n)
      .null(12)
      .finish();
    expect(columns(decodeValue(s, lengthPrefixed(row)))).toEqual([
      '+U',
      ['f0', 'BOOLEAN', true],
      ['f1', 'TINYINT', -5],
      ['f2', 'SMALLINT', -300],
      ['f3', 'INT', 123456],
      ['f4', 'BIGINT NOT NULL', '-4611686018427387904'],
      ['f5', 'FLOAT', 1.5],
      ['f6', 'DOUBLE', -0.25],
      ['f7', 'DATE', 'DATE: 2022-01-08'],
      ['f8', 'TIME(0)', 'TIME(0): 12:34:56.789'],
      ['f9', 'DECIMAL(18, 3)', 'DECIMAL(18, 3): -123456.789'],
      ['f10', 'TIMESTAMP(3)', 'TIMESTAMP(3): 2023-11-14T22:13:20.123'],
      ['f11', 'TIMESTAMP_LTZ(0)', 'TIMESTAMP_LTZ(0): 1969-12-31T23:59:59Z'],
      ['f12', 'INT', null],
    ]);
  });

  it('decodes the variable part: inline and long strings, binaries, non-compact DECIMAL and TIMESTAMP', () => {
    const types = [T.char(3), T.varchar(100), T.varbinary(10), T.varbinary(100), T.decimal(38, 2), T.decimal(20, 0), T.timestamp(9), T.ltz(6), T.varchar(1)];
    const s = readSnapshot(rowSnapshot(types));
    const unscaled = -(10n ** 30n) - 5n; // two's complement, big-endian, as BigInteger.toByteArray
    const hex = BigInt.asUintN(104, unscaled).toString(16).padStart(26, '0');
    const decimalBytes = hex.match(/../g)!.map((h) => parseInt(h, 16));
    const row = Binary.row(types.length)
      .data(0, utf8('äb'))
      .data(1, utf8('a string longer than seven bytes'))
      .data(2, [1, 2, 3])
      .data(3, [...Array(9).keys()])
      .variable(4, decimalBytes, BigInt(decimalBytes.length))
      .variable(5, [0x00], 1n)
      .variable(6, [...new Uint8Array(new BigInt64Array([1_700_000_000_123n]).buffer)], 456_789n) // nanos of the millisecond
      .variable(7, [...new Uint8Array(new BigInt64Array([-1n]).buffer)], 999_000n)
      .data(8, [], false)
      .finish();
    expect(columns(decodeValue(s, lengthPrefixed(row)))).toEqual([
      '+I',
      ['f0', 'CHAR(3)', 'äb'],
      ['f1', 'VARCHAR(100)', 'a string longer than seven bytes'],
      ['f2', 'VARBINARY(10)', 'bytes AQID'],
      ['f3', 'VARBINARY(100)', 'bytes AAECAwQFBgcI'],
      ['f4', 'DECIMAL(38, 2)', 'DECIMAL(38, 2): -10000000000000000000000000000.05'],
      ['f5', 'DECIMAL(20, 0)', 'DECIMAL(20, 0): 0'],
      ['f6', 'TIMESTAMP(9)', 'TIMESTAMP(9): 2023-11-14T22:13:20.123456789'],
      ['f7', 'TIMESTAMP_LTZ(6)', 'TIMESTAMP_LTZ(6): 1969-12-31T23:59:59.999999Z'],
      ['f8', 'VARCHAR(1)', ''],
    ]);
  });

  it('decodes ARRAY (with null elements), MAP, MULTISET and nested ROW', () => {
    const types = [
      T.array(T.int),
      T.array(T.varchar(20)),
      T.map(T.varchar(5), T.bigint),
      T.multiset(T.varchar(5)),
      T.row([
        ['x', T.int],
        ['y', T.varchar(5)],
      ]),
    ];
    const s = readSnapshot(rowSnapshot(types));
    const ints = Binary.array(3, 4).fixedValue(0, 10, 4).null(1, false).fixedValue(2, -1, 4).finish();
    const strings = Binary.array(2, 8).data(0, utf8('short')).data(1, utf8('not so short')).finish();
    const mapBytes = (keys: Uint8Array, values: Uint8Array) =>
      new ByteWriter()
        .bytes(new Uint8Array(new Int32Array([keys.length]).buffer))
        .bytes(keys)
        .bytes(values)
        .finish();
    const keys = Binary.array(2, 8).data(0, utf8('a')).data(1, utf8('b')).finish();
    const longs = Binary.array(2, 8).fixedValue(0, 1).fixedValue(1, 2).finish();
    const counts = Binary.array(2, 4).fixedValue(0, 3, 4).fixedValue(1, 1, 4).finish();
    const nestedRow = Binary.row(2).fixedValue(0, 42, 4).data(1, utf8('in')).finish();
    const row = Binary.row(types.length)
      .variable(0, ints, BigInt(ints.length))
      .variable(1, strings, BigInt(strings.length))
      .variable(2, mapBytes(keys, longs), BigInt(mapBytes(keys, longs).length))
      .variable(3, mapBytes(keys, counts), BigInt(mapBytes(keys, counts).length))
      .variable(4, nestedRow, BigInt(nestedRow.length))
      .finish();
    expect(columns(decodeValue(s, lengthPrefixed(row)))).toEqual([
      '+I',
      ['f0', 'ARRAY<INT>', [10, null, -1]],
      ['f1', 'ARRAY<VARCHAR(20)>', ['short', 'not so short']],
      [
        'f2',
        'MAP<VARCHAR(5), BIGINT NOT NULL>',
        [
          ['a', '1'],
          ['b', '2'],
        ],
      ],
      [
        'f3',
        'MULTISET<VARCHAR(5)>',
        [
          ['a', 3],
          ['b', 1],
        ],
      ],
      ['f4', 'ROW<x INT, y VARCHAR(5)>', ['+I', ['x', 'INT', 42], ['y', 'VARCHAR(5)', 'in']]],
    ]);
  });

  it('says what is wrong with a corrupt row, where, and what it does not decode', () => {
    const s = readSnapshot(rowSnapshot([T.varchar(10)]));
    const kind = errorOf(() => decodeValue(s, lengthPrefixed(Binary.row(1, 9).finish())));
    expect(kind.message).toBe('expected a RowKind byte 0–3 at the start of a binary row, found 9 — at v, offset 4 (0x4)');
    const past = Binary.row(1)
      .fixedValue(0, (64n << 32n) | 3n)
      .finish();
    expect(errorOf(() => decodeValue(s, lengthPrefixed(past))).message).toBe(
      'expected the 3 bytes of a VARCHAR(10) at offset 64 inside the 16-byte structure, found them past its end — at v, offset 12 (0xc)',
    );
    expect(errorOf(() => decodeValue(s, lengthPrefixed(new Uint8Array(8)))).message).toBe(
      'expected a binary row of 1 field to have at least 16 bytes (null bits and slots), found 8 — at v, offset 4 (0x4)',
    );
    const zoned = readSnapshot(rowSnapshot([T.zoned]));
    expect(errorOf(() => decodeValue(zoned, lengthPrefixed(Binary.row(1).finish()))).detail).toBe(
      "expected a logical type of Flink's binary row format, found TIMESTAMP(3) WITH TIME ZONE (org.apache.flink.table.types.logical.ZonedTimestampType), which this reader does not decode",
    );
  });

  it('refuses a snapshot whose field type is not a LogicalType, at its offset', () => {
    const w = new ByteWriter().i32(2).utf(`${TYPEUTILS}RowDataSerializer$RowDataSerializerSnapshot`).i32(3).i32(1).u16(0xaced).u16(5).u8(0x74).utf('a string');
    const e = errorOf(() => readSnapshot(w.finish()));
    expect(e.detail).toBe('expected a Java-serialized LogicalType object, found a string');
  });
});

describe("the Table runtime's other serializers", () => {
  const snapshot = (className: string, content: (w: ByteWriter) => void) => {
    const w = new ByteWriter().i32(2).utf(className).i32(3);
    content(w);
    return readSnapshot(w.finish());
  };

  it('StringData: i32 length + UTF-8; DecimalData compact and not; TimestampData with nanos above precision 3', () => {
    const str = snapshot(`${TYPEUTILS}StringDataSerializer$StringDataSerializerSnapshot`, () => {});
    expect(decodeValue(str, lengthPrefixed(Uint8Array.from(utf8('Grüße'))))).toEqual({ kind: 'string', value: 'Grüße' });
    const compact = snapshot(`${TYPEUTILS}DecimalDataSerializer$DecimalSerializerSnapshot`, (w) => w.i32(10).i32(2));
    expect(decodeValue(compact, new ByteWriter().i64(-1234n).finish())).toEqual({ kind: 'other', type: 'DECIMAL(10, 2)', text: '-12.34' });
    const wide = snapshot(`${TYPEUTILS}DecimalDataSerializer$DecimalSerializerSnapshot`, (w) => w.i32(30).i32(1));
    expect(decodeValue(wide, new ByteWriter().i32(2).bytes([0x01, 0x00]).finish())).toEqual({ kind: 'other', type: 'DECIMAL(30, 1)', text: '25.6' });
    const ts = snapshot(`${TYPEUTILS}TimestampDataSerializer$TimestampDataSerializerSnapshot`, (w) => w.i32(6));
    expect(decodeValue(ts, new ByteWriter().i64(1_001n).i32(500_000).finish())).toEqual({
      kind: 'other',
      type: 'TIMESTAMP(6)',
      text: '1970-01-01T00:00:01.001500',
    });
  });

  it('StreamElement: records with and without timestamp, watermarks; an unknown tag is refused', () => {
    const w = new ByteWriter().i32(2).utf('org.apache.flink.streaming.runtime.streamrecord.StreamElementSerializer$StreamElementSerializerSnapshot').i32(3);
    w.i32(911108).i32(2).i32(1333245).i32(1).i32(1).utf(LONG_SNAPSHOT).i32(3);
    const s = readSnapshot(w.finish());
    expect(s.typeLabel).toBe('StreamElement<Long>');
    const record = 'org.apache.flink.streaming.runtime.streamrecord.StreamRecord';
    expect(decodeValue(s, new ByteWriter().u8(0).i64(99n).i64(7n).finish())).toEqual({
      kind: 'pojo',
      className: record,
      fields: [
        { name: 'timestamp', value: { kind: 'long', value: '99' } },
        { name: 'value', value: { kind: 'long', value: '7' } },
      ],
    });
    expect(decodeValue(s, new ByteWriter().u8(1).i64(8n).finish())).toEqual({
      kind: 'pojo',
      className: record,
      fields: [{ name: 'value', value: { kind: 'long', value: '8' } }],
    });
    expect(decodeValue(s, new ByteWriter().u8(2).i64(5n).finish())).toEqual({
      kind: 'pojo',
      className: 'org.apache.flink.streaming.api.watermark.Watermark',
      fields: [{ name: 'timestamp', value: { kind: 'long', value: '5' } }],
    });
    expect(errorOf(() => decodeValue(s, new ByteWriter().u8(9).finish())).detail).toBe(
      'expected a StreamElement tag 0–6 (record with timestamp, record, watermark, latency marker, watermark status, record attributes, internal watermark), found 9',
    );
  });

  it('SortedMap (retracting Top-N): the comparator stream read to its end, entries with null flags', () => {
    const w = new ByteWriter().i32(2).utf(`${TYPEUTILS}SortedMapSerializerSnapshot`).i32(3).u16(0xaced).u16(5);
    object(w, [
      {
        name: 'org.apache.flink.table.runtime.operators.rank.ComparatorCodeGenerator$Wrapper',
        fields: [{ type: 'L', name: 'code', sig: 'Ljava/lang/String;', value: (x) => x.u8(0x74).utf('int compare(…)') }],
      },
    ]);
    w.i32(1333245).i32(1).i32(2).utf(LONG_SNAPSHOT).i32(3).utf(LONG_SNAPSHOT).i32(3);
    const s = readSnapshot(w.finish());
    expect([s.typeLabel, s.details]).toEqual([
      'SortedMap<Long, Long>',
      { comparator: 'org.apache.flink.table.runtime.operators.rank.ComparatorCodeGenerator$Wrapper' },
    ]);
    expect(columns(decodeValue(s, new ByteWriter().i32(2).i64(1n).bool(false).i64(10n).i64(2n).bool(true).finish()))).toEqual([
      ['1', '10'],
      ['2', null],
    ]);
  });

  it('ArrayData and MapData: Java-serialized types and serializers (read to their ends), binary array and map values', () => {
    const javaSerializer = (w: ByteWriter, name: string) => {
      w.u16(0xaced).u16(5);
      object(w, [
        { name, fields: [] },
        { name: 'org.apache.flink.api.common.typeutils.TypeSerializer', fields: [] },
      ]);
    };
    const arrayBytes = new ByteWriter().i32(2).utf(`${TYPEUTILS}ArrayDataSerializer$ArrayDataSerializerSnapshot`).i32(3).u16(0xaced).u16(5);
    logicalType(arrayBytes, T.int);
    javaSerializer(arrayBytes, 'org.apache.flink.api.common.typeutils.base.IntSerializer');
    const array = readSnapshot(arrayBytes.finish());
    expect([array.typeLabel, array.details]).toEqual(['ARRAY<INT>', { elementSerializer: 'org.apache.flink.api.common.typeutils.base.IntSerializer' }]);
    expect(columns(decodeValue(array, lengthPrefixed(Binary.array(2, 4).fixedValue(0, 5, 4).null(1, false).finish())))).toEqual([5, null]);

    // MapDataSerializer's snapshot class is BaseMapSerializerSnapshot in older Flink versions, MapDataSerializerSnapshot in newer ones (same content)
    for (const snapshotClass of ['MapDataSerializer$BaseMapSerializerSnapshot', 'MapDataSerializer$MapDataSerializerSnapshot']) {
      const mapBytes = new ByteWriter().i32(2).utf(`${TYPEUTILS}${snapshotClass}`).i32(3).u16(0xaced).u16(5);
      logicalType(mapBytes, T.varchar(3));
      mapBytes.u16(0xaced).u16(5);
      logicalType(mapBytes, T.bigint);
      javaSerializer(mapBytes, `${TYPEUTILS}StringDataSerializer`);
      javaSerializer(mapBytes, 'org.apache.flink.api.common.typeutils.base.LongSerializer');
      const map = readSnapshot(mapBytes.finish());
      expect(map.typeLabel).toBe('MAP<VARCHAR(3), BIGINT NOT NULL>');
      const keys = Binary.array(1, 8).data(0, utf8('k')).finish();
      const values = Binary.array(1, 8).fixedValue(0, 9).finish();
      const body = new ByteWriter()
        .bytes(new Uint8Array(new Int32Array([keys.length]).buffer))
        .bytes(keys)
        .bytes(values)
        .finish();
      expect(columns(decodeValue(map, lengthPrefixed(body)))).toEqual([['k', '9']]);
    }
  });

  it('LinkedList: the null mask (most significant bit first) before the non-null elements; outer version 1 has none', () => {
    const snapshotOf = (outerVersion: number, outer: (w: ByteWriter) => void) => {
      const w = new ByteWriter().i32(2).utf(`${TYPEUTILS}LinkedListSerializer$LinkedListSerializerSnapshot`).i32(3).i32(911108).i32(outerVersion);
      outer(w);
      return readSnapshot(w.i32(1333245).i32(1).i32(1).utf(LONG_SNAPSHOT).i32(3).finish());
    };
    const masked = snapshotOf(3, (w) => w.bool(true));
    expect([masked.typeLabel, masked.details]).toEqual(['LinkedList<Long>', { hasNullMask: true }]);
    // 9 elements: 2 and 8 null → mask 0b00100000 0b10000000
    const values = new ByteWriter().i32(9).u8(0x20).u8(0x80);
    for (const v of [0, 1, 3, 4, 5, 6, 7]) values.i64(BigInt(v));
    expect(columns(decodeValue(masked, values.finish()))).toEqual(['0', '1', null, '3', '4', '5', '6', '7', null]);
    const plain = snapshotOf(1, () => {});
    expect(columns(decodeValue(plain, new ByteWriter().i32(2).i64(5n).i64(6n).finish()))).toEqual(['5', '6']);
  });

  it('BinaryRowData without types: delimited, shown as its bytes with the reason', () => {
    const s = snapshot(`${TYPEUTILS}BinaryRowDataSerializer$BinaryRowDataSerializerSnapshot`, (w) => w.i32(2));
    expect([s.status, s.typeLabel]).toEqual(['opaque', 'BinaryRow(2 fields)']);
    expect(decodeValue(s, lengthPrefixed(Binary.row(2).finish()))).toEqual({
      kind: 'opaque',
      reason: 'BinaryRowDataSerializer saves the field count (2), not the field types',
      length: 24,
      base64: 'A'.repeat(32),
    });
  });
});
