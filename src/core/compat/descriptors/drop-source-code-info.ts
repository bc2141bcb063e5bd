/**
 * The bytes of a FileDescriptorSet without each file's `source_code_info` (FileDescriptorProto field 9),
 * so that decoding it builds no objects for what the comparison drops first anyway: in an image that
 * `buf build` or `protoc --include_source_info` writes, source info is most of the bytes (77 % of the
 * grpc-proto image of ../shared/bench-schemas), and decoding it was a third of `compare`'s time.
 *
 * Only a set whose framing is well formed — the files, each file's fields, and in source info each
 * location and each location's fields (tags, wire types, lengths), read by the one wire reader (WireCursor; its failure
 * ends the walk) as the decoders read them — is rewritten; anything else is returned as it is,
 * so decoding it fails exactly as before, with the same message. What lies inside a
 * location's fields (path and span numbers, comment text) is not read: nothing reads it (descriptor.proto
 * is proto2, so decoding would not have validated its text as UTF-8 either).
 */
import { writeVarintAt } from '../../io';
import { WireCursor } from '../../protobuf';

const FILE_TAG = (1 << 3) | 2; // FileDescriptorSet.file, length-delimited
const SOURCE_CODE_INFO_TAG = (9 << 3) | 2; // FileDescriptorProto.source_code_info
const LOCATION_TAG = (1 << 3) | 2; // SourceCodeInfo.location

/** Thrown by the walk's cursor where the framing fails (caught below: the set is left as it is). */
const NOT_FRAMED = new Error('not well framed');
/** The one wire reader, framing as the decoders do; a failure ends the walk, not the load. */
const wire = new WireCursor(() => {
  throw NOT_FRAMED;
});

/** The set's bytes without source info, or `bytes` itself when it has none or is not well framed. */
export function dropSourceCodeInfo(bytes: Uint8Array): Uint8Array {
  try {
    return drop(wire.reset(bytes, 0, bytes.length), bytes);
  } catch (e) {
    if (e === NOT_FRAMED) return bytes;
    throw e;
  } finally {
    wire.release();
  }
}

function drop(w: WireCursor, bytes: Uint8Array): Uint8Array {
  // [fileLengthAt, fileLengthEnd, fileEnd, dropStart, dropEnd, …] per dropped field
  const drops: number[] = [];
  while (w.pos < bytes.length) {
    if (w.readTag() !== FILE_TAG) return bytes;
    const lengthAt = w.pos;
    const fileEnd = w.lengthDelimitedAt(lengthAt, bytes.length);
    const fileStart = w.pos;
    for (let p = fileStart; p < fileEnd;) {
      w.reset(bytes, p, fileEnd);
      const tag = w.readTag();
      const next = w.skipValueAt(w.pos, tag & 7, fileEnd);
      if (tag === SOURCE_CODE_INFO_TAG) {
        if (!isWellFramedSourceInfo(w, w.pos, next)) return bytes; // w.pos: the content's start, after its length
        drops.push(lengthAt, fileStart, fileEnd, p, next);
      } else if (tag >>> 3 === 9) {
        return bytes; // source_code_info of another wire type: decoding decides
      }
      p = next;
    }
    w.reset(bytes, fileEnd, bytes.length);
  }
  return drops.length === 0 ? bytes : rewrite(bytes, drops);
}

/** SourceCodeInfo holds locations (field 1) only, each a well-framed message. */
function isWellFramedSourceInfo(w: WireCursor, start: number, end: number): boolean {
  for (let pos = start; pos < end;) {
    w.reset(w.buf, pos, end);
    if (w.readTag() !== LOCATION_TAG) return false;
    const locationEnd = w.lengthDelimitedAt(w.pos, end);
    for (let p = w.pos; p < locationEnd;) {
      w.reset(w.buf, p, locationEnd);
      const tag = w.readTag();
      const no = tag >>> 3;
      const wireType = tag & 7;
      // path (1), span (2): varints, packed or not; comments (3, 4, 6): text
      if ((no === 1 || no === 2) && wireType !== 0 && wireType !== 2) return false;
      if ((no === 3 || no === 4 || no === 6) && wireType !== 2) return false;
      p = w.skipValueAt(w.pos, wireType, locationEnd);
    }
    pos = locationEnd;
  }
  return true;
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
