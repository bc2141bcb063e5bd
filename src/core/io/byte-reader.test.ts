import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, isDecodeError, VARINT_TOO_LONG } from './index';

describe('ByteReader', () => {
  it('round-trips the DataOutput primitives written by ByteWriter', () => {
    const w = new ByteWriter()
      .u8(0xfe)
      .bool(true)
      .i16(-2)
      .u16(65535)
      .i32(-123456)
      .i64(-(2n ** 63n))
      .f64(1.5)
      .utf('a\u0000€😀')
      .stringValue('Here be dragons!')
      .stringValue(null)
      .stringValue('€');
    const r = new ByteReader(w.finish(), { file: 'x' });
    expect(r.readU8()).toBe(0xfe);
    expect(r.readBool()).toBe(true);
    expect(r.readI16()).toBe(-2);
    expect(r.readU16()).toBe(65535);
    expect(r.readI32()).toBe(-123456);
    expect(r.readI64()).toBe(-(2n ** 63n));
    expect(r.readF64()).toBe(1.5);
    expect(r.readUtf()).toBe('a\u0000€😀');
    expect(r.readStringValue()).toBe('Here be dragons!');
    expect(r.readStringValue()).toBe(null);
    expect(r.readStringValue()).toBe('€');
    expect(r.atEnd).toBe(true);
  });

  it('encodes StringValue as Flink does', () => {
    expect([...new ByteWriter().stringValue('€').finish()]).toEqual([0x02, 0xac, 0x41]);
    expect([...new ByteWriter().stringValue('é').finish()]).toEqual([0x02, 0xe9, 0x01]);
    expect([...new ByteWriter().utf('\u0000').finish()]).toEqual([0x00, 0x02, 0xc0, 0x80]);
  });

  it('reports truncation with file, absolute offset and path, and what was expected', () => {
    const r = new ByteReader(new Uint8Array([0, 0, 0]), { file: '_metadata', baseOffset: 100, path: ['operator 1'] });
    r.readU8();
    try {
      r.readI32('checkpoint id');
      expect.unreachable();
    } catch (e) {
      expect(isDecodeError(e)).toBe(true);
      if (!isDecodeError(e)) return;
      expect(e.code).toBe('truncated');
      expect(e.offset).toBe(101);
      expect(e.file).toBe('_metadata');
      expect(e.message).toBe('expected 4 bytes for checkpoint id, found 2 — at _metadata, offset 101 (0x65) [operator 1]');
    }
  });

  it('rejects negative and oversized counts before allocating', () => {
    const neg = new ByteReader(new ByteWriter().i32(-1).finish());
    expect(() => neg.readCount('offsets', 8)).toThrow('expected a non-negative number of offsets, found -1');
    const big = new ByteReader(new ByteWriter().i32(2 ** 31 - 1).finish());
    expect(() => big.readCount('offsets', 8)).toThrow('expected 2147483647 offsets (at least 17179869176 bytes), found 0 bytes left');
  });

  it('rejects malformed modified UTF-8 with its offset', () => {
    const r = new ByteReader(new Uint8Array([0, 2, 0xc3, 0x28]), { file: 'f' });
    expect(() => r.readUtf('state name')).toThrow('expected modified UTF-8 for state name, found malformed 2-byte character 0xc3 0x28 — at f, offset 2 (0x2)');
  });

  it("readVarint: io's varint with the reader's truncation error; a longer one is the caller's to word", () => {
    const r = new ByteReader(Uint8Array.from([0xac, 0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]), { file: 'f', baseOffset: 10 });
    expect(r.readVarint('a', 5)).toBe(300);
    expect(r.position).toBe(2);
    expect(r.readVarint('b', 5)).toBe(VARINT_TOO_LONG);
    expect(r.position).toBe(7);
    expect(() => r.readVarint('c', 5)).toThrow('expected 1 byte for c, found 0 — at f, offset 18 (0x12)');
    expect(new ByteReader(Uint8Array.from([0x81, 0x82, 0x83, 0x84])).readVarint('kryo', 4, true)).toBe(1 + 2 * 128 + 3 * 128 ** 2 + 4 * 128 ** 3);
    expect(() => new ByteReader(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80]), { file: 'f' }).readStringValueVarint('length of s')).toThrow(
      'expected a varint of at most 5 bytes for the length of s, found a longer one — at f, offset 5 (0x5)',
    );
  });
});
