import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, isDecodeError, type DecodeError } from '../../src/core/io';
import { DEFAULT_PROTOBUF_SETTINGS } from '../../src/core/protobuf';
import { copyProtobufFrame } from '../../src/core/protobuf/read-protobuf-frame';
import { decodeProtobufValue, type ProtobufValueTarget } from '../../src/core/protobuf/decode-protobuf-value';
import { encodeProtobufMessage } from '../../src/core/protobuf/encode-protobuf-message';
import { JAVA_PARSE_MESSAGES as M } from '../../src/core/protobuf/protobuf-errors';
import { writeProtobufFrame } from '../../src/core/protobuf/write-protobuf-frame';
import { ENVELOPE_CLASS, ENVELOPE_NAME, frame, hex, loadTestSchema } from './protobuf-test-schemas';

const envelope = loadTestSchema('snapshot', ENVELOPE_NAME);
const target: ProtobufValueTarget = { root: envelope.root, javaClass: ENVELOPE_CLASS, settings: DEFAULT_PROTOBUF_SETTINGS };
const legacy = loadTestSchema('legacy', 'flink.protobuf.legacy.RequiredMessage');
const requiredTarget: ProtobufValueTarget = {
  root: legacy.root,
  javaClass: 'io.github.flink.gcp.protobuf.legacy.Legacy$RequiredMessage',
  settings: DEFAULT_PROTOBUF_SETTINGS,
};

function decodeError(bytes: Uint8Array, t: ProtobufValueTarget = target): DecodeError {
  try {
    decodeProtobufValue(new ByteReader(bytes, { file: 'state-file' }), t);
  } catch (e) {
    if (isDecodeError(e)) return e;
    throw e;
  }
  throw new Error('expected a DecodeError');
}

const invalid = (inner: string) => `Invalid Protobuf frame for ${ENVELOPE_CLASS}: ${inner}`;

describe('Protobuf value frame: the invalid frames', () => {
  const cases: { name: string; input: Uint8Array; detail: string; offset: number; t?: ProtobufValueTarget }[] = [
    { name: 'empty input', input: new Uint8Array(0), detail: 'Truncated Protobuf frame length', offset: 0 },
    { name: '00 00', input: hex('00 00'), detail: 'Truncated Protobuf frame length', offset: 0 },
    { name: 'frame(-1)', input: frame(-1), detail: 'Invalid Protobuf frame length -1; maxMessageSize=67108864', offset: 0 },
    { name: 'frame(2147483647)', input: frame(2147483647), detail: 'Invalid Protobuf frame length 2147483647; maxMessageSize=67108864', offset: 0 },
    { name: 'frame(3, 08): payload shorter than declared', input: frame(3, 0x08), detail: invalid('Truncated Protobuf payload; missing 2 bytes'), offset: 5 },
    { name: 'frame(1, 00): tag 0', input: frame(1, 0x00), detail: invalid(M.invalidTag), offset: 4 },
    { name: 'frame(1, 08): varint missing', input: frame(1, 0x08), detail: invalid(M.truncated), offset: 5 },
    { name: 'frame(1, 0c): top-level END_GROUP', input: frame(1, 0x0c), detail: invalid(M.invalidEndTag), offset: 4 },
    { name: 'frame(2, 0a 7f): length-delimited overruns', input: frame(2, 0x0a, 0x7f), detail: invalid(M.truncated), offset: 6 },
    { name: 'frame(1, 0f): wire type 7', input: frame(1, 0x0f), detail: invalid(M.invalidWireType), offset: 4 },
    {
      name: 'frame(3, 28 01): ends on a field boundary, shorter than declared',
      input: frame(3, 0x28, 0x01),
      detail: invalid('Truncated Protobuf payload; missing 1 bytes'),
      offset: 6,
    },
    {
      name: 'RequiredMessage frame(0): missing required field',
      input: frame(0),
      detail: 'Invalid Protobuf frame for io.github.flink.gcp.protobuf.legacy.Legacy$RequiredMessage: Message missing required fields: value',
      offset: 4,
      t: requiredTarget,
    },
  ];
  it.each(cases)('$name', ({ input, detail, offset, t }) => {
    const e = decodeError(input, t);
    expect(e.code).toBe('protobuf');
    expect(e.detail).toBe(detail);
    expect(e.offset).toBe(offset);
    expect(e.file).toBe('state-file');
  });

  it('checks the length against the snapshot maxMessageSize, not the default', () => {
    const e = decodeError(frame(11, ...new Array(11).fill(0)), { ...target, settings: { ...DEFAULT_PROTOBUF_SETTINGS, maxMessageSize: 10 } });
    expect(e.detail).toBe('Invalid Protobuf frame length 11; maxMessageSize=10');
  });

  it('reports the size limit when a field reaches past maxMessageSize', () => {
    // unknown LEN field claiming 100 bytes inside a 3-byte frame with maxMessageSize 10
    const e = decodeError(frame(3, 0x32, 0x64, 0x00), { ...target, settings: { ...DEFAULT_PROTOBUF_SETTINGS, maxMessageSize: 10 } });
    expect(e.detail).toBe(invalid(M.sizeLimit));
    expect(e.offset).toBe(6);
  });

  it('rejects a sub-message that claims more bytes than its parent holds', () => {
    // detail{ 0a 05 "ab" } inside a child whose length is 2: 1a 02 12 05 …
    const e = decodeError(frame(6, 0x1a, 0x02, 0x12, 0x05, 0x61, 0x62));
    expect(e.detail).toBe(invalid(M.truncated));
    expect(e.offset).toBe(8);
  });

  it('rejects a negative length-delimited size', () => {
    const e = decodeError(frame(6, 0x12, 0xff, 0xff, 0xff, 0xff, 0x0f));
    expect(e.detail).toBe(invalid(M.negativeSize));
    expect(e.offset).toBe(5);
  });

  it('rejects a varint longer than 10 bytes', () => {
    const e = decodeError(frame(12, 0x08, ...new Array(10).fill(0x80), 0x01));
    expect(e.detail).toBe(invalid(M.malformedVarint));
    expect(e.offset).toBe(5);
  });

  it('decodes the empty frame 00 00 00 00 to an empty message and reads adjacent frames without read-ahead', () => {
    const bytes = new ByteWriter().i32(0).i32(2).bytes([0x08, 0x07]).finish();
    const r = new ByteReader(bytes);
    const first = decodeProtobufValue(r, target);
    expect(first.json).toEqual({});
    expect(first.payloadSize).toBe(0);
    expect(r.position).toBe(4);
    const second = decodeProtobufValue(r, target);
    expect(second.json).toEqual({ id: 7 });
    expect(r.atEnd).toBe(true);
  });
});

