/**
 * Wire helpers of the structural scan for the less frequent paths: long lengths, packed values,
 * closed enums, and fields that map entries skip. Results beyond the position go in scanCursor.
 */
import { MAX_DECODER_DEPTH } from './protobuf-constants';

export const FAIL = -1;

/** side results: where the last length varint ended; undeclared closed-enum values just scanned */
export const scanCursor = { lengthEnd: 0, closedUnknown: 0 };

/** A closed enum value (wire type 0) or packed values (2): sets closedUnknown to the undeclared count. */
export function scanClosedEnum(buf: Uint8Array, pos: number, end: number, wt: number, declared: Set<number>): number {
  scanCursor.closedUnknown = 0;
  let stop = end;
  if (wt === 2) {
    const len = readLength(buf, pos);
    if (len < 0) return FAIL;
    pos = scanCursor.lengthEnd;
    stop = pos + len;
    if (stop > end) return FAIL;
  }
  const single = wt !== 2;
  while (single || pos < stop) {
    let v = 0;
    for (let i = 0; ; i++) {
      if (i >= 10 || pos >= stop) return FAIL;
      const b = buf[pos++]!;
      if (i < 5) v |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) break;
    }
    if (!declared.has(v | 0)) scanCursor.closedUnknown++;
    if (single) break;
  }
  return pos;
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
  let result = 0;
  for (let i = 0; i < 10; i++) {
    const b = buf[pos++];
    if (b === undefined) return -1;
    if (i < 5) result |= (b & 0x7f) << (7 * i);
    if ((b & 0x80) === 0) {
      scanCursor.lengthEnd = pos;
      return result;
    }
  }
  return -1;
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
  if (wt === 0) {
    const s = pos;
    while (buf[pos++]! & 0x80) if (pos - s >= 10) return FAIL;
  } else if (wt === 1) pos += 8;
  else if (wt === 5) pos += 4;
  else if (wt === 2) {
    const len = readLength(buf, pos);
    if (len < 0) return FAIL;
    pos = scanCursor.lengthEnd + len;
  } else if (wt === 3) {
    if (groupDepth > MAX_DECODER_DEPTH) return FAIL;
    for (;;) {
      if (pos >= end) return FAIL;
      const len = readLength(buf, pos);
      if (len <= 0) return FAIL;
      pos = scanCursor.lengthEnd;
      const t = len >>> 3;
      const w = len & 7;
      if (w === 4) {
        if (t !== no) return FAIL;
        break;
      }
      if (t === 0 || messageDepth + groupDepth >= recursionLimit) return FAIL;
      pos = skipField(buf, pos, end, w, t, groupDepth + 1, messageDepth, recursionLimit);
      if (pos === FAIL) return FAIL;
    }
  } else return FAIL;
  return pos > end ? FAIL : pos;
}
