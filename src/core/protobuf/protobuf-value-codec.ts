/**
 * The ValueCodec of a Protobuf snapshot: decodes each value with the descriptors embedded in its
 * own snapshot. In the value modes of a scan (ValueMode):
 * - `decode`: the DecodedValue of kind 'message'; the full decoder's result (unknown fields, field
 *   ranges) and a view of the frame's bytes ride on the value itself (getProtobufValueDetail);
 * - `frame`: the frame located, not decoded (a ValueFrame of format 'protobuf');
 * - `skip`: the frame stepped over (SKIPPED_VALUE).
 */
import type { ByteReader } from '../io';
import { measureJsonLength } from './measure-json-length';
import { renderProtobufJson } from './render-protobuf-json';
import type { PbMessage } from './protobuf-message-types';
import { findNestedValues, SKIPPED_VALUE, type DecodedValue, type ValueCodec, type ValueFrame, type ValueMode } from '../flink';
import { decodeProtobufFrame, decodeProtobufValue, type ProtobufValueDetail } from './decode-protobuf-value';
import { readKryoFrameHeader, readKryoProtobufFrame, type KryoClassExpectation } from './read-kryo-protobuf-frame';
import { createProtobufError } from './protobuf-errors';
import type { ProtobufSnapshotContent } from './protobuf-snapshot-types';
import { readProtobufFrame, readProtobufFrameLength, type ProtobufFrame } from './read-protobuf-frame';

export class ProtobufValueCodec implements ValueCodec {
  readonly format = 'protobuf';

  /**
   * `kryo`: the values are framed by Flink's KryoSerializer with chill-protobuf's ProtobufSerializer
   * (read-kryo-protobuf-frame.ts), with the user's schema in `content`; absent: the serializer's own frame.
   */
  constructor(
    readonly content: ProtobufSnapshotContent,
    readonly kryo?: KryoClassExpectation,
    /** set when the snapshot was read by structure (infer-protobuf-snapshot.ts): what every value it decodes must say */
    readonly inferred?: string,
  ) {}

  /** One value's decoder result, in this codec's framing (a Kryo null is not a message: an error here). */
  decodeDetailed(r: ByteReader): ProtobufValueDetail {
    if (!this.kryo) return decodeProtobufValue(r, { root: this.content.schema.root, javaClass: this.content.javaClass, settings: this.content.settings });
    const offset = r.absolutePosition;
    const frame = readKryoProtobufFrame(r, this.kryo, this.content.settings.maxMessageSize);
    if (frame === null)
      throw createProtobufError(`Kryo value of ${this.kryo.javaClass}: expected a message, found null`, { file: r.file, offset, path: r.path });
    return this.decodeKryoFrame(r, frame, offset);
  }

  private decodeKryoFrame(r: ByteReader, frame: ProtobufFrame & { javaClass: string }, offset: number): ProtobufValueDetail {
    const codec = this.codecFor(frame.javaClass);
    if (codec === undefined) {
      throw createProtobufError(
        `Kryo value of class ${frame.javaClass}: the descriptor set has no message whose Java class (protoc's naming rules) is ${frame.javaClass}`,
        { file: r.file, offset, path: r.path },
      );
    }
    return decodeProtobufFrame(r, frame, { root: codec.content.schema.root, javaClass: frame.javaClass, settings: this.content.settings });
  }

  private readonly byClass = new Map<string, ProtobufValueCodec | undefined>();

  /** This codec for its own class; for a class Kryo wrote by name, a codec with that class's message (cached). */
  private codecFor(javaClass: string): ProtobufValueCodec | undefined {
    if (javaClass === this.content.javaClass || !this.kryo) return this;
    if (!this.byClass.has(javaClass)) {
      const content = this.kryo.contentFor?.(javaClass);
      this.byClass.set(javaClass, content ? new ProtobufValueCodec(content, { ...this.kryo, javaClass }) : undefined);
    }
    return this.byClass.get(javaClass);
  }

