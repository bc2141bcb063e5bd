/**
 * Parses saved FileDescriptorSet bytes as protobuf-java does in the snapshot reader: empty
 * extension registry (custom options stay unknown fields), recursion limit 101, last tag 0. Throws
 * ProtobufParseError with protobuf-java's text.
 */
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { decodeProtobufPayload } from './decode-protobuf-payload';
import { DESCRIPTOR_SET_RECURSION_LIMIT } from './protobuf-constants';
import type { PbMessage } from './protobuf-message-types';

export function parseDescriptorSet(bytes: Uint8Array, recursionLimit = DESCRIPTOR_SET_RECURSION_LIMIT): PbMessage {
  return decodeProtobufPayload(bytes, FileDescriptorSetSchema, { maxMessageSize: 0x7fffffff, recursionLimit }).message;
}