describe("Protobuf value frame: the serializer's published example", () => {
  const example = hex('00 00 00 1e 08 2a 12 07 0a 05 73 61 76 65 64 1a 02 08 07 20 01 2a 08 0a 06 6e 65 73 74 65 64 a0 06 63');

  it('decodes to Envelope{id=42, detail, child, kind=READY, nested} with unknown field 100 = varint 99', () => {
    const d = decodeProtobufValue(new ByteReader(example, { file: 'message.base64' }), target);
    expect(d.typeName).toBe('flink.protobuf.snapshot.Envelope');
    expect(d.json).toEqual({ id: 42, detail: { text: 'saved' }, child: { id: 7 }, kind: 'READY', nested: { text: 'nested' } });
    expect(d.payloadSize).toBe(30);
    expect(d.depth).toBe(1);
    expect(d.unknownFields).toHaveLength(1);
    const u = d.unknownFields[0]!;
    expect({ path: u.path, number: u.number, wireType: u.wireType, offset: u.offset, length: u.length }).toEqual({
      path: '',
      number: 100,
      wireType: 0,
      offset: 31,
      length: 3,
    });
    expect([...u.raw]).toEqual([0xa0, 0x06, 0x63]);
    expect(d.fieldRanges.map((f) => [f.path, f.offset, f.length])).toEqual([
      ['id', 4, 2],
      ['detail', 6, 9],
      ['detail.text', 8, 7],
      ['child', 15, 4],
      ['child.id', 17, 2],
      ['kind', 19, 2],
      ['nested', 21, 10],
      ['nested.text', 23, 8],
      ['100', 31, 3],
    ]);
  });

  it('re-encodes to the same bytes (known fields by number, then unknown fields)', () => {
    const d = decodeProtobufValue(new ByteReader(example), target);
    const w = new ByteWriter();
    writeProtobufFrame(w, encodeProtobufMessage(d.message), DEFAULT_PROTOBUF_SETTINGS.maxMessageSize);
    expect([...w.finish()]).toEqual([...example]);
  });

  it('stream copy keeps the frame verbatim, and names a short payload', () => {
    expect([...copyProtobufFrame(new ByteReader(example), 64)]).toEqual([...example]);
    try {
      copyProtobufFrame(new ByteReader(example.subarray(0, 10)), 64);
      throw new Error('no error');
    } catch (e) {
      expect((e as DecodeError).detail).toBe('Truncated Protobuf frame during stream copy');
      expect((e as DecodeError).offset).toBe(10);
    }
  });

  it('refuses to write a payload above maxMessageSize, before writing anything', () => {
    const w = new ByteWriter();
    expect(() => writeProtobufFrame(w, new Uint8Array(11), 10)).toThrow('Message size exceeds maxMessageSize 10: 11');
    expect(w.length).toBe(0);
  });
});
