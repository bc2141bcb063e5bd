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

/** checkPacked of a copy of buf placed `shift` bytes into a larger buffer (its DataView then starts there too). */
function checkPackedAt(buf: Uint8Array, pos: number, end: number, shift = 3): boolean {
  const copy = new Uint8Array(new ArrayBuffer(buf.length + shift + 5), shift, buf.length);
  copy.set(buf);
  return checkPacked(copy, new DataView(copy.buffer, copy.byteOffset, copy.byteLength), pos, end, VARINT);
}

describe('checkPacked (packed varints)', () => {
  it('accepts 10-byte varints (negative int32) and rejects an 11th byte and an unterminated last varint', () => {
    const minusOne = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    expect(checkPackedAt(Uint8Array.from([...minusOne, 0x05, ...minusOne]), 0, 21)).toBe(true);
    expect(checkPackedAt(Uint8Array.from([0xff, ...minusOne]), 0, 11)).toBe(false);
    expect(checkPackedAt(Uint8Array.from([0x05, 0x80, 0x01]), 0, 2)).toBe(false);
    expect(checkPackedAt(new Uint8Array(0), 0, 0)).toBe(true);
  });

  it('agrees with reading varint after varint on arbitrary bytes and sub-ranges', () => {
    const bytes = fc.array(fc.oneof(fc.integer({ min: 0x80, max: 0xff }), fc.integer({ min: 0, max: 0x7f })), { maxLength: 40 });
    fc.assert(
      fc.property(bytes, fc.nat(), fc.nat(), fc.nat({ max: 7 }), (list, a, b, shift) => {
        const buf = Uint8Array.from(list);
        const pos = a % (buf.length + 1);
        const end = pos + (b % (buf.length - pos + 1));
        expect(checkPackedAt(buf, pos, end, shift)).toBe(checkPackedVarintsOneByOne(buf, pos, end));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with reading varint after varint on long runs of continuation bytes (runs of 9, 10 and 11 at every offset)', () => {
    // runs of 0–14 continuation bytes, each closed by a terminator or not, so runs of 9, 10 and 11 meet the probe at every phase
    const run = fc.tuple(fc.integer({ min: 0, max: 14 }), fc.boolean(), fc.integer({ min: 0x80, max: 0xff }), fc.integer({ min: 0, max: 0x7f }));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 12 }), fc.nat(), fc.nat(), fc.nat({ max: 7 }), (runs, a, b, shift) => {
        const list: number[] = [];
        for (const [length, closed, high, low] of runs) {
          for (let i = 0; i < length; i++) list.push(high);
          if (closed) list.push(low);
        }
        const buf = Uint8Array.from(list);
        const pos = a % (buf.length + 1);
        const end = pos + (b % (buf.length - pos + 1));
        expect(checkPackedAt(buf, pos, end, shift)).toBe(checkPackedVarintsOneByOne(buf, pos, end));
      }),
      { numRuns: 20000 },
    );
  });
});
