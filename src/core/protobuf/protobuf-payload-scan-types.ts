/** The options and result of the structural scan (scan-protobuf-payload), and its slow-path error. */
import type { DescMessage } from '@bufbuild/protobuf';
import { decodeProtobufPayload } from './decode-protobuf-payload';
import { isProtobufParseError } from './protobuf-errors';

export interface ProtobufScanOptions {
  /** the reader's limits (the snapshot's settings) */
  maxMessageSize: number;
  recursionLimit: number;
  /** root descriptor, used only to obtain the exact error of a malformed payload */
  root?: DescMessage;
  /** declared payload length when fewer bytes are present */
  frameLength?: number;
  /** when given, filled with the fields the value holds (for the value-aware warnings) */
  fieldLog?: ProtobufFieldLog;
}

/**
 * The fields of one scanned value, as the value-aware warnings need them, flattened to numbers
 * (message indexes into the scan index's `messages`). Cleared at the start of every scan. Fields
 * inside unknown groups and the key/value of map entries are not logged (the full decoder's tree
 * has no message for them); repeated occurrences are logged again.
 */
export interface ProtobufFieldLog {
  /** triples: message index, field number, wire type */
  unknown: number[];
  /** pairs: message index, field number */
  known: number[];
  /**
   * set when the value holds something this log cannot mirror exactly (a closed enum field, whose
   * unknown numbers protobuf-java moves to unknown fields): read that value with the full decoder
   */
  needsFullDecode: boolean;
}

export function createProtobufFieldLog(): ProtobufFieldLog {
  return { unknown: [], known: [], needsFullDecode: false };
}

export interface ProtobufPayloadScan {
  payloadSize: number;
  /** deepest nesting (root 0; each message, group and map entry +1) */
  depth: number;
  /** unknown fields, including those inside unknown groups */
  unknownFields: number;
  /** bytes of unknown fields, tags included (top-level unknown fields of each message) */
  unknownBytes: number;
  /** non-empty bytes fields and unknown length-delimited fields: what large-payload aliasing shares */
  aliasableFields: number;
  aliasableBytes: number;
  /** payload above 4 KiB: read into its own array under 1.0.0 aliasing */
  large: boolean;
  /** large and holding at least one aliasable field */
  aliased: boolean;
  /** with aliasing on: bytes a retained small aliased value keeps alive (the whole payload array), else 0 */
  keptAliveBytes: number;
  /** with aliasing on: wire bytes of the other content that the retained array holds besides its decoded form, else 0 */
  extraWireBytes: number;
  /** declared fields written after unknown fields or out of field-number order: only an unknown field reusing a declared number is written that way */
  reusedDeclaredNumbers: number;
  reuseExample?: { typeName: string; number: number } | undefined;
  /** tags whose field number is above 536,870,911 (protobuf-java keeps the low 32 bits of the tag) */
  numbersTooLarge: number;
  tooLargeExample?: string | undefined;
  /** protobuf-java's error when the payload cannot be read */
  error?: { message: string; offset: number } | undefined;
}

/** A scan result to reuse with scanProtobufPayloadInto. */
export function createEmptyScan(): ProtobufPayloadScan {
  return {
    payloadSize: 0,
    depth: 0,
    unknownFields: 0,
    unknownBytes: 0,
    aliasableFields: 0,
    aliasableBytes: 0,
    large: false,
    aliased: false,
    keptAliveBytes: 0,
    extraWireBytes: 0,
    reusedDeclaredNumbers: 0,
    reuseExample: undefined,
    numbersTooLarge: 0,
    tooLargeExample: undefined,
    error: undefined,
  };
}

/** protobuf-java's exact error for a payload the scan rejected, from the full decoder. */
export function explainFailure(bytes: Uint8Array, options: ProtobufScanOptions, frameLength: number): { message: string; offset: number } {
  if (options.root !== undefined) {
    try {
      decodeProtobufPayload(bytes, options.root, { maxMessageSize: options.maxMessageSize, recursionLimit: options.recursionLimit, frameLength });
    } catch (e) {
      if (isProtobufParseError(e)) return { message: e.message, offset: e.offset };
      throw e;
    }
  }
  return { message: 'The payload is not a well-formed Protobuf message', offset: 0 };
}
