/**
 * Writes one value frame: 4-byte big-endian length, then the
 * payload. A payload above maxMessageSize is rejected before any byte is written, with the
 * serializer's text.
 */
import type { ByteWriter } from '../io';
import { createProtobufError } from './protobuf-errors';

export function writeProtobufFrame(w: ByteWriter, payload: Uint8Array, maxMessageSize: number): void {
  if (payload.length > maxMessageSize) {
    throw createProtobufError(`Message size exceeds maxMessageSize ${maxMessageSize}: ${payload.length}`);
  }
  w.i32(payload.length).bytes(payload);
}
