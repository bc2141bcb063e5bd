import { describe, expect, it } from 'vitest';
import { decodeProtobufPayload } from '../../src/core/protobuf';
import { collectProtobufUnknownFields } from '../../src/core/protobuf/collect-protobuf-fields';
import { encodeProtobufMessage } from '../../src/core/protobuf/encode-protobuf-message';
import { formatProtobufJson } from '../../src/core/protobuf/format-protobuf-json';
import { JAVA_PARSE_MESSAGES as M, ProtobufParseError } from '../../src/core/protobuf/protobuf-errors';
import { hex, loadTestSchema } from './protobuf-test-schemas';

const recursive = loadTestSchema('serializer', 'flink.protobuf.serializer.RecursiveMessage').root;
const legacy = loadTestSchema('legacy', 'flink.protobuf.legacy.LegacyMessage').root;
const limits = { maxMessageSize: 1 << 20, recursionLimit: 100 };

function decode(bytes: string, desc = recursive, opts = limits) {
  return decodeProtobufPayload(hex(bytes), desc, opts);
}
function json(bytes: string, desc = recursive) {
  return formatProtobufJson(decode(bytes, desc).message);
}
function parseError(bytes: string, desc = recursive, opts = limits): ProtobufParseError {
  try {
    decode(bytes, desc, opts);
  } catch (e) {
    if (e instanceof ProtobufParseError) return e;
    throw e;
  }
  throw new Error('expected a parse error');
}

describe('decodeProtobufPayload follows protobuf-java semantics', () => {
  it('keeps a field whose wire type the declared field does not accept as an unknown field', () => {
    // field 9 (int32 a) written as fixed32 → unknown; field 7 (repeated int32) as fixed64 → unknown
    const d = decode('4d 01 00 00 00 39 02 00 00 00 00 00 00 00');
    expect(formatProtobufJson(d.message)).toEqual({});
    expect(collectProtobufUnknownFields(d.message, hex('00')).map((u) => [u.number, u.wireType, u.offset, u.length])).toEqual([
      [9, 5, 0, 5],
      [7, 1, 5, 9],
    ]);
  });

  it('accepts packed and unpacked encodings of one repeated field and appends both', () => {
    expect(json('3a 02 01 02 38 03 3a 01 04')).toEqual({ numbers: [1, 2, 3, 4] });
  });

  it('lets the last value win for singular scalars and selects the last oneof member', () => {
    expect(json('42 01 61 42 01 62')).toEqual({ text: 'b' });
    expect(json('48 05 52 01 78')).toEqual({ b: 'x' });
    expect(json('52 01 78 48 05')).toEqual({ a: 5 });
  });

  it('merges repeated occurrences of a message field', () => {
    // child{text="a"} then child{a=3}: merged child has both
    expect(json('0a 03 42 01 61 0a 02 48 03')).toEqual({ child: { text: 'a', a: 3 } });
  });

  it('keeps map entries by key, the last value for a repeated key, and key/value defaults', () => {
    // counts{"k":1}, counts{"k":2}, counts{"j": (no value)}, counts{(no key) 5}
    expect(json('22 05 0a 01 6b 10 01 22 05 0a 01 6b 10 02 22 03 0a 01 6a 22 02 10 05')).toEqual({ counts: { k: 2, j: 0, '': 5 } });
  });

  it('writes 64-bit integers as strings, bytes as base64, enums by name or number, doubles and NaN', () => {
    expect(json('58 ff ff ff ff ff ff ff ff ff 01 60 ff ff ff ff ff ff ff ff ff 01 68 03 2a 03 01 02 03 71 00 00 00 00 00 00 f8 7f')).toEqual({
      big: '-1',
      kind: 'CHOICE_MINUS',
      delta: '-2',
      payload: 'AQID',
      score: 'NaN',
    });
    expect(json('60 07')).toEqual({ kind: 7 });
  });

  it('requires valid UTF-8 in proto3 strings, and keeps raw bytes in proto2 strings', () => {
    const e = parseError('42 02 c3 28');
    expect(e.message).toBe(M.invalidUtf8);
    expect(e.offset).toBe(1);
    expect(json('0a 02 c3 28', legacy)).toEqual({ raw: '\ufffd(' });
    expect([...encodeProtobufMessage(decode('0a 02 c3 28', legacy).message)]).toEqual([0x0a, 0x02, 0xc3, 0x28]);
  });

  it('puts unknown numbers of a closed (proto2) enum into the unknown fields, packed or not', () => {
    const d = decode('40 05 40 01 4a 02 01 07', legacy);
    expect(formatProtobufJson(d.message)).toEqual({ color: 'GREEN', colors: ['GREEN'] });
    expect(d.message.unknown.map((u) => [u.number, u.wireType, u.value])).toEqual([
      [8, 0, 5n],
      [9, 0, 7n],
    ]);
  });

  it('reads a proto2 group field and checks its end tag', () => {
    expect(json('3b 08 05 3c', legacy)).toEqual({ groupvalue: { x: 5 } });
    expect(parseError('3b 08 05 44', legacy).message).toBe(M.invalidEndTag);
  });

  it('counts depth as the serializer does: root 0, each message, group and map entry +1', () => {
    const chain3 = '0a 04 0a 02 0a 00'; // root→child→child→child
    expect(decode(chain3, recursive, { ...limits, recursionLimit: 3 }).depth).toBe(3);
    const e = parseError('0a 06 0a 04 0a 02 0a 00', recursive, { ...limits, recursionLimit: 3 });
    expect(e.message).toBe(M.recursionLimit);
    expect(e.offset).toBe(6);
    // map<string,RecursiveMessage> whose value has one child: root(0)→entry(1)→value(2)→child(3)
    const mapChain = '1a 07 0a 01 6b 12 02 0a 00';
    expect(decode(mapChain, recursive, { ...limits, recursionLimit: 3 }).depth).toBe(3);
    expect(parseError(mapChain, recursive, { ...limits, recursionLimit: 2 }).message).toBe(M.recursionLimit);
    // a default-valued map value (written as an empty message) is depth 2
    expect(decode('1a 05 0a 01 6b 12 00', recursive, { ...limits, recursionLimit: 2 }).depth).toBe(2);
    // an unknown group adds 1: group 100 { group 101 {} }
    const groups = 'a3 06 ab 06 ac 06 a4 06';
    expect(decode(groups, recursive, { ...limits, recursionLimit: 2 }).depth).toBe(2);
    expect(parseError(groups, recursive, { ...limits, recursionLimit: 1 }).message).toBe(M.recursionLimit);
  });

  it('keeps unknown groups with their content, and rejects a group closed by another number', () => {
    const d = decode('a3 06 08 01 a4 06');
    expect(d.message.unknown).toHaveLength(1);
    expect(d.message.unknown[0]!.wireType).toBe(3);
    expect(parseError('a3 06 08 01 ac 06').message).toBe(M.invalidEndTag);
    expect(parseError('a3 06 08 01').message).toBe(M.invalidEndTag);
  });

  it('re-encodes unknown fields in protobuf-java order: by number, then varint, fixed32, fixed64, length-delimited, group', () => {
    // wire order: 101 LEN, 100 fixed64, 100 varint, 100 fixed32
    const d = decode('aa 06 01 78 a1 06 01 00 00 00 00 00 00 00 a0 06 05 a5 06 02 00 00 00');
    expect(Buffer.from(encodeProtobufMessage(d.message)).toString('hex')).toBe('a00605a50602000000a1060100000000000000aa060178');
  });

  it('omits implicit-presence defaults when re-encoding, but keeps explicitly present optional fields', () => {
    expect([...encodeProtobufMessage(decode('58 00 48 00 80 01 00').message)]).toEqual([0x48, 0x00, 0x80, 0x01, 0x00]);
  });
});

