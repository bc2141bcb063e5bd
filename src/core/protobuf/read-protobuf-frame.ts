/**
 * The value frame: a signed 32-bit big-endian payload
 * length N with 0 ≤ N ≤ maxMessageSize, then N bytes of Protobuf. Length errors are the
 * serializer's unwrapped texts; nothing is allocated from N.
 */
import type { ByteReader } from '../io';
import { createProtobufError } from './protobuf-errors';

export interface ProtobufFrame {
  /** absolute offset of the 4-byte length */
  frameOffset: number;
  /** absolute offset of the payload */
  payloadOffset: number;
  /** declared payload length N */
  length: number;
  /** the payload bytes present: N bytes, or fewer when the input ends early (see `missing`) */
  payload: Uint8Array;
  /** bytes of the payload that the input lacks (0 for a complete frame) */
  missing: number;
}

/** Reads one frame and advances `r` past it (or to the end of the input when truncated). */
export function readProtobufFrame(r: ByteReader, maxMessageSize: number): ProtobufFrame {
  const frameOffset = r.absolutePosition;
  if (r.remaining < 4) {
    r.skip(r.remaining);
    throw createProtobufError('Truncated Protobuf frame length', { file: r.file, offset: frameOffset, path: r.path });
  }
  const length = r.readI32('Protobuf frame length');
  if (length < 0 || length > maxMessageSize) {
    throw createProtobufError(`Invalid Protobuf frame length ${length}; maxMessageSize=${maxMessageSize}`, { file: r.file, offset: frameOffset, path: r.path });
  }
  const available = Math.min(length, r.remaining);
  const payloadOffset = r.absolutePosition;
  const payload = r.readBytes(available, 'Protobuf payload');
  return { frameOffset, payloadOffset, length, payload, missing: length - available };
}

/**
 * readProtobufFrame's length check without a reader: the declared payload length N of the frame
 * at bytes[start, end), or -1 where readProtobufFrame throws (fewer than 4 bytes, N < 0 or
 * N > maxMessageSize). The payload present is bytes[start + 4, start + 4 + min(N, end - start - 4)).
 */
export function readProtobufFrameLength(bytes: Uint8Array, start: number, end: number, maxMessageSize: number): number {
  if (end - start < 4) return -1;
  const length = (bytes[start]! << 24) | (bytes[start + 1]! << 16) | (bytes[start + 2]! << 8) | bytes[start + 3]!;
  return length < 0 || length > maxMessageSize ? -1 : length;
}

/**
 * The serializer's raw stream copy: the frame's bytes verbatim, never parsed; a short payload is
 * `Truncated Protobuf frame during stream copy`.
 */
export function copyProtobufFrame(r: ByteReader, maxMessageSize: number): Uint8Array {
  const frame = readProtobufFrame(r, maxMessageSize);
  if (frame.missing > 0) {
    throw createProtobufError('Truncated Protobuf frame during stream copy', {
      file: r.file,
      offset: frame.payloadOffset + frame.payload.length,
      path: r.path,
    });
  }
  const out = new Uint8Array(4 + frame.length);
  new DataView(out.buffer).setInt32(0, frame.length);
  out.set(frame.payload, 4);
  return out;
}
