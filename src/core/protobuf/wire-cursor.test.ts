import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VARINT_MALFORMED, VARINT_TRUNCATED, WireCursor, type WireFailure } from './wire-cursor';

class Failed extends Error {
  constructor(
    readonly why: WireFailure,
    readonly at: number,
  ) {
    super(why);
  }
}

const cursor = () =>
  new WireCursor((why, at) => {
    throw new Failed(why, at);
  });

/** The failure a read gives (undefined when it does not fail). */
function failureOf(read: () => unknown): { why: WireFailure; at: number } | undefined {
  try {
    read();
    return undefined;
  } catch (e) {
    if (e instanceof Failed) return { why: e.why, at: e.at };
    throw e;
  }
}

/** The reference: the varint as a bigint of its low 64 bits, and its length, or undefined past `end` or 10 bytes. */
function referenceVarint(bytes: Uint8Array, pos: number, end: number): { value: bigint; next: number } | 'truncated' | 'malformed' {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= end) return 'truncated';
    const b = bytes[pos + i]!;
    value |= BigInt(b & 0x7f) << BigInt(7 * i);
    if (b < 0x80) return { value: BigInt.asUintN(64, value), next: pos + i + 1 };
  }
  return 'malformed';
}

describe('WireCursor', () => {
  it('reads a varint as two words, within its bounds and 10 bytes', () => {
    const c = cursor();
    const minusOne = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect(c.varintAt(minusOne, 0, 10)).toBe(10);
    expect([c.lo | 0, c.hi | 0]).toEqual([-1, -1]);
    expect(c.varintAt(minusOne, 0, 9)).toBe(VARINT_TRUNCATED);
    expect(c.varintAt(Uint8Array.from([...minusOne.subarray(0, 9), 0x80, 0x01]), 0, 11)).toBe(VARINT_MALFORMED);
    expect(c.varintAt(Uint8Array.from([0x96, 0x01]), 0, 2)).toBe(2);
    expect(c.lo).toBe(150);
  });

  it('agrees with a bigint reading on arbitrary bytes and bounds', () => {
    const c = cursor();
    const bytes = fc.array(fc.oneof(fc.integer({ min: 0x80, max: 0xff }), fc.integer({ min: 0, max: 0x7f })), { maxLength: 14 });
    fc.assert(
      fc.property(bytes, fc.nat(), fc.nat(), (list, a, b) => {
        const buf = Uint8Array.from(list);
        const pos = a % (buf.length + 1);
        const end = pos + (b % (buf.length - pos + 1));
        const ref = referenceVarint(buf, pos, end);
        const next = c.varintAt(buf, pos, end);
        if (ref === 'truncated') expect(next).toBe(VARINT_TRUNCATED);
        else if (ref === 'malformed') expect(next).toBe(VARINT_MALFORMED);
        else {
          expect(next).toBe(ref.next);
          expect((BigInt(c.hi >>> 0) << 32n) | BigInt(c.lo >>> 0)).toBe(ref.value);
        }
      }),
    );
  });

  it('reads tags of a field number above 0 within 32 bits, failing as told', () => {
    const c = cursor();
    c.reset(Uint8Array.from([0x08, 0x96, 0x01]), 0, 3);
    expect(c.readTag()).toBe(8);
    expect(c.pos).toBe(1);
    expect(failureOf(() => c.reset(Uint8Array.from([0x07]), 0, 1).readTag())).toEqual({ why: 'invalid-tag', at: 0 });
    expect(failureOf(() => c.reset(Uint8Array.from([0x88, 0x80, 0x80, 0x80, 0x10]), 0, 5).readTag())).toEqual({ why: 'invalid-tag', at: 0 });
    expect(failureOf(() => c.reset(Uint8Array.from([0x88]), 0, 1).readTag())).toEqual({ why: 'truncated', at: 1 });
  });

  it('bounds a length-delimited value by protobuf-java rule (low 32 bits, not negative) and its end', () => {
    const c = cursor();
    c.reset(Uint8Array.from([0x09, 0x03, 0x61, 0x62, 0x63, 0x00]), 0, 6);
    expect(c.lengthDelimitedAt(1, 6)).toBe(5);
    expect(c.pos).toBe(2);
    expect(failureOf(() => c.lengthDelimitedAt(1, 4))).toEqual({ why: 'truncated', at: 4 });
    c.reset(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f]), 0, 5);
    expect(failureOf(() => c.lengthDelimitedAt(0, 5))).toEqual({ why: 'bad-length', at: 0 });
    // a 10-byte length whose low 32 bits are 2: protobuf-java's readRawVarint32 reads 2
    c.reset(Uint8Array.from([0x82, 0x80, 0x80, 0x80, 0xf0, 0xff, 0xff, 0xff, 0xff, 0x01, 0x61, 0x62]), 0, 12);
    expect(c.lengthDelimitedAt(0, 12)).toBe(12);
  });

  it('skips values of wire types 0, 1, 2 and 5 within bounds; groups and 6/7 are not values', () => {
    const c = cursor().reset(Uint8Array.from([0x96, 0x01, 1, 2, 3, 4, 5, 6, 7, 8, 0x01, 0x61]), 0, 12);
    expect(c.skipValueAt(0, 0, 12)).toBe(2);
    expect(c.skipValueAt(2, 1, 12)).toBe(10);
    expect(c.skipValueAt(2, 5, 12)).toBe(6);
    expect(c.skipValueAt(10, 2, 12)).toBe(12);
    expect(failureOf(() => c.skipValueAt(6, 1, 12))).toEqual({ why: 'truncated', at: 12 });
    for (const wt of [3, 4, 6, 7]) expect(failureOf(() => c.skipValueAt(0, wt, 12))?.why).toBe('bad-wire-type');
  });

  it('skips a field, groups to their END_GROUP of the same number, with the depth rules given', () => {
    // group 1 { 2: varint 5, group 3 { } } then a varint field 4
    const bytes = Uint8Array.from([0x10, 0x05, 0x1b, 0x1c, 0x0c, 0x20, 0x01]);
    const c = cursor().reset(bytes, 0, bytes.length);
    c.skipField(0x0b, 10, 10);
    expect(c.pos).toBe(5);
    expect(failureOf(() => c.reset(bytes, 0, bytes.length).skipField(0x0b, 0, 10))?.why).toBe('bad-wire-type');
    expect(failureOf(() => c.reset(bytes, 0, bytes.length).skipField(0x0b, 10, 0))?.why).toBe('bad-wire-type');
    c.reset(bytes, 0, bytes.length).skipField(0x0b, 10, 1);
    expect(c.pos).toBe(5);
    expect(failureOf(() => c.reset(bytes, 0, bytes.length).skipField(0x13, 10, 10))?.why).toBe('invalid-tag');
    expect(failureOf(() => c.reset(bytes, 0, 4).skipField(0x0b, 10, 10))?.why).toBe('truncated');
  });
});
