/**
 * Crafted Protobuf payloads for the export's wire-path tests (arrow-wire-columns.test.ts,
 * text-wire-json.test.ts): the schemas, a wire writer, the frame of a value as a `frame` scan gives it,
 * and fast-check's random payloads (fields of the schema and unknown ones, any wire type, nested two deep,
 * sometimes damaged).
 */
import type { DescMessage } from '@bufbuild/protobuf';
import fc from 'fast-check';
import type { StateEntry } from '../../src/core/flink';
import { ByteReader } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS, ProtobufValueCodec, type ProtobufSnapshotContent } from '../../src/core/protobuf';

export const PROTO3 = `syntax = "proto3";
package wire;
enum Color { COLOR_UNSPECIFIED = 0; RED = 1; GREEN = 2; }
message Inner { string text = 1; int32 code = 2; repeated Inner children = 3; }
message Value {
  string s = 1;
  bytes b = 2;
  int32 i32 = 3;
  uint32 u32 = 4;
  sint32 s32 = 5;
  int64 i64 = 6;
  uint64 u64 = 7;
  sint64 s64 = 8;
  fixed32 f32 = 9;
  sfixed32 sf32 = 10;
  fixed64 f64 = 11;
  sfixed64 sf64 = 12;
  float fl = 13;
  double db = 14;
  bool bo = 15;
  Color color = 16;
  Inner inner = 17;
  repeated int32 packed = 18;
  repeated string names = 19;
  repeated Inner inners = 20;
  map<string, int64> counters = 21;
  map<int32, Inner> by_id = 22;
  map<string, Color> colors = 23;
  oneof choice { string text_choice = 24; int64 number_choice = 25; }
  optional int32 explicit = 26;
  repeated Color color_list = 27;
  repeated double doubles = 28;
  Value self = 29;
}
`;

export const PROTO2 = `syntax = "proto2";
package legacy;
enum Level { LOW = 1; HIGH = 2; }
message Old {
  required int32 id = 1;
  optional Level level = 2;
  optional string name = 3;
  repeated Level levels = 4;
  optional group Grp = 5 { optional int32 x = 6; }
}
`;

/** protobuf wire writer for crafted payloads */
export class W {
  readonly out: number[] = [];
  varint(v: bigint | number): this {
    let x = BigInt.asUintN(64, BigInt(v));
    do {
      let b = Number(x & 0x7fn);
      x >>= 7n;
      if (x !== 0n) b |= 0x80;
      this.out.push(b);
    } while (x !== 0n);
    return this;
  }
  tag(no: number, wt: number): this {
    return this.varint((no << 3) | wt);
  }
  bytes(no: number, b: Uint8Array | number[]): this {
    this.tag(no, 2).varint(b.length);
    this.out.push(...b);
    return this;
  }
  str(no: number, s: string): this {
    return this.bytes(no, [...Buffer.from(s, 'utf8')]);
  }
  msg(no: number, w: W): this {
    return this.bytes(no, w.out);
  }
  fixed32(no: number, v: number): this {
    this.tag(no, 5);
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    this.out.push(...b);
    return this;
  }
  fixed64(no: number, v: bigint): this {
    this.tag(no, 1);
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt.asUintN(64, v));
    this.out.push(...b);
    return this;
  }
  float(no: number, v: number): this {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    return this.fixed32(no, b.readUInt32LE());
  }
  double(no: number, v: number): this {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    return this.fixed64(no, b.readBigUInt64LE());
  }
  raw(...b: number[]): this {
    this.out.push(...b);
    return this;
  }
  get payload(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

export const w = () => new W();
export const zigzag = (n: bigint) => (n << 1n) ^ (n >> 63n);

export function codecFor(root: DescMessage): ProtobufValueCodec {
  return new ProtobufValueCodec({
    javaClass: 'x.Y',
    rootFullName: root.typeName,
    settings: { ...DEFAULT_PROTOBUF_SETTINGS },
    descriptorBytes: new Uint8Array(0),
    descriptorSha256: '',
    schema: { root },
  } as unknown as ProtobufSnapshotContent);
}

/** a state entry of one framed value (the frame as a `frame` scan gives it) */
export function framedEntry(codec: ProtobufValueCodec, payload: Uint8Array, i: number): StateEntry {
  const bytes = new Uint8Array(4 + payload.length);
  new DataView(bytes.buffer).setInt32(0, payload.length);
  bytes.set(payload, 4);
  const frame = codec.decode(new ByteReader(bytes, { file: 'crafted', baseOffset: 1000 }), 'frame');
  return {
    operatorId: 'op',
    state: 's',
    subtask: 0,
    keyGroup: i,
    key: { kind: 'int', type: 'Int', value: i },
    value: frame,
    valueRange: { offset: 1000, length: bytes.length },
  } as unknown as StateEntry;
}

/** one field as it goes on the wire: a number of the schema or an unknown one, any wire type, nested payloads two deep */
export const field = (depth: number): fc.Arbitrary<W> =>
  fc
    .record({
      no: fc.oneof(fc.integer({ min: 1, max: 29 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 90, max: 100 })),
      kind: fc.constantFrom('varint', 'fixed32', 'fixed64', 'bytes', 'text', 'nested', 'packed'),
      v: fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n }),
      bytes: fc.uint8Array({ maxLength: 12 }),
      text: fc.string({ maxLength: 8, unit: 'grapheme' }),
    })
    .chain((f) =>
      depth > 0 && f.kind === 'nested'
        ? fc.array(field(depth - 1), { maxLength: 4 }).map((inner) => ({ ...f, nested: inner }))
        : fc.constant({ ...f, nested: [] as W[] }),
    )
    .map((f) => {
      const out = w();
      switch (f.kind) {
        case 'varint':
          return out.tag(f.no, 0).varint(f.v);
        case 'fixed32':
          return out.fixed32(f.no, Number(BigInt.asUintN(32, f.v)));
        case 'fixed64':
          return out.fixed64(f.no, f.v);
        case 'bytes':
          return out.bytes(f.no, f.bytes);
        case 'text':
          return out.str(f.no, f.text);
        case 'packed':
          return out.bytes(f.no, new W().varint(f.v).varint(Number(f.v & 0xffn)).out);
        default:
          return out.msg(
            f.no,
            f.nested.reduce((a, b) => a.raw(...b.out), w()),
          );
      }
    });
export const payload = fc
  .record({
    fields: fc.array(field(2), { maxLength: 12 }),
    // sometimes a byte changed or the payload cut short
    damage: fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), cut: fc.boolean() }) },
    ),
  })
  .map(({ fields, damage }) => {
    const bytes = fields.reduce((a, b) => a.raw(...b.out), w()).payload;
    if (damage === null || bytes.length === 0) return bytes;
    const at = damage.at % bytes.length;
    if (damage.cut) return bytes.subarray(0, at);
    const copy = bytes.slice();
    copy[at] = damage.byte;
    return copy;
  });
