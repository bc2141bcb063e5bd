import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPacked, readLength, scanClosedEnum, scanCursor, skipField } from './scan-wire-helpers';

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

/**
 * The helpers as they were before they read with the one wire reader (WireCursor): the reference the
 * reader's versions must agree with on arbitrary bytes.
 */
const previous = {
  cursor: { lengthEnd: 0, closedUnknown: 0 },
  readLength(buf: Uint8Array, pos: number): number {
    let result = 0;
    for (let i = 0; i < 10; i++) {
      const b = buf[pos++];
      if (b === undefined) return -1;
      if (i < 5) result |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) {
        previous.cursor.lengthEnd = pos;
        return result;
      }
    }
    return -1;
  },
  scanClosedEnum(buf: Uint8Array, pos: number, end: number, wt: number, declared: Set<number>): number {
    previous.cursor.closedUnknown = 0;
    let stop = end;
    if (wt === 2) {
      const len = previous.readLength(buf, pos);
      if (len < 0) return -1;
      pos = previous.cursor.lengthEnd;
      stop = pos + len;
      if (stop > end) return -1;
    }
    const single = wt !== 2;
    while (single || pos < stop) {
      let v = 0;
      for (let i = 0; ; i++) {
        if (i >= 10 || pos >= stop) return -1;
        const b = buf[pos++]!;
        if (i < 5) v |= (b & 0x7f) << (7 * i);
        if ((b & 0x80) === 0) break;
      }
      if (!declared.has(v | 0)) previous.cursor.closedUnknown++;
      if (single) break;
    }
    return pos;
  },
  skipField(buf: Uint8Array, pos: number, end: number, wt: number, no: number, groupDepth: number, messageDepth: number, recursionLimit: number): number {
    if (wt === 0) {
      const s = pos;
      while (buf[pos++]! & 0x80) if (pos - s >= 10) return -1;
    } else if (wt === 1) pos += 8;
    else if (wt === 5) pos += 4;
    else if (wt === 2) {
      const len = previous.readLength(buf, pos);
      if (len < 0) return -1;
      pos = previous.cursor.lengthEnd + len;
    } else if (wt === 3) {
      if (groupDepth > 1000) return -1;
      for (;;) {
        if (pos >= end) return -1;
        const len = previous.readLength(buf, pos);
        if (len <= 0) return -1;
        pos = previous.cursor.lengthEnd;
        const t = len >>> 3;
        const w = len & 7;
        if (w === 4) {
          if (t !== no) return -1;
          break;
        }
        if (t === 0 || messageDepth + groupDepth >= recursionLimit) return -1;
        pos = previous.skipField(buf, pos, end, w, t, groupDepth + 1, messageDepth, recursionLimit);
        if (pos === -1) return -1;
      }
    } else return -1;
    return pos > end ? -1 : pos;
  },
};

describe('the scan helpers read with the one wire reader as they read before', () => {
  // bytes rich in wire structure: small tags of every wire type, END_GROUPs of field 1-3, continuation bytes
  const wireBytes = fc.array(
    fc.oneof(fc.constantFrom(0x08, 0x0b, 0x0c, 0x13, 0x14, 0x1b, 0x1c, 0x0a, 0x0d, 0x09, 0x00, 0x01, 0x02, 0x80, 0xff), fc.nat({ max: 255 })),
    {
      maxLength: 40,
    },
  );
  const range = (list: number[], a: number, b: number) => {
    const buf = Uint8Array.from(list);
    const pos = a % (buf.length + 1);
    return { buf, pos, end: pos + (b % (buf.length - pos + 1)) };
  };

  it('readLength', () => {
    fc.assert(
      fc.property(wireBytes, fc.nat(), (list, a) => {
        const { buf, pos } = range(list, a, 0);
        const old = previous.readLength(buf, pos);
        const now = readLength(buf, pos);
        expect(now).toBe(old < 0 ? -1 : old);
        if (now >= 0) expect(scanCursor.lengthEnd).toBe(previous.cursor.lengthEnd);
      }),
    );
  });

  it('scanClosedEnum', () => {
    const declared = new Set([0, 1, 2, -1]);
    fc.assert(
      fc.property(wireBytes, fc.nat(), fc.nat(), fc.constantFrom(0, 2), (list, a, b, wt) => {
        const { buf, pos, end } = range(list, a, b);
        const old = previous.scanClosedEnum(buf, pos, end, wt, declared);
        expect(scanClosedEnum(buf, pos, end, wt, declared)).toBe(old);
        if (old >= 0) expect(scanCursor.closedUnknown).toBe(previous.cursor.closedUnknown);
      }),
    );
  });

  it('skipField (map entries: groups, depth rules)', () => {
    fc.assert(
      fc.property(
        wireBytes,
        fc.nat(),
        fc.nat(),
        fc.nat({ max: 7 }),
        fc.integer({ min: 1, max: 3 }),
        fc.nat({ max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        (list, a, b, wt, no, depth, limit) => {
          const { buf, pos, end } = range(list, a, b);
          expect(skipField(buf, pos, end, wt, no, 0, depth, limit)).toBe(previous.skipField(buf, pos, end, wt, no, 0, depth, limit));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
