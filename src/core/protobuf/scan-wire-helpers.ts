/**
 * Wire helpers of the structural scan for the less frequent paths: long lengths, packed values,
 * closed enums, and fields that map entries skip, read with the one wire reader (wire-cursor.ts) whose
 * failures become the scan's FAIL. Results beyond the position go in scanCursor.
 */
import { MAX_DECODER_DEPTH } from './protobuf-constants';
import { WireCursor } from './wire-cursor';

export const FAIL = -1;

/** Thrown by the helpers' wire reader, caught by the helper that called it: the scan's FAIL. */
const SCAN_FAILED = Symbol('scan failed');
const wire = new WireCursor(() => {
  throw SCAN_FAILED;
});

/** side results: where the last length varint ended; undeclared closed-enum values just scanned */
export const scanCursor = { lengthEnd: 0, closedUnknown: 0 };

/** A closed enum value (wire type 0) or packed values (2): sets closedUnknown to the undeclared count. */
export function scanClosedEnum(buf: Uint8Array, pos: number, end: number, wt: number, declared: Set<number>): number {
  scanCursor.closedUnknown = 0;
  wire.buf = buf;
  try {
    if (wt !== 2) return readClosedEnumValue(pos, end, declared);
    const stop = wire.lengthDelimitedAt(pos, end);
    for (let p = wire.pos; p < stop;) p = readClosedEnumValue(p, stop, declared);
    return stop;
  } catch (e) {
    if (e === SCAN_FAILED) return FAIL;
    throw e;
  } finally {
    wire.release();
  }
}

/** One enum value at p (protobuf-java keeps its low 32 bits), counted when undeclared; the position after it. */
function readClosedEnumValue(p: number, end: number, declared: Set<number>): number {
  const next = wire.skipVarintAt(p, end);
  if (!declared.has(wire.lo | 0)) scanCursor.closedUnknown++;
  return next;
}

/** For an 8-bit mask of high bits (bit k: byte k of eight), how many bytes in a row from the first, and up to the last, have it set. */
const LEADING_RUN = new Uint8Array(256);
const TRAILING_RUN = new Uint8Array(256);
for (let m = 0; m < 256; m++) {
  let lead = 0;
  while (lead < 8 && ((m >> lead) & 1) !== 0) lead++;
  let trail = 0;
  while (trail < 8 && ((m >> (7 - trail)) & 1) !== 0) trail++;
  LEADING_RUN[m] = lead;
  TRAILING_RUN[m] = trail;
}

/** The high bits of the four little-endian bytes of w as a 4-bit mask (bit k: byte k). */
function highBits4(w: number): number {
  return Math.imul((w >>> 7) & 0x01010101, 0x10204080) >>> 28;
}

/**
 * Packed elements of a field accepting varint (bit 0), fixed64 (bit 1) or fixed32 (bit 5); `dv` is a
 * DataView of buf's bytes (the same offsets).
 */
export function checkPacked(buf: Uint8Array, dv: DataView, pos: number, end: number, f: number): boolean {
  if ((f & 1) !== 0) {
    // valid when every varint ends inside [pos, end) within 10 bytes: no run of 10 continuation
    // bytes, and the last byte ends a varint (run counts the continuation bytes in a row). Eight
    // bytes per step, read as two words: their high bits as one mask, whose leading run extends the
    // run so far and whose trailing run starts the next (a run inside eight bytes is shorter than 10)
    let run = 0;
    let i = pos;
    for (const last8 = end - 8; i <= last8; i += 8) {
      const m = highBits4(dv.getInt32(i, true)) | (highBits4(dv.getInt32(i + 4, true)) << 4);
      if (run + LEADING_RUN[m]! >= 10) return false;
      run = m === 0xff ? run + 8 : TRAILING_RUN[m]!;
    }
    for (; i < end; i++) {
      run = (run + 1) * (buf[i]! >>> 7);
      if (run >= 10) return false;
    }
    return run === 0;
  }
  return (end - pos) % ((f & 2) !== 0 ? 8 : 4) === 0;
}

/** A varint32 length (protobuf-java readRawVarint32); -1 when negative or malformed. Sets scanCursor.lengthEnd. */
export function readLength(buf: Uint8Array, pos: number): number {
  const next = wire.varintAt(buf, pos, buf.length);
  const n = wire.lo | 0;
  if (next < 0 || n < 0) return -1;
  scanCursor.lengthEnd = next;
  return n;
}

/**
 * CodedInputStream.skipField inside map entries (nothing kept): fields inside skipped groups are
 * checked against the recursion limit with messageDepth + groupDepth, as protobuf-java 4.36.2 does.
 */
export function skipField(
  buf: Uint8Array,
  pos: number,
  end: number,
  wt: number,
  no: number,
  groupDepth: number,
  messageDepth: number,
  recursionLimit: number,
): number {
  wire.reset(buf, pos, end);
  try {
    wire.skipField((no << 3) | wt, MAX_DECODER_DEPTH, recursionLimit - messageDepth, groupDepth);
    return wire.pos;
  } catch (e) {
    if (e === SCAN_FAILED) return FAIL;
    throw e;
  } finally {
    wire.release();
  }
}
