/**
 * The bytes of a FileDescriptorSet without each file's `source_code_info` (FileDescriptorProto field 9),
 * so that decoding it builds no objects for what the comparison drops first anyway: in an image that
 * `buf build` or `protoc --include_source_info` writes, source info is most of the bytes (77 % of the
 * grpc-proto image of ../shared/bench-schemas), and decoding it was a third of `compare`'s time.
 *
 * Only a set whose framing is well formed — the files, each file's fields, and in source info each
 * location and each location's fields (tags, wire types, lengths) — is rewritten; anything else is
 * returned as it is, so decoding it fails exactly as before, with the same message. What lies inside a
 * location's fields (path and span numbers, comment text) is not read: nothing reads it (descriptor.proto
 * is proto2, so decoding would not have validated its text as UTF-8 either).
 */
import { readVarintAt, varintCursor, writeVarintAt } from '../../io';

const FILE_TAG = (1 << 3) | 2; // FileDescriptorSet.file, length-delimited
const SOURCE_CODE_INFO_TAG = (9 << 3) | 2; // FileDescriptorProto.source_code_info
const LOCATION_TAG = (1 << 3) | 2; // SourceCodeInfo.location

/** The set's bytes without source info, or `bytes` itself when it has none or is not well framed. */
export function dropSourceCodeInfo(bytes: Uint8Array): Uint8Array {
  // [fileLengthAt, fileLengthEnd, fileEnd, dropStart, dropEnd, …] per dropped field
  const drops: number[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    if (readVarint(bytes, pos, bytes.length) !== FILE_TAG) return bytes;
    const lengthAt = varintCursor.next;
    const length = readVarint(bytes, lengthAt, bytes.length);
    const fileStart = varintCursor.next;
    if (length < 0 || fileStart + length > bytes.length) return bytes;
    const fileEnd = fileStart + length;
    for (let p = fileStart; p < fileEnd;) {
      const fieldStart = p;
      const tag = readVarint(bytes, p, fileEnd);
      if (tag < 0) return bytes;
      const next = skipValue(bytes, tag, varintCursor.next, fileEnd);
      if (next < 0) return bytes;
      if (tag === SOURCE_CODE_INFO_TAG) {
        readVarint(bytes, skipTag(bytes, fieldStart), fileEnd); // its length (checked by skipValue): content starts after it
        if (!isWellFramedSourceInfo(bytes, varintCursor.next, next)) return bytes;
        drops.push(lengthAt, fileStart, fileEnd, fieldStart, next);
      } else if (tag >>> 3 === 9) {
        return bytes; // source_code_info of another wire type: decoding decides
      }
      p = next;
    }
    pos = fileEnd;
  }
  return drops.length === 0 ? bytes : rewrite(bytes, drops);
}

/** SourceCodeInfo holds locations (field 1) only, each a well-framed message. */
function isWellFramedSourceInfo(bytes: Uint8Array, start: number, end: number): boolean {
  let pos = start;
  while (pos < end) {
    if (readVarint(bytes, pos, end) !== LOCATION_TAG) return false;
    const length = readVarint(bytes, varintCursor.next, end);
    const locationStart = varintCursor.next;
    if (length < 0 || locationStart + length > end) return false;
    const locationEnd = locationStart + length;
    for (let p = locationStart; p < locationEnd;) {
      const tag = readVarint(bytes, p, locationEnd);
      if (tag < 0) return false;
      const no = tag >>> 3;
      const wireType = tag & 7;
      // path (1), span (2): varints, packed or not; comments (3, 4, 6): text
      if ((no === 1 || no === 2) && wireType !== 0 && wireType !== 2) return false;
      if ((no === 3 || no === 4 || no === 6) && wireType !== 2) return false;
      p = skipValue(bytes, tag, varintCursor.next, locationEnd);
      if (p < 0) return false;
    }
    pos = locationEnd;
  }
  return true;
}

/** The offset after a field's value of wire type 0, 1, 2 or 5 within `end`; -1 otherwise (groups included). */
function skipValue(bytes: Uint8Array, tag: number, pos: number, end: number): number {
  if (tag >>> 3 === 0) return -1;
  switch (tag & 7) {
    case 0:
      return readVarint(bytes, pos, end) < 0 ? -1 : varintCursor.next;
    case 1:
      return pos + 8 <= end ? pos + 8 : -1;
    case 2: {
      const length = readVarint(bytes, pos, end);
      return length >= 0 && varintCursor.next + length <= end ? varintCursor.next + length : -1;
    }
    case 5:
      return pos + 4 <= end ? pos + 4 : -1;
    default:
      return -1;
  }
}

function skipTag(bytes: Uint8Array, pos: number): number {
  readVarint(bytes, pos, bytes.length);
  return varintCursor.next;
}

/** A varint of at most 10 bytes ending before `end` (its end in varintCursor.next), or -1; values above 2^53 count as malformed. */
function readVarint(bytes: Uint8Array, pos: number, end: number): number {
  const value = readVarintAt(bytes, pos, end);
  return value <= Number.MAX_SAFE_INTEGER ? value : -1;
}

/** Copies the set with the dropped fields left out and each touched file's length rewritten. */
function rewrite(bytes: Uint8Array, drops: readonly number[]): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let at = 0;
  let pos = 0;
  const copy = (from: number, to: number): void => {
    out.set(bytes.subarray(from, to), at);
    at += to - from;
  };
  for (let i = 0; i < drops.length;) {
    const lengthAt = drops[i]!;
    const fileStart = drops[i + 1]!;
    const fileEnd = drops[i + 2]!;
    let removed = 0;
    let j = i;
    for (; j < drops.length && drops[j] === lengthAt; j += 5) removed += drops[j + 4]! - drops[j + 3]!;
    copy(pos, lengthAt); // up to this file's length: earlier files and its tag
    at = writeVarintAt(out, at, fileEnd - fileStart - removed);
    let p = fileStart;
    for (let k = i; k < j; k += 5) {
      copy(p, drops[k + 3]!);
      p = drops[k + 4]!;
    }
    copy(p, fileEnd);
    pos = fileEnd;
    i = j;
  }
  copy(pos, bytes.length);
  return out.subarray(0, at);
}
