/**
 * Reads one value written by the serializer: the frame, then the payload with
 * protobuf-java semantics; parse failures become `Invalid Protobuf frame for <class>: <inner>`,
 * located at the failing byte. Returns the JSON view, unknown fields, field
 * ranges, payload size and depth.
 */
import type { DescMessage } from '@bufbuild/protobuf';
import { DecodeError, type ByteReader } from '../io';
import { collectProtobufFieldRanges, collectProtobufUnknownFields } from './collect-protobuf-fields';
import { decodeProtobufPayload } from './decode-protobuf-payload';
import { formatProtobufJson, type JsonValue } from './format-protobuf-json';
import type { ProtobufSettings } from './protobuf-constants';
import { renderProtobufJson, type RenderedProtobufJson } from './render-protobuf-json';
import { isProtobufParseError } from './protobuf-errors';
import type { PbFieldRangeInfo, PbMessage, PbUnknownFieldInfo } from './protobuf-message-types';
import { readProtobufFrame, type ProtobufFrame } from './read-protobuf-frame';

export interface ProtobufValueTarget {
  root: DescMessage;
  javaClass: string;
  settings: ProtobufSettings;
}

export interface ProtobufValueDetail {
  typeName: string;
  /** the file the value was read from, when the reader knows it */
  file?: string;
  frameOffset: number;
  payloadOffset: number;
  payloadSize: number;
  /** the payload bytes (a view into the input, not a copy) */
  payload: Uint8Array;
  depth: number;
  json: { [key: string]: JsonValue };
  /**
   * The JSON view's compact text (JSON.stringify(json)) and its measure, written from the message without
   * building `json`; undefined when the measure passes `limit`. Made when first asked and kept once whole.
   */
  renderJson(limit?: number): RenderedProtobufJson | undefined;
  message: PbMessage;
  /** absolute offsets */
  unknownFields: PbUnknownFieldInfo[];
  /** absolute offsets */
  fieldRanges: PbFieldRangeInfo[];
}

export function decodeProtobufValue(r: ByteReader, target: ProtobufValueTarget): ProtobufValueDetail {
  return decodeProtobufFrame(r, readProtobufFrame(r, target.settings.maxMessageSize), target);
}

/** Decodes the payload of a frame already read from `r` (the serializer's, or another framing such as Kryo's). */
export function decodeProtobufFrame(r: ByteReader, frame: ProtobufFrame, target: ProtobufValueTarget): ProtobufValueDetail {
  let decoded;
  try {
    decoded = decodeProtobufPayload(frame.payload, target.root, {
      maxMessageSize: target.settings.maxMessageSize,
      recursionLimit: target.settings.recursionLimit,
      frameLength: frame.length,
    });
  } catch (e) {
    if (!isProtobufParseError(e)) throw e;
    throw new DecodeError({
      code: e.code,
      detail: e.code === 'protobuf' ? `Invalid Protobuf frame for ${target.javaClass}: ${e.message}` : e.message,
      ...(r.file === undefined ? {} : { file: r.file }),
      offset: frame.payloadOffset + e.offset,
      path: r.path,
      cause: e,
    });
  }
  // the JSON view is made when first read: a scan that only counts or checks values (inspect, check) never pays for it —
  // for a value with a 60 MB bytes field, its base64 alone is 80 MB
  let json: { [key: string]: JsonValue } | undefined;
  let rendered: RenderedProtobufJson | undefined;
  // so are the lists of unknown fields and field ranges: a value of a million unknown fields makes a million objects for each
  let unknownFields: PbUnknownFieldInfo[] | undefined;
  let fieldRanges: PbFieldRangeInfo[] | undefined;
  const message = decoded.message;
  return {
    typeName: decoded.typeName,
    ...(r.file === undefined ? {} : { file: r.file }),
    frameOffset: frame.frameOffset,
    payloadOffset: frame.payloadOffset,
    payloadSize: frame.length,
    payload: frame.payload,
    depth: decoded.depth,
    get json() {
      return (json ??= formatProtobufJson(message));
    },
    renderJson(limit = Infinity) {
      if (rendered !== undefined) return rendered.measure <= limit ? rendered : undefined;
      return (rendered = renderProtobufJson(message, limit));
    },
    message,
    get unknownFields() {
      return (unknownFields ??= collectProtobufUnknownFields(message, frame.payload, frame.payloadOffset));
    },
    get fieldRanges() {
      return (fieldRanges ??= collectProtobufFieldRanges(message, frame.payloadOffset));
    },
  };
}
