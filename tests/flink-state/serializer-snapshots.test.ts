import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '../../src/core/io';
import { createSnapshotRegistry, type SerializerSnapshot } from '../../src/core/flink';
import { describeUnknownSerializer, readNestedSerializerSnapshot, readSerializerSnapshot } from '../../src/core/flink/snapshots/read-serializer-snapshot';
import { CLS, list, map, simple, timer, tuple, writeNested, writeTopLevel, type SnapshotSpec } from '../helpers/write-test-snapshots';
import { decodeErrorOf } from '../helpers/decode-error-of';

const registry = createSnapshotRegistry();

function read(spec: SnapshotSpec, trailing: (w: ByteWriter) => void = () => {}): { s: SerializerSnapshot; r: ByteReader } {
  const w = writeTopLevel(new ByteWriter(), spec);
  trailing(w);
  const r = new ByteReader(w.finish(), { file: 'f' });
  return { s: readSerializerSnapshot(r, registry), r };
}

function decode(s: SerializerSnapshot, bytes: Uint8Array) {
  const r = new ByteReader(bytes);
  const v = s.codec!.decode(r);
  expect(r.remaining).toBe(0);
  return v;
}

describe('serializer snapshot envelope', () => {
  it('rejects proxy version 1 with a clear message at its offset', () => {
    const bytes = new ByteWriter().u8(9).i32(1).utf(CLS.long).i32(3).finish();
    const r = new ByteReader(bytes, { file: 'f' });
    r.readU8();
    const e = decodeErrorOf(() => readSerializerSnapshot(r, registry));
    expect(e.code).toBe('unsupported-version');
    expect(e.offset).toBe(1);
    expect(e.message).toBe(
      'expected serializer snapshot proxy version 2, found 1 (a legacy TypeSerializerConfigSnapshot, written before Flink 1.8-era snapshots; Flink ≥ 1.17 cannot restore it either) — at f, offset 1 (0x1)',
    );
  });

  it('rejects other proxy versions', () => {
    const e = decodeErrorOf(() => readSerializerSnapshot(new ByteReader(new ByteWriter().i32(7).finish()), registry));
    expect(e.detail).toBe('expected serializer snapshot proxy version 2, found 7');
  });

  it('reports a truncated class name with what it expected', () => {
    const bytes = new ByteWriter().i32(2).u16(80).bytes([0x6f, 0x72, 0x67]).finish();
    const e = decodeErrorOf(() => readSerializerSnapshot(new ByteReader(bytes, { file: 'f' }), registry));
    expect(e.code).toBe('truncated');
    expect(e.message).toBe('expected 80 bytes for serializer snapshot class name (80 bytes of modified UTF-8), found 3 — at f, offset 6 (0x6)');
  });

  it('signals an unknown class as unknown-serializer carrying class name and version', () => {
    const bytes = new ByteWriter().i32(2).utf(CLS.unknown).i32(5).u8(1).finish();
    const e = decodeErrorOf(() => readSerializerSnapshot(new ByteReader(bytes, { file: 'f' }), registry));
    expect(e.code).toBe('unknown-serializer');
    expect(e.offset).toBe(4);
    expect(e.detail).toBe('unknown serializer snapshot com.example.MysterySerializerSnapshot v5');
    expect(describeUnknownSerializer(e)).toEqual({ className: CLS.unknown, version: 5 });
  });

  it('reports an unknown class nested in a composite with its own offset', () => {
    const w = writeTopLevel(new ByteWriter(), map(simple(CLS.string), simple(CLS.unknown)));
    const e = decodeErrorOf(() => readSerializerSnapshot(new ByteReader(w.finish()), registry));
    expect(e.code).toBe('unknown-serializer');
    expect(describeUnknownSerializer(e)?.className).toBe(CLS.unknown);
  });

  it('limits nesting depth to 64', () => {
    let spec: SnapshotSpec = simple(CLS.long);
    for (let i = 0; i < 70; i++) spec = list(spec);
    const e = decodeErrorOf(() => readSerializerSnapshot(new ByteReader(writeTopLevel(new ByteWriter(), spec).finish()), registry));
    expect(e.code).toBe('limit-exceeded');
    expect(e.detail).toBe('expected serializer snapshots nested at most 64 deep, found deeper nesting');
  });

  it('records the byte range of each snapshot', () => {
    const { s } = read(simple(CLS.long));
    expect(s.range).toEqual({ offset: 4, length: 2 + CLS.long.length + 4 });
    expect(s.file).toBe('f');
  });

  it('lets other modules register readers', () => {
    const reg = createSnapshotRegistry({ builtins: false });
    expect(reg.listClassNames()).toEqual([]);
    reg.register({
      classNames: ['x.Y'],
      read: (_r, version, className) => ({ className, version, typeLabel: 'Y', status: 'known', nested: [], fixedLength: 3 }),
    });
    const s = readNestedSerializerSnapshot(new ByteReader(new ByteWriter().utf('x.Y').i32(1).finish()), reg);
    expect(s.typeLabel).toBe('Y');
  });
});

