/**
 * Error texts in the serializer's and protobuf-java's own words, and the
 * internal parse failure that the frame and snapshot readers turn into DecodeErrors (code 'protobuf').
 */
import { DecodeError, type DecodeErrorCode } from '../io';

/** protobuf-java InvalidProtocolBufferException texts, as protobuf-java 4.36.2 words them (checked against its jar). */
export const JAVA_PARSE_MESSAGES = {
  truncated:
    'While parsing a protocol message, the input ended unexpectedly in the middle of a field.  This could mean either that the input has been truncated or that an embedded message misreported its own length.',
  negativeSize: 'CodedInputStream encountered an embedded string or message which claimed to have negative size.',
  malformedVarint: 'CodedInputStream encountered a malformed varint.',
  invalidTag: 'Protocol message contained an invalid tag (zero).',
  invalidEndTag: 'Protocol message end-group tag did not match expected tag.',
  invalidWireType: 'Protocol message tag had invalid wire type.',
  recursionLimit: 'Protocol message had too many levels of nesting.  May be malicious.  Use setRecursionLimit() to increase the recursion depth limit.',
  sizeLimit:
    'Protocol message was too large.  May be malicious.  Use CodedInputStream.setSizeLimit() to increase the size limit. If reading multiple messages, consider resetting the counter between each message using CodedInputStream.resetSizeCounter().',
  invalidUtf8: 'Protocol message had invalid UTF-8.',
} as const;

/**
 * A failure inside a Protobuf payload. `offset` is relative to the start of the payload
 * (or descriptor bytes) being parsed; `code` lets callers keep 'limit-exceeded' for this reader's
 * own safety cap apart from the serializer's errors.
 */
export class ProtobufParseError extends Error {
  override readonly name = 'ProtobufParseError';
  constructor(
    message: string,
    readonly offset: number,
    readonly code: DecodeErrorCode = 'protobuf',
  ) {
    super(message);
  }
}

export function isProtobufParseError(e: unknown): e is ProtobufParseError {
  return e instanceof ProtobufParseError;
}

export interface ErrorLocation {
  file?: string | undefined;
  offset?: number | undefined;
  path?: readonly string[] | undefined;
}

/** A DecodeError with code 'protobuf' whose detail is the serializer's own message. */
export function createProtobufError(detail: string, at: ErrorLocation = {}, cause?: unknown): DecodeError {
  return new DecodeError({
    code: 'protobuf',
    detail,
    ...(at.file === undefined ? {} : { file: at.file }),
    ...(at.offset === undefined ? {} : { offset: at.offset }),
    ...(at.path === undefined ? {} : { path: at.path }),
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A descriptor-set validation failure; the message is the serializer's inner text. */
export class DescriptorSchemaError extends Error {
  override readonly name = 'DescriptorSchemaError';
}
