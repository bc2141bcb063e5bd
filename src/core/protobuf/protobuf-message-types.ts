/**
 * The decoded form of one Protobuf message, as protobuf-java would hold it after parsing:
 * known fields (last value wins, messages merged, repeated appended, maps keyed), unknown fields
 * in wire order, and the byte range of every field occurrence for a hex view.
 * Offsets are relative to the start of the payload.
 */
import type { DescField, DescMessage } from '@bufbuild/protobuf';

/** int32-family and float/double: number; 64-bit: bigint; bool; string/bytes: raw bytes (strings decoded on display) */
export type PbScalar = number | bigint | boolean | Uint8Array;
export type PbElement = PbScalar | PbMessage;

export interface PbRange {
  offset: number;
  length: number;
}

export type PbFieldValue =
  | { kind: 'singular'; field: DescField; value: PbElement; ranges: PbRange[] }
  | { kind: 'list'; field: DescField; values: PbElement[]; ranges: PbRange[] }
  | { kind: 'map'; field: DescField; entries: Map<string, { key: PbScalar; value: PbElement }>; ranges: PbRange[] };

export type PbUnknownValue =
  | { wireType: 0; value: bigint }
  | { wireType: 1; value: bigint }
  | { wireType: 2; value: Uint8Array }
  | { wireType: 3; value: PbUnknownField[] }
  | { wireType: 5; value: number };

export type PbUnknownField = PbUnknownValue & {
  number: number;
  /** the whole field, tag included */
  range: PbRange;
};

export interface PbMessage {
  kind: 'message';
  desc: DescMessage;
  /** by field number, in order of first occurrence */
  fields: Map<number, PbFieldValue>;
  unknown: PbUnknownField[];
}

/** One unknown field anywhere in a value, flattened for display. */
export interface PbUnknownFieldInfo {
  /** dotted path of the containing message, '' for the root; unknown groups add `<number>` */
  path: string;
  number: number;
  wireType: number;
  offset: number;
  length: number;
  /** the field's bytes, tag included (a view into the payload) */
  raw: Uint8Array;
}

/** One field occurrence, for the hex view. */
export interface PbFieldRangeInfo {
  path: string;
  number: number;
  known: boolean;
  offset: number;
  length: number;
}

export interface DecodedProtobufPayload {
  typeName: string;
  message: PbMessage;
  payloadSize: number;
  /** deepest nesting reached (root 0; each message, group and map entry +1) */
  depth: number;
}