  decode(r: ByteReader, mode: ValueMode = 'decode'): DecodedValue {
    const start = r.position;
    if (this.kryo && mode !== 'decode') {
      const offset = r.absolutePosition;
      const frame = readKryoProtobufFrame(r, this.kryo, this.content.settings.maxMessageSize);
      if (frame === null) return { kind: 'null' };
      if (mode === 'skip') return SKIPPED_VALUE;
      const codec = this.codecFor(frame.javaClass);
      if (codec === undefined) {
        throw createProtobufError(
          `Kryo value of class ${frame.javaClass}: the descriptor set has no message whose Java class (protoc's naming rules) is ${frame.javaClass}`,
          { file: r.file, offset, path: r.path },
        );
      }
      const payloadStart = start + (frame.payloadOffset - offset);
      return { kind: 'frame', format: 'protobuf', codec, bytes: r.bytes, start, payloadStart, end: r.position, length: frame.length, offset, file: r.file };
    }
    if (mode === 'decode') {
      let detail: ProtobufValueDetail;
      if (this.kryo) {
        const offset = r.absolutePosition;
        const frame = readKryoProtobufFrame(r, this.kryo, this.content.settings.maxMessageSize);
        // a Kryo null (class id 0 or reference marker 0) is a null value, not a message
        if (frame === null) return { kind: 'null' };
        detail = this.decodeKryoFrame(r, frame, offset);
      } else {
        detail = this.decodeDetailed(r);
      }
      const value = toMessageValue(detail);
      Object.defineProperty(value, DETAIL, {
        value: { detail, frame: r.bytes.subarray(start, r.position), ...(this.inferred ? { inferred: this.inferred } : {}) } satisfies DecodedProtobufValue,
      });
      return value;
    }
    const offset = r.absolutePosition;
    const frame = readProtobufFrame(r, this.content.settings.maxMessageSize);
    if (mode === 'skip') return SKIPPED_VALUE;
    return {
      kind: 'frame',
      format: 'protobuf',
      codec: this,
      bytes: r.bytes,
      start,
      payloadStart: start + 4,
      end: r.position,
      length: frame.length,
      offset,
      file: r.file,
    };
  }

  frameInPlace(bytes: Uint8Array, start: number, end: number, out: ValueFrame): boolean {
    if (this.kryo) {
      const header = readKryoFrameHeader(bytes, start, end, this.kryo, this.content.settings.maxMessageSize);
      if (header.kind !== 'frame') return false;
      const codec = this.codecFor(header.javaClass);
      if (codec === undefined) return false;
      out.format = 'protobuf';
      out.codec = codec;
      out.bytes = bytes;
      out.start = start;
      out.payloadStart = header.payloadStart;
      out.end = header.payloadStart + Math.max(0, Math.min(header.length, end - header.payloadStart));
      out.length = header.length;
      return true;
    }
    const payloadStart = start + 4;
    const length = readProtobufFrameLength(bytes, start, end, this.content.settings.maxMessageSize);
    if (length < 0) return false;
    out.format = 'protobuf';
    out.codec = this;
    out.bytes = bytes;
    out.start = start;
    out.payloadStart = payloadStart;
    out.end = payloadStart + Math.max(0, Math.min(length, end - payloadStart));
    out.length = length;
    return true;
  }
}

/** What a `decode`-mode read keeps on a message value: the decoder's result and the frame's bytes (a view of the read bytes: copy it to keep it). */
export interface DecodedProtobufValue {
  detail: ProtobufValueDetail;
  frame: Uint8Array;
  /** the value was read through a snapshot read by structure: its schema and framing are inferred, not exact */
  inferred?: string;
}

/** Non-enumerable: JSON, structured clone, spreads and Object.entries never see it. */
const DETAIL = Symbol('protobuf value detail');

/** The decoder's result behind a message value read in `decode` mode, if it is one. */
export function getProtobufValueDetail(value: DecodedValue): DecodedProtobufValue | undefined {
  return value.kind === 'message' ? (value as { [DETAIL]?: DecodedProtobufValue })[DETAIL] : undefined;
}

/**
 * The measure of a decoded value's JSON (measureJsonLength), up to just past `limit`: a detailed message's
 * JSON view is measured from its text (ProtobufValueDetail.renderJson), not built as an object tree first.
 */
export function measureDecodedValueJson(value: DecodedValue, limit: number): number {
  return measureJsonLength(value, limit, measureMessageJson);
}

function measureMessageJson(o: object, key: string, limit: number): number | undefined {
  if (key !== 'json') return undefined;
  const d = (o as { [DETAIL]?: DecodedProtobufValue })[DETAIL];
  if (d === undefined) return undefined;
  return d.detail.renderJson(limit)?.measure ?? limit + 1;
}