describe('JSON view of well-known types (ProtoJSON forms)', () => {
  const holder = loadTestSchema('wkt', 'flink.protobuf.wkt.Holder').root;
  const varint = (n: number): number[] => {
    const out: number[] = [];
    while (n > 0x7f) {
      out.push((n & 0x7f) | 0x80);
      n = Math.floor(n / 128);
    }
    return [...out, n];
  };
  const ld = (tag: number, ...body: number[]): number[] => [tag, ...varint(body.length), ...body];
  const str = (tag: number, text: string): number[] => ld(tag, ...Buffer.from(text));

  it('formats Timestamp, Duration, wrappers, Struct, FieldMask, Empty and Any', () => {
    const double15 = [0x11, ...Buffer.from('000000000000f83f', 'hex')];
    const bytes = [
      ...ld(0x0a, 0x08, ...varint(63108020), 0x10, ...varint(21_000_000)), // at
      ...ld(0x12, 0x08, 0x01, 0x10, ...varint(1000)), // took: 1 s + 1000 ns
      ...ld(0x1a, 0x08, 0x07), // count: 7
      ...ld(0x22, ...str(0x0a, 'x')), // label
      ...ld(
        0x2a,
        ...ld(0x0a, ...str(0x0a, 'a'), ...ld(0x12, ...double15)),
        ...ld(0x0a, ...str(0x0a, 'b'), ...ld(0x12, ...ld(0x2a, ...ld(0x0a, ...str(0x0a, ''), ...ld(0x12, ...str(0x1a, 'z')))))),
      ),
      ...ld(0x32, ...str(0x0a, 'type/x.Y'), ...ld(0x12, 0x01)), // extra
      ...ld(0x3a, ...str(0x0a, 'foo_bar.bz')), // mask
      ...ld(0x42), // nothing
      ...ld(0x4a), // enabled: false
    ];
    const d = decodeProtobufPayload(Uint8Array.from(bytes), holder, limits);
    expect(formatProtobufJson(d.message)).toEqual({
      at: '1972-01-01T10:00:20.021Z',
      took: '1.000001s',
      count: '7',
      label: 'x',
      attributes: { a: 1.5, b: { '': 'z' } },
      extra: { '@type': 'type/x.Y', value: 'AQ==' },
      mask: 'fooBar.bz',
      nothing: {},
      enabled: false,
    });
  });

  it('keeps the plain form of a Timestamp outside the ProtoJSON range', () => {
    // seconds = -62135596801 (before 0001-01-01)
    const seconds = BigInt.asUintN(64, -62135596801n);
    const v: number[] = [];
    let n = seconds;
    while (n > 0x7fn) {
      v.push(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    v.push(Number(n));
    const inner = [0x08, ...v];
    const d = decodeProtobufPayload(Uint8Array.from([0x0a, inner.length, ...inner]), holder, limits);
    expect(formatProtobufJson(d.message)).toEqual({ at: { seconds: '-62135596801' } });
  });
});
