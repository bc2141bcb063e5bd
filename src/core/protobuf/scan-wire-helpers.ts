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

/** Packed elements of a field accepting varint (bit 0), fixed64 (bit 1) or fixed32 (bit 5). */
export function checkPacked(buf: Uint8Array, pos: number, end: number, f: number): boolean {
  if ((f & 1) !== 0) {
    // valid when every varint ends inside [pos, end) within 10 bytes: no run of 10 continuation
    // bytes, and the last byte ends a varint (run counts the continuation bytes in a row, branch-free)
    let run = 0;
    for (let i = pos; i < end; i++) {
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
export function skipField(buf: Uint8Array, pos: number, end: number, wt: number, no: number, groupDepth: number, messageDepth: number, recursionLimit: number): number {
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