describe('simple snapshots and their values', () => {
  it('reads version 3 (empty) and version 2 (serializer class name)', () => {
    const v3 = read(simple(CLS.long));
    expect([v3.s.typeLabel, v3.s.fixedLength, v3.s.status, v3.r.remaining]).toEqual(['Long', 8, 'known', 0]);
    const v2 = read({ raw: CLS.int, version: 2, content: (w) => w.utf('org.apache.flink.api.common.typeutils.base.IntSerializer') });
    expect(v2.s.details).toEqual({ serializerClass: 'org.apache.flink.api.common.typeutils.base.IntSerializer' });
    expect(v2.r.remaining).toBe(0);
  });

  it('rejects an unrecognised simple snapshot version', () => {
    const e = decodeErrorOf(() => read({ simple: CLS.string, version: 4 }));
    expect(e.detail).toBe(`expected ${CLS.string} version 2 or 3, found 4`);
  });

  it('gives VoidNamespace fixed length 0 although it writes one byte', () => {
    const { s } = read(simple(CLS.voidNs));
    expect(s.fixedLength).toBe(0);
    expect(decode(s, new Uint8Array([0]))).toEqual({ kind: 'void-namespace' });
  });

  it('decodes primitive, string, big number, time and array values', () => {
    const cls = (n: string) => `org.apache.flink.api.common.typeutils.base.${n}Serializer$${n}SerializerSnapshot`;
    const s = (c: string) => read(simple(c)).s;
    expect(decode(s(CLS.long), new ByteWriter().i64(-(2n ** 63n)).finish())).toEqual({ kind: 'long', value: '-9223372036854775808' });
    expect(decode(s(CLS.string), new ByteWriter().stringValue('€').finish())).toEqual({ kind: 'string', value: '€' });
    expect(decode(s(CLS.string), new Uint8Array([0]))).toEqual({ kind: 'null' });
    expect(decode(s(cls('Double')), new ByteWriter().f64(NaN).finish())).toEqual({ kind: 'float', type: 'Double', value: 'NaN' });
    expect(decode(s(cls('BigInt')), new ByteWriter().i32(6).bytes([0xff, 0x38]).finish())).toEqual({ kind: 'other', type: 'BigInteger', text: '-200' });
    expect(decode(s(cls('BigDec')), new ByteWriter().i32(5).bytes([0x7b]).i32(2).finish())).toEqual({ kind: 'other', type: 'BigDecimal', text: '1.23' });
    expect(decode(s(cls('Date')), new ByteWriter().i64(-(2n ** 63n)).finish())).toEqual({ kind: 'null' });
    expect(decode(s(cls('LocalDate')), new ByteWriter().i32(2024).u8(8).u8(6).finish())).toEqual({ kind: 'other', type: 'LocalDate', text: '2024-08-06' });
    const bytesSnap = s('org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer$BytePrimitiveArraySerializerSnapshot');
    expect(decode(bytesSnap, new ByteWriter().i32(3).bytes([1, 2, 3]).finish())).toEqual({ kind: 'bytes', length: 3, base64: 'AQID' });
    const strings = s('org.apache.flink.api.common.typeutils.base.array.StringArraySerializer$StringArraySerializerSnapshot');
    expect(decode(strings, new ByteWriter().i32(2).stringValue('a').stringValue(null).finish())).toEqual({
      kind: 'list',
      items: [{ kind: 'string', value: 'a' }, { kind: 'null' }],
    });
    expect(decode(s(CLS.timeWindow), new ByteWriter().i64(10).i64(20).finish())).toEqual({ kind: 'time-window', start: '10', end: '20' });
  });

  it('decodes Java-serialized Strings to text and keeps other objects as bytes', () => {
    const { s } = read(simple(CLS.java));
    expect(s.status).toBe('opaque');
    const str = new ByteWriter().bytes([0xac, 0xed, 0x00, 0x05, 0x74]).utf('first0').finish();
    expect(decode(s, str)).toEqual({ kind: 'java-serialized', length: 13, text: 'first0', base64: 'rO0ABXQABmZpcnN0MA==' });
    const obj = new Uint8Array([0xac, 0xed, 0x00, 0x05, 0x73, 0x72, 0x00]);
    expect(decode(s, obj)).toEqual({ kind: 'java-serialized', length: 7, base64: 'rO0ABXNyAA==' });
    const e = decodeErrorOf(() => s.codec!.decode(new ByteReader(new Uint8Array([1, 2]), { file: 'f', baseOffset: 10 })));
    expect(e.message).toBe('expected a Java serialization stream (AC ED 00 05), found 01 02 — at f, offset 10 (0xa)');
  });
});

