/**
 * A Protobuf message as Flink's KryoSerializer writes it through chill-protobuf's ProtobufSerializer
 * (`kryo.writeClassAndObject`, references on; Kryo 2.24 in Flink 1.x and Kryo 5 in Flink 2.x write the same bytes):
 * - the class: a positive varint `id + 2` for a registered class; `1` for a class written by name, then a varint
 *   name id and the class name as a Kryo string (ASCII with the last byte's high bit set, or a flagged UTF-8
 *   length); `0` for null;
 * - the reference marker: varint `1` (NOT_NULL: a new object; `0` is null, more a back-reference, which a
 *   top-level state value cannot be);
 * - chill's frame: `output.writeInt(length, true)` (a positive varint) and the payload.
 * Flink registers the job's classes in the snapshot's registration order after the 85 serializers of its
 * FlinkChillPackageRegistrar (flink-java 1.x, flink-streaming-java 2.x: `getNextRegistrationId()` is 85 in both).
 */
import { type ByteReader, readVarintAt, varintCursor } from '../io';
import { createProtobufError } from './protobuf-errors';
import type { ProtobufFrame } from './read-protobuf-frame';
import type { ProtobufSnapshotContent } from './protobuf-snapshot-types';

/** Flink's first registration id for a job's Kryo registrations (FlinkChillPackageRegistrar#getNextRegistrationId). */
export const FLINK_FIRST_KRYO_REGISTRATION_ID = 85;

export interface KryoClassExpectation {
  /** the Java class the state holds (the snapshot's type class, or a subclass written by name) */
  javaClass: string;
  /** the Kryo registration id of `javaClass`, when it is registered */
  registrationId?: number;
  /** how the registration id was derived, for messages */
  registrationNote?: string;
  /** the user's schema for another Java class, for values whose class Kryo wrote by name (undefined: no such message) */
  contentFor?: (javaClass: string) => ProtobufSnapshotContent | undefined;
}

/** What precedes the payload: where it starts and how long it is, or that the value is null. */
export type KryoFrameHeader = { kind: 'null'; end: number } | { kind: 'frame'; payloadStart: number; length: number; javaClass: string };

/** Reads a Kryo positive varint at bytes[pos]; returns [value, next] or undefined when it runs past `end`, is longer than 5 bytes or above 32 bits. */
function readVarint(bytes: Uint8Array, pos: number, end: number): [number, number] | undefined {
  const result = readVarintAt(bytes, pos, end, 5);
  return result < 0 || result > 0xffffffff ? undefined : [result, varintCursor.next];
}

/** Kryo's `Input.readString`: ASCII (last byte | 0x80) or a UTF-8 char count + 1 with the 0x80 flag. */
function readKryoString(bytes: Uint8Array, pos: number, end: number): [string, number] | undefined {
  if (pos >= end) return undefined;
  let b = bytes[pos]!;
  if ((b & 0x80) === 0) {
    let s = '';
    for (;;) {
      if (pos >= end) return undefined;
      b = bytes[pos++]!;
      s += String.fromCharCode(b & 0x7f);
      if (b & 0x80) return [s, pos];
      if (s.length > 65535) return undefined;
    }
  }
  pos++;
  let count = b & 0x3f;
  if (b & 0x40) {
    // the rest of Kryo's readUtf8Length: at most 4 bytes, the last whole
    const rest = readVarintAt(bytes, pos, end, 4, true);
    if (rest < 0) return undefined;
    count += rest * 64;
    pos = varintCursor.next;
  }
  if (count === 0) return undefined;
  let s = '';
  for (let i = 0; i < count - 1; i++) {
    if (pos >= end) return undefined;
    const c = bytes[pos++]!;
    if (c < 0x80) s += String.fromCharCode(c);
    else if (c >> 5 === 0x06 && pos < end) s += String.fromCharCode(((c & 0x1f) << 6) | (bytes[pos++]! & 0x3f));
    else if (c >> 4 === 0x0e && pos + 1 < end) {
      s += String.fromCharCode(((c & 0x0f) << 12) | ((bytes[pos]! & 0x3f) << 6) | (bytes[pos + 1]! & 0x3f));
      pos += 2;
    } else return undefined;
  }
  return [s, pos];
}

