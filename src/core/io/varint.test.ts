import { describe, expect, it } from 'vitest';
import { measureVarint, readVarintAt, VARINT_TOO_LONG, VARINT_TRUNCATED, varintCursor, writeVarintAt } from './varint';

describe('varint', () => {
  it('writes and reads back values of 1 to 8 bytes, measuring each', () => {
    for (const value of [0, 1, 127, 128, 300, 16383, 16384, 2 ** 31 - 1, 2 ** 32, 2 ** 35 - 1, 2 ** 35, Number.MAX_SAFE_INTEGER]) {
      const out = new Uint8Array(12).fill(0xee);
      const end = writeVarintAt(out, 2, value);
      expect(end - 2).toBe(measureVarint(value));
      expect(readVarintAt(out, 2)).toBe(value);
      expect(varintCursor.next).toBe(end);
    }
  });

  it('writes the canonical bytes', () => {
    const out = new Uint8Array(3);
    expect(writeVarintAt(out, 0, 300)).toBe(2);
    expect([...out.subarray(0, 2)]).toEqual([0xac, 0x02]);
  });

  it('tells a varint cut off by `end` (VARINT_TRUNCATED) from one longer than maxBytes (VARINT_TOO_LONG)', () => {
    const bytes = Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x01);
    expect(readVarintAt(bytes, 0, 6, 5)).toBe(VARINT_TOO_LONG);
    expect(readVarintAt(bytes, 0, 5, 5)).toBe(VARINT_TOO_LONG); // all five bytes there, each saying more follows
    expect(readVarintAt(bytes, 0, 4, 5)).toBe(VARINT_TRUNCATED);
    expect(readVarintAt(bytes, 0, 5)).toBe(VARINT_TRUNCATED);
    expect(readVarintAt(bytes, 0)).toBe(2 ** 35);
    expect(varintCursor.next).toBe(6);
    expect(readVarintAt(bytes, 6)).toBe(VARINT_TRUNCATED);
    expect(readVarintAt(new Uint8Array(11).fill(0xff), 0)).toBe(VARINT_TOO_LONG);
  });

  it('with lastWhole, ends at the last allowed byte whatever its high bit (Kryo)', () => {
    const bytes = Uint8Array.of(0x81, 0x82, 0x83, 0x84, 0x85);
    expect(readVarintAt(bytes, 0, 5, 4, true)).toBe(1 + 2 * 128 + 3 * 128 ** 2 + 4 * 128 ** 3);
    expect(varintCursor.next).toBe(4);
    expect(readVarintAt(bytes, 0, 3, 4, true)).toBe(VARINT_TRUNCATED);
    expect(readVarintAt(Uint8Array.of(0x81, 0x02), 0, 2, 4, true)).toBe(1 + 2 * 128);
    expect(varintCursor.next).toBe(2);
  });

  it('reads a 10-byte varint (a negative int32 on the wire) as a number above 2^53', () => {
    const bytes = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    const value = readVarintAt(bytes, 0);
    expect(value).toBeGreaterThan(Number.MAX_SAFE_INTEGER);
    expect(varintCursor.next).toBe(10);
  });
});