describe('composite snapshots', () => {
  it('reads Tuple1<Long> (outer: tuple class) with fixed length 8', () => {
    const { s, r } = read(tuple('org.apache.flink.api.java.tuple.Tuple1', simple(CLS.long)));
    expect([s.typeLabel, s.fixedLength, r.remaining]).toEqual(['Tuple1<Long>', 8, 0]);
    expect(decode(s, new ByteWriter().i64(5).finish())).toEqual({
      kind: 'tuple',
      className: 'org.apache.flink.api.java.tuple.Tuple1',
      fields: [{ kind: 'long', value: '5' }],
    });
  });

  it('makes a tuple variable-length when a field has length 0 or -1', () => {
    expect(read(tuple('org.apache.flink.api.java.tuple.Tuple2', simple(CLS.long), simple(CLS.voidNs))).s.fixedLength).toBe(-1);
    expect(read(tuple('org.apache.flink.api.java.tuple.Tuple2', simple(CLS.long), simple(CLS.string))).s.fixedLength).toBe(-1);
  });

  it('reads List, Map (with null flags), TTL and Timer values', () => {
    const l = read(list(simple(CLS.int))).s;
    expect(l.typeLabel).toBe('List<Integer>');
    expect(decode(l, new ByteWriter().i32(2).i32(7).i32(8).finish())).toEqual({
      kind: 'list',
      items: [
        { kind: 'int', type: 'Int', value: 7 },
        { kind: 'int', type: 'Int', value: 8 },
      ],
    });
    const m = read(map(simple(CLS.string), simple(CLS.long))).s;
    expect(m.typeLabel).toBe('Map<String, Long>');
    expect(decode(m, new ByteWriter().i32(2).stringValue('a').bool(false).i64(1).stringValue('b').bool(true).finish())).toEqual({
      kind: 'map',
      entries: [
        { key: { kind: 'string', value: 'a' }, value: { kind: 'long', value: '1' } },
        { key: { kind: 'string', value: 'b' }, value: { kind: 'null' } },
      ],
    });
    const ttl = read({ composite: CLS.ttl, outerVersion: 2, nested: [simple(CLS.long), simple(CLS.string)] }).s;
    expect(ttl.typeLabel).toBe('TTL<String>');
    expect(decode(ttl, new ByteWriter().i64(99).stringValue('x').finish())).toEqual({
      kind: 'ttl',
      lastAccessTimestamp: '99',
      value: { kind: 'string', value: 'x' },
    });
    const t = read(timer(simple(CLS.long), simple(CLS.voidNs))).s;
    expect([t.typeLabel, t.fixedLength]).toEqual(['Timer<Long, VoidNamespace>', 16]);
    expect(
      decode(
        t,
        new ByteWriter()
          .i64(10n ^ (1n << 63n))
          .i64(3)
          .u8(0)
          .finish(),
      ),
    ).toEqual({ kind: 'timer', timestamp: '10', key: { kind: 'long', value: '3' }, namespace: { kind: 'void-namespace' } });
  });

  it('reads the legacy (version ≤ 2) composite layout without composite magic', () => {
    const { s, r } = read({ composite: CLS.list, outerVersion: 1, legacyVersion: 1, nested: [simple(CLS.long)] });
    expect([s.typeLabel, s.version, r.remaining]).toEqual(['List<Long>', 1, 0]);
  });

  it('rejects a wrong composite magic with its offset', () => {
    const w = new ByteWriter().i32(2).utf(CLS.list).i32(3).i32(1234);
    const e = decodeErrorOf(() => readSerializerSnapshot(new ByteReader(w.finish(), { file: 'f' }), registry));
    expect(e.code).toBe('bad-magic');
    expect(e.offset).toBe(4 + 2 + CLS.list.length + 4);
    expect(e.detail).toBe('expected composite snapshot magic 911108 (00 0d e7 04), found 1234');
  });

  it('reads GenericArray, Nullable, Row, Either and ArrayList snapshots', () => {
    const pkg = 'org.apache.flink.api.java.typeutils.runtime.';
    const arr = read({
      composite: 'org.apache.flink.api.common.typeutils.base.GenericArraySerializerSnapshot',
      outerVersion: 1,
      outer: (w) => w.utf('java.lang.String'),
      nested: [simple(CLS.string)],
    }).s;
    expect(arr.typeLabel).toBe('String[]');
    expect(decode(arr, new ByteWriter().i32(2).bool(true).stringValue('a').bool(false).finish())).toEqual({
      kind: 'list',
      items: [{ kind: 'string', value: 'a' }, { kind: 'null' }],
    });
    const nullable = read({
      composite: `${pkg}NullableSerializer$NullableSerializerSnapshot`,
      outerVersion: 2,
      outer: (w) => w.i32(8),
      nested: [simple(CLS.long)],
    }).s;
    expect([nullable.typeLabel, nullable.fixedLength]).toEqual(['Nullable<Long>', 9]);
    expect(decode(nullable, new ByteWriter().bool(true).i64(0).finish())).toEqual({ kind: 'null' });
    const row = read({
      composite: `${pkg}RowSerializer$RowSerializerSnapshot`,
      outerVersion: 4,
      outer: (w) => w.bool(true),
      nested: [simple(CLS.int), simple(CLS.string)],
    });
    expect([row.s.typeLabel, row.s.status, row.s.codec, row.r.remaining]).toEqual(['Row<Integer, String>', 'opaque', undefined, 0]);
    const either = read({ composite: `${pkg}JavaEitherSerializerSnapshot`, outerVersion: 1, nested: [simple(CLS.int), simple(CLS.string)] }).s;
    expect(decode(either, new ByteWriter().bool(false).stringValue('r').finish())).toEqual({
      kind: 'tuple',
      className: 'org.apache.flink.types.Either$Right',
      fields: [{ kind: 'string', value: 'r' }],
    });
    const al = read({ composite: 'org.apache.flink.runtime.state.ArrayListSerializerSnapshot', outerVersion: 1, nested: [simple(CLS.long)] }).s;
    expect(al.typeLabel).toBe('ArrayList<Long>');
  });
});

