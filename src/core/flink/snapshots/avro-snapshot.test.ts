import { describe, expect, it } from 'vitest';
import { decodeErrorOf } from '../../../../tests/helpers/decode-error-of';
import { ByteReader, ByteWriter } from '../../io';
import { AVRO_SNAPSHOT, avroSnapshotReader, createAvroCodec } from './avro-snapshot';
import type { SnapshotReadContext } from './snapshot-types';

const ctx: SnapshotReadContext = {
  readNested: () => {
    throw new Error('no nested snapshots in an Avro snapshot');
  },
  depth: 0,
};
const SCHEMA = JSON.stringify({
  type: 'record',
  name: 'Node',
  namespace: 'x',
  fields: [
    { name: 'v', type: { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN'] } },
    { name: 'next', type: ['null', 'Node'] },
    { name: 'tags', type: { type: 'map', values: 'string' } },
  ],
});

function read(version: number, content: Uint8Array) {
  return avroSnapshotReader.read(new ByteReader(content, { file: 'f' }), version, AVRO_SNAPSHOT, ctx);
}

describe('AvroSerializerSnapshot', () => {
  it('reads versions 1 (utf schema), 2 (utf class + schema) and 3 (StringValues) and labels the record', () => {
    const v1 = read(1, new ByteWriter().utf(SCHEMA).finish());
    const v2 = read(2, new ByteWriter().utf('org.apache.avro.generic.GenericRecord').utf(SCHEMA).finish());
    const v3 = read(3, new ByteWriter().stringValue('x.Node').stringValue(SCHEMA).finish());
    expect([v1.typeLabel, v2.typeLabel, v3.typeLabel]).toEqual(['Avro x.Node', 'Avro x.Node', 'Avro x.Node (x.Node)']);
    expect(v3.details).toMatchObject({ format: 'avro', runtimeType: 'x.Node', record: 'specific or reflect', schema: SCHEMA });
    expect(String(v3.details?.['schemaEvolution'])).toMatch(/^not checked/);
  });

  it("decodes a recursive record written by Flink's DataOutputEncoder (i32 enum and union indexes, varint map blocks)", () => {
    const s = read(2, new ByteWriter().utf('org.apache.avro.generic.GenericRecord').utf(SCHEMA).finish());
    // Node{v=GREEN, next=Node{v=RED, next=null, tags={}}, tags={a: "b"}}
    const value = new ByteWriter().i32(1).i32(1).i32(0).i32(0).u8(0).u8(1).i32(1).bytes([0x61]).i32(1).bytes([0x62]).u8(0).finish();
    const r = new ByteReader(value, { file: 'v' });
    expect(s.codec!.decode(r)).toEqual({
      kind: 'pojo',
      className: 'x.Node',
      fields: [
        { name: 'v', value: { kind: 'enum', className: 'x.Color', ordinal: 1, name: 'GREEN' } },
        {
          name: 'next',
          value: {
            kind: 'pojo',
            className: 'x.Node',
            fields: [
              { name: 'v', value: { kind: 'enum', className: 'x.Color', ordinal: 0, name: 'RED' } },
              { name: 'next', value: { kind: 'null' } },
              { name: 'tags', value: { kind: 'map', entries: [] } },
            ],
          },
        },
        { name: 'tags', value: { kind: 'map', entries: [{ key: { kind: 'string', value: 'a' }, value: { kind: 'string', value: 'b' } }] } },
      ],
    });
    expect(r.atEnd).toBe(true);
  });

  it('names a bad enum or union index and a schema that is not JSON', () => {
    const s = read(1, new ByteWriter().utf(SCHEMA).finish());
    expect(decodeErrorOf(() => s.codec!.decode(new ByteReader(new ByteWriter().i32(5).finish(), { file: 'v' }))).message).toBe(
      'expected a symbol index of Avro enum x.Color below 2, found 5 — at v, offset 0 (0x0)',
    );
    expect(decodeErrorOf(() => s.codec!.decode(new ByteReader(new ByteWriter().i32(0).i32(2).finish(), { file: 'v' }))).message).toBe(
      'expected an Avro union branch below 2, found 2 — at v, offset 4 (0x4)',
    );
    const broken = read(1, new ByteWriter().utf('{"type": rec').finish());
    expect([broken.status, broken.codec, broken.typeLabel]).toEqual(['opaque', undefined, 'Avro unparsed schema']);
    expect(String(broken.details?.['schemaError'])).toMatch(/^the saved Avro schema is not JSON/);
  });

  it('names a block count cut off, longer than 10 bytes, or above the bytes left', () => {
    const codec = createAvroCodec({ type: 'array', items: { type: 'int' } });
    const decode = (bytes: number[]) => decodeErrorOf(() => codec.decode(new ByteReader(Uint8Array.from(bytes), { file: 'v' }))).message;
    expect(decode([0x80, 0x80])).toBe('expected 1 byte for block count of an Avro array, found 0 — at v, offset 2 (0x2)');
    expect(decode(new Array<number>(11).fill(0x80))).toBe(
      'expected a block count of an Avro array of at most 10 bytes, found a longer one — at v, offset 10 (0xa)',
    );
    expect(decode([0x96, 0x01, 0x00])).toBe('expected at most 1 items in a block of an Avro array, found a count of 150 — at v, offset 2 (0x2)');
  });
});