/** A message value's JSON view as compact text: JSON.stringify(value.json), written from the decoded message when there is one. */
export function formatMessageJsonText(value: Extract<DecodedValue, { kind: 'message' }>): string {
  const d = getProtobufValueDetail(value);
  return d === undefined ? JSON.stringify(value.json) : d.detail.renderJson()!.text;
}

/** marks a message's JSON view in a skeleton; the nonce makes it a string no value can hold by chance or on purpose */
const VIEW_MARK = `\u0000json-view-${Math.random().toString(36).slice(2)}-`;

/**
 * JSON.stringify(value, null, 2) with `indent` after every line break, each detailed message's JSON view
 * written from its decoded message (renderProtobufJson) in place, instead of built as an object tree and
 * stringified: the document is stringified with each view as a mark, and the marks are replaced.
 */
export function stringifyWithMessageViews(value: unknown, indent: string): string {
  const views: PbMessage[] = [];
  const skeleton = JSON.stringify(
    value,
    (_key, v: unknown) => {
      const d = typeof v === 'object' && v !== null ? (v as { [DETAIL]?: DecodedProtobufValue })[DETAIL] : undefined;
      if (d === undefined) return v;
      // the value's own members in their order, its JSON view as a mark (reading `json` would build it)
      const copy: Record<string, unknown> = {};
      for (const k of Object.keys(v as object)) copy[k] = k === 'json' ? `${VIEW_MARK}${views.push(d.detail.message) - 1}` : (v as Record<string, unknown>)[k];
      return copy;
    },
    2,
  ).replace(/\n/g, `\n${indent}`);
  if (views.length === 0) return skeleton;
  const mark = JSON.stringify(VIEW_MARK).slice(0, -1);
  let out = '';
  let from = 0;
  for (let at = skeleton.indexOf(mark); at >= 0; at = skeleton.indexOf(mark, from)) {
    const end = skeleton.indexOf('"', at + mark.length);
    const lineStart = skeleton.lastIndexOf('\n', at) + 1;
    let spaces = lineStart;
    while (skeleton.charCodeAt(spaces) === 32) spaces++;
    out +=
      skeleton.slice(from, at) + renderProtobufJson(views[Number(skeleton.slice(at + mark.length, end))]!, Infinity, skeleton.slice(lineStart, spaces))!.text;
    from = end + 1;
  }
  return out + skeleton.slice(from);
}

/** The DecodedValue (kind 'message') of a detailed Protobuf value. */
export function toMessageValue(d: ProtobufValueDetail): DecodedValue {
  return {
    kind: 'message',
    format: 'protobuf',
    typeName: d.typeName,
    payloadSize: d.payloadSize,
    frame: { offset: d.frameOffset, length: d.payloadOffset - d.frameOffset + d.payloadSize },
    // read from the detail when first read (made lazily there)
    get json() {
      return d.json;
    },
    get unknownFieldCount() {
      return d.unknownFields.length;
    },
    depth: d.depth,
  };
}

/** The frame as a Protobuf frame, if one of this module's codecs read it. */
export function asProtobufFrame(frame: ValueFrame): ProtobufFrameValue | undefined {
  return isProtobufFrame(frame) ? frame : undefined;
}

/** The Protobuf frames inside a value read in `frame` mode, in read order. */
export function listProtobufFrames(value: DecodedValue | null | undefined): ProtobufFrameValue[] {
  return findNestedValues(value, isProtobufFrame);
}

/** The decoder's results of the Protobuf messages inside a value read in `decode` mode, in read order. */
export function listProtobufValueDetails(value: DecodedValue | null | undefined): DecodedProtobufValue[] {
  return findNestedValues(value, isDetailedMessage).map((m) => getProtobufValueDetail(m)!);
}

export type ProtobufFrameValue = ValueFrame & { codec: ProtobufValueCodec };

function isProtobufFrame(v: DecodedValue): v is ProtobufFrameValue {
  return v.kind === 'frame' && v.codec instanceof ProtobufValueCodec;
}

function isDetailedMessage(v: DecodedValue): v is Extract<DecodedValue, { kind: 'message' }> {
  return v.kind === 'message' && getProtobufValueDetail(v) !== undefined;
}