describe('POJO, Kryo and Enum snapshots', () => {
  const HEADER = 0x4f2c69a3d70n;
  function pojoContent(fields: [string, SnapshotSpec][]) {
    return (w: ByteWriter) => {
      w.utf('com.example.Pojo').i64(HEADER).i32(fields.length);
      for (const [name, spec] of fields) {
        const key = new ByteWriter().utf('com.example.Pojo').utf(name).finish();
        const value = writeNested(new ByteWriter(), spec).finish();
        w.utf(name).bool(true).i32(key.length).bytes(key).bool(true).i32(value.length).bytes(value);
      }
      w.i64(HEADER).i32(0).i64(HEADER).i32(0);
    };
  }

  it('reads fields and decodes POJO values with null flags', () => {
    const { s, r } = read({
      raw: CLS.pojo,
      version: 2,
      content: pojoContent([
        ['privateLong', simple(CLS.long)],
        ['name', simple(CLS.string)],
      ]),
    });
    expect([s.typeLabel, s.status, r.remaining]).toEqual(['POJO Pojo', 'known', 0]);
    expect(decode(s, new ByteWriter().u8(2).bool(false).i64(1).bool(true).finish())).toEqual({
      kind: 'pojo',
      className: 'com.example.Pojo',
      fields: [
        { name: 'privateLong', value: { kind: 'long', value: '1' } },
        { name: 'name', value: { kind: 'null' } },
      ],
    });
    expect(decode(s, new Uint8Array([1]))).toEqual({ kind: 'null' });
  });

  it('skips an unknown field serializer thanks to the length-prefixed frames', () => {
    const { s, r } = read({ raw: CLS.pojo, version: 2, content: pojoContent([['x', { raw: CLS.unknown, version: 1, content: (w) => w.i32(42) }]]) }, (w) =>
      w.u8(0xaa),
    );
    expect(s.status).toBe('opaque');
    expect(s.codec).toBeUndefined();
    expect(s.nested[0]!.status).toBe('unknown');
    expect(r.readU8()).toBe(0xaa);
  });

  it('skips Kryo snapshots (values opaque) and reads Enum constants', () => {
    const kryo = read(
      {
        raw: CLS.kryo,
        version: 2,
        content: (w) =>
          w.utf('com.example.Thing').i64(HEADER).i32(1).utf('reg').bool(false).bool(true).i32(9).utf('reg').i32(0).i64(HEADER).i32(0).i64(HEADER).i32(0),
      },
      (w) => w.u8(0xbb),
    );
    expect([kryo.s.typeLabel, kryo.s.status, kryo.r.readU8()]).toEqual(['Kryo Thing', 'opaque', 0xbb]);
    const e = read({ raw: CLS.enumS, version: 3, content: (w) => w.utf('com.example.Color').i32(2).utf('RED').utf('GREEN') }).s;
    expect([e.typeLabel, e.fixedLength]).toEqual(['Enum Color', 4]);
    expect(decode(e, new ByteWriter().i32(1).finish())).toEqual({ kind: 'enum', className: 'com.example.Color', ordinal: 1, name: 'GREEN' });
  });

  it('rejects a bad linked optional map header with the header it found', () => {
    const err = decodeErrorOf(() => read({ raw: CLS.kryo, version: 2, content: (w) => w.utf('T').i64(5) }));
    expect(err.detail).toBe('expected linked optional map header 0x000004f2c69a3d70 for Kryo registrations, found 0x0000000000000005');
  });
});
