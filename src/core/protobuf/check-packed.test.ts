import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPacked } from './scan-wire-helpers';

/** The straightforward reading: varint after varint, each ending within 10 bytes, the last one exactly at `end`. */
function checkPackedVarintsOneByOne(buf: Uint8Array, pos: number, end: number): boolean {
  while (pos < end) {
    const s = pos;
    while ((buf[pos++] ?? 0) & 0x80) if (pos - s >= 10) return false;
  }
  return pos === end;
}

const VARINT = 1; // bit 0 of the field flags: wire type 0 accepted (a packed varint field)

describe('checkPacked (packed varints)', () => {
  it('accepts 10-byte varints (negative int32) and rejects an 11th byte and an unterminated last varint', () => {
    const minusOne = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    expect(checkPacked(Uint8Array.from([...minusOne, 0x05, ...minusOne]), 0, 21, VARINT)).toBe(true);
    expect(checkPacked(Uint8Array.from([0xff, ...minusOne]), 0, 11, VARINT)).toBe(false);
    expect(checkPacked(Uint8Array.from([0x05, 0x80, 0x01]), 0, 2, VARINT)).toBe(false);
    expect(checkPacked(new Uint8Array(0), 0, 0, VARINT)).toBe(true);
  });

  it('agrees with reading varint after varint on arbitrary bytes and sub-ranges', () => {
    const bytes = fc.array(fc.oneof(fc.integer({ min: 0x80, max: 0xff }), fc.integer({ min: 0, max: 0x7f })), { maxLength: 40 });
    fc.assert(
      fc.property(bytes, fc.nat(), fc.nat(), (list, a, b) => {
        const buf = Uint8Array.from(list);
        const pos = a % (buf.length + 1);
        const end = pos + (b % (buf.length - pos + 1));
        expect(checkPacked(buf, pos, end, VARINT)).toBe(checkPackedVarintsOneByOne(buf, pos, end));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with reading varint after varint on long runs of continuation bytes (runs of 9, 10 and 11 at every offset)', () => {
    // runs of 0–14 continuation bytes, each closed by a terminator or not, so runs of 9, 10 and 11 meet the probe at every phase
    const run = fc.tuple(fc.integer({ min: 0, max: 14 }), fc.boolean(), fc.integer({ min: 0x80, max: 0xff }), fc.integer({ min: 0, max: 0x7f }));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 12 }), fc.nat(), fc.nat(), (runs, a, b) => {
        const list: number[] = [];
        for (const [length, closed, high, low] of runs) {
          for (let i = 0; i < length; i++) list.push(high);
          if (closed) list.push(low);
        }
        const buf = Uint8Array.from(list);
        const pos = a % (buf.length + 1);
        const end = pos + (b % (buf.length - pos + 1));
        expect(checkPacked(buf, pos, end, VARINT)).toBe(checkPackedVarintsOneByOne(buf, pos, end));
      }),
      { numRuns: 20000 },
    );
  });
});