/**
 * Reads the Kryo header of one value at bytes[start, end) and checks it against what the snapshot says the
 * state holds. Returns the header, or a message saying what was expected and found (and at which offset
 * relative to `start`), never throws.
 */
export function readKryoFrameHeader(
  bytes: Uint8Array,
  start: number,
  end: number,
  expect: KryoClassExpectation,
  maxMessageSize: number,
): KryoFrameHeader | { kind: 'error'; at: number; message: string } {
  const cls = readVarint(bytes, start, end);
  if (!cls) return { kind: 'error', at: start, message: 'expected a Kryo class id (varint), found the end of the value' };
  let pos = cls[1];
  let javaClass = expect.javaClass;
  if (cls[0] === 0) return { kind: 'null', end: pos };
  if (cls[0] === 1) {
    const nameId = readVarint(bytes, pos, end);
    if (!nameId) return { kind: 'error', at: pos, message: 'expected a Kryo class name id (varint), found the end of the value' };
    const name = readKryoString(bytes, nameId[1], end);
    if (!name) return { kind: 'error', at: nameId[1], message: 'expected a Kryo class name (string), found bytes that are not one' };
    javaClass = name[0];
    pos = name[1];
  } else {
    const id = cls[0] - 2;
    if (expect.registrationId === undefined || id !== expect.registrationId) {
      const wanted =
        expect.registrationId === undefined
          ? `${expect.javaClass} written by name (class id 1)`
          : `Kryo registration id ${expect.registrationId} of ${expect.javaClass}${expect.registrationNote ? ` (${expect.registrationNote})` : ''}`;
      return { kind: 'error', at: start, message: `expected ${wanted}, found Kryo registration id ${id}` };
    }
  }
  const marker = readVarint(bytes, pos, end);
  if (!marker) return { kind: 'error', at: pos, message: 'expected a Kryo reference marker, found the end of the value' };
  if (marker[0] === 0) return { kind: 'null', end: marker[1] };
  if (marker[0] !== 1) return { kind: 'error', at: pos, message: `expected the Kryo reference marker 1 (a new object), found ${marker[0]} (a back-reference)` };
  pos = marker[1];
  const length = readVarint(bytes, pos, end);
  if (!length) return { kind: 'error', at: pos, message: "expected chill-protobuf's payload length (varint), found the end of the value" };
  if (length[0] > maxMessageSize) return { kind: 'error', at: pos, message: `expected a payload length of at most ${maxMessageSize}, found ${length[0]}` };
  return { kind: 'frame', payloadStart: length[1], length: length[0], javaClass };
}

/** readKryoFrameHeader on a reader: advances past the value (or to the end of the input when the payload is cut short); null for a null value. */
export function readKryoProtobufFrame(r: ByteReader, expect: KryoClassExpectation, maxMessageSize: number): (ProtobufFrame & { javaClass: string }) | null {
  const start = r.position;
  const header = readKryoFrameHeader(r.bytes, start, r.length, expect, maxMessageSize);
  const base = r.absolutePosition - start;
  if (header.kind === 'error') {
    r.seek(r.length);
    throw createProtobufError(`Kryo value of ${expect.javaClass}: ${header.message}`, { file: r.file, offset: base + header.at, path: r.path });
  }
  if (header.kind === 'null') {
    r.seek(header.end);
    return null;
  }
  r.seek(header.payloadStart);
  const available = Math.min(header.length, r.remaining);
  const payloadOffset = r.absolutePosition;
  const payload = r.readBytes(available, 'Protobuf payload (chill-protobuf)');
  return { frameOffset: base + start, payloadOffset, length: header.length, payload, missing: header.length - available, javaClass: header.javaClass };
}
