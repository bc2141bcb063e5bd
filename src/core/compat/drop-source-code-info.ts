/**
 * The bytes of a FileDescriptorSet without each file's `source_code_info` (FileDescriptorProto field 9),
 * so that decoding it builds no objects for what the comparison drops first anyway: in an image that
 * `buf build` or `protoc --include_source_info` writes, source info is most of the bytes (77 % of the
 * grpc-proto image of ../shared/bench-schemas), and decoding it was a third of `compare`'s time.
 *
 * Only a set whose framing is well formed down to each source-info location (tags, wire types, lengths,
 * the packed path and span varints) is rewritten; anything else is returned as it is, so decoding it
 * fails exactly as before with the same message. descriptor.proto is proto2, so its strings are not
 * validated as UTF-8: dropping a well-framed source_code_info drops nothing that decoding could reject.
 */

const FILE_FIELD = 1; // FileDescriptorSet.file
const SOURCE_CODE_INFO_FIELD = 9; // FileDescriptorProto.source_code_info
const LOCATION_FIELD = 1; // SourceCodeInfo.location

interface Range {
  start: number;
  end: number;
}

/** The set's bytes without source info, or `bytes` itself when it has none or is not well framed. */
export function dropSourceCodeInfo(bytes: Uint8Array): Uint8Array {
  const drops: Drop[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const tag = readVarint(bytes, pos, bytes.length);
    if (tag === undefined || tag.value >>> 3 !== FILE_FIELD || (tag.value & 7) !== 2) return bytes;
    const length = readVarint(bytes, tag.next, bytes.length);
    if (length === undefined || length.next + length.value > bytes.length) return bytes;
    const fileStart = length.next;
    const fileEnd = fileStart + length.value;
    const found = findSourceInfo(bytes, fileStart, fileEnd);
    if (found === null) return bytes;
    if (found.length > 0) drops.push(...found.map((r) => ({ ...r, file: { start: pos, lengthAt: tag.next, lengthEnd: length.next, end: fileEnd } })));
    pos = fileEnd;
  }
  if (drops.length === 0) return bytes;
  return rewrite(bytes, drops);
}

interface Drop extends Range {
  file: { start: number; lengthAt: number; lengthEnd: number; end: number };
}

/** The source-info fields of one file (usually one), [] when none, null when the file is not well framed. */
function findSourceInfo(bytes: Uint8Array, start: number, end: number): Range[] | null {
  const out: Range[] = [];
  let pos = start;
  while (pos < end) {
    const fieldStart = pos;
    const tag = readVarint(bytes, pos, end);
    if (tag === undefined) return null;
    const next = skipField(bytes, tag.value, tag.next, end);
    if (next === undefined) return null;
    if (tag.value >>> 3 === SOURCE_CODE_INFO_FIELD) {
      if ((tag.value & 7) !== 2) return null;
      const length = readVarint(bytes, tag.next, end)!;
      if (!isWellFramedSourceInfo(bytes, length.next, next)) return null;
      out.push({ start: fieldStart, end: next });
    }
    pos = next;
  }
  return out;
}

/** SourceCodeInfo: only locations (field 1), each with well-framed fields and varint-only path (1) and span (2). */
function isWellFramedSourceInfo(bytes: Uint8Array, start: number, end: number): boolean {
  let pos = start;
  while (pos < end) {
    const tag = readVarint(bytes, pos, end);
    if (tag === undefined || tag.value >>> 3 !== LOCATION_FIELD || (tag.value & 7) !== 2) return false;
    const length = readVarint(bytes, tag.next, end);
    if (length === undefined || length.next + length.value > end) return false;
    if (!isWellFramedLocation(bytes, length.next, length.next + length.value)) return false;
    pos = length.next + length.value;
  }
  return true;
}

function isWellFramedLocation(bytes: Uint8Array, start: number, end: number): boolean {
  let pos = start;
  while (pos < end) {
    const tag = readVarint(bytes, pos, end);
    if (tag === undefined) return false;
    const no = tag.value >>> 3;
    const wireType = tag.value & 7;
    if (no === 1 || no === 2) {
      // path / span: repeated int32, packed (LEN of varints) or one varint
      if (wireType === 0) {
        const v = readVarint(bytes, tag.next, end);
        if (v === undefined) return false;
        pos = v.next;
        continue;
      }
      if (wireType !== 2) return false;
      const length = readVarint(bytes, tag.next, end);
      if (length === undefined || length.next + length.value > end) return false;
      for (let p = length.next; p < length.next + length.value; ) {
        const v = readVarint(bytes, p, length.next + length.value);
        if (v === undefined) return false;
        p = v.next;
      }
      pos = length.next + length.value;
      continue;
    }
    // comments (3, 4, 6) and anything else: length-delimited or another well-framed scalar
    if (wireType !== 0 && wireType !== 1 && wireType !== 2 && wireType !== 5) return false;
    if ((no === 3 || no === 4 || no === 6) && wireType !== 2) return false;
    const next = skipField(bytes, tag.value, tag.next, end);
    if (next === undefined) return false;
    pos = next;
  }
  return true;
}

/** The offset after a field's value, for wire types 0, 1, 2 and 5 within `end` (groups are not skipped: undefined). */
function skipField(bytes: Uint8Array, tag: number, pos: number, end: number): number | undefined {
  if (tag >>> 3 === 0) return undefined;
  switch (tag & 7) {
    case 0:
      return readVarint(bytes, pos, end)?.next;
    case 1:
      return pos + 8 <= end ? pos + 8 : undefined;
    case 2: {
      const length = readVarint(bytes, pos, end);
      return length !== undefined && length.next + length.value <= end ? length.next + length.value : undefined;
    }
    case 5:
      return pos + 4 <= end ? pos + 4 : undefined;
    default:
      return undefined;
  }
}

/** A varint of at most 10 bytes ending before `end`; values above 2^53 are not lengths anyone writes (undefined). */
function readVarint(bytes: Uint8Array, pos: number, end: number): { value: number; next: number } | undefined {
  let value = 0;
  let scale = 1;
  for (let i = pos; i < end && i < pos + 10; i++) {
    const b = bytes[i]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return value <= Number.MAX_SAFE_INTEGER ? { value, next: i + 1 } : undefined;
    scale *= 128;
  }
  return undefined;
}

/** Copies the set with the dropped ranges left out and each touched file's length rewritten. */
function rewrite(bytes: Uint8Array, drops: readonly Drop[]): Uint8Array {
  const byFile = new Map<number, Drop[]>();
  for (const d of drops) {
    const list = byFile.get(d.file.start);
    if (list) list.push(d);
    else byFile.set(d.file.start, [d]);
  }
  const out = new Uint8Array(bytes.length);
  let at = 0;
  let pos = 0;
  const copy = (from: number, to: number): void => {
    out.set(bytes.subarray(from, to), at);
    at += to - from;
  };
  for (const list of byFile.values()) {
    const file = list[0]!.file;
    copy(pos, file.lengthAt); // everything before this file's length (earlier untouched files, its tag)
    const removed = list.reduce((n, d) => n + (d.end - d.start), 0);
    at = writeVarint(out, at, file.end - file.lengthEnd - removed);
    let p = file.lengthEnd;
    for (const d of list) {
      copy(p, d.start);
      p = d.end;
    }
    copy(p, file.end);
    pos = file.end;
  }
  copy(pos, bytes.length);
  return out.subarray(0, at);
}

function writeVarint(out: Uint8Array, at: number, value: number): number {
  let v = value;
  while (v >= 0x80) {
    out[at++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[at++] = v;
  return at;
}
