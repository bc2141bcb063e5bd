/**
 * Reads the payload of a ProtobufTypeSerializerSnapshot (after Flink's class name and version),
 * in the serializer's order with its checks and texts:
 * an EOF anywhere is `Truncated Protobuf snapshot`; every other failure is
 * `Cannot read Protobuf snapshot: <inner>`. Errors are DecodeErrors with code 'protobuf'.
 */
import { DecodeError, isDecodeError, type ByteReader, formatHex } from '../io';
import { computeSha256 } from './compute-sha256';
import { normalizeDescriptorSet } from './normalize-descriptor-set';
import { parseDescriptorSet } from './parse-descriptor-set';
import {
  MAX_DESCRIPTOR_BYTES,
  PROTOBUF_FRAMING_VERSION,
  PROTOBUF_NORMALIZATION_VERSION,
  PROTOBUF_SNAPSHOT_VERSION,
  MAX_DECLARED_MEMBERS,
} from './protobuf-constants';
import { countDeclaredMembers } from './count-declared-members';
import { rememberNormalizedSchema } from './remember-normalized-schema';
import { createProtobufError, DescriptorSchemaError, isProtobufParseError, ProtobufParseError } from './protobuf-errors';
import type { ProtobufSnapshotContent } from './protobuf-snapshot-types';

export function readProtobufSnapshotContent(r: ByteReader, readVersion: number): ProtobufSnapshotContent {
  let at = r.absolutePosition;
  const fail = (inner: string): never => {
    throw new DescriptorSchemaError(inner);
  };
  let descriptorStart = -1;
  try {
    if (readVersion !== PROTOBUF_SNAPSHOT_VERSION) fail(`Unsupported Protobuf snapshot version: ${readVersion}`);
    const framing = r.readI32('Protobuf framing version');
    if (framing !== PROTOBUF_FRAMING_VERSION) fail(`Unsupported Protobuf framing version: ${framing}`);
    at = r.absolutePosition;
    const normalization = r.readI32('Protobuf normalization version');
    if (normalization !== PROTOBUF_NORMALIZATION_VERSION) fail(`Unsupported Protobuf normalization version: ${normalization}`);
    at = r.absolutePosition;
    const javaClass = r.readUtf('Java binary class name');
    const fullNameAt = r.absolutePosition;
    const rootFullName = r.readUtf('Protobuf message full name');
    if (javaClass === '') fail('Empty Java binary class name');
    at = fullNameAt;
    if (rootFullName === '') fail('Empty Protobuf message full name');
    at = r.absolutePosition;
    const flag = r.readU8('deterministic serialization flag');
    if (flag !== 0 && flag !== 1) fail(`Invalid deterministic serialization flag: ${flag}`);
    at = r.absolutePosition;
    const maxMessageSize = r.readI32('maxMessageSize');
    const recursionLimit = r.readI32('recursionLimit');
    if (maxMessageSize <= 0) fail(`maxMessageSize must be positive: ${maxMessageSize}`);
    at += 4;
    if (recursionLimit <= 0) fail(`recursionLimit must be positive: ${recursionLimit}`);
    at = r.absolutePosition;
    const length = r.readI32('descriptor byte length');
    if (length < 1 || length > MAX_DESCRIPTOR_BYTES) fail(`Invalid descriptor byte length: ${length}; maximum is ${MAX_DESCRIPTOR_BYTES}`);
    descriptorStart = r.absolutePosition;
    const descriptorBytes = r.readBytes(length, 'descriptor bytes');
    at = r.absolutePosition;
    const digest = r.readBytes(32, 'descriptor SHA-256');
    const actual = computeSha256(descriptorBytes);
    if (formatHex(actual) !== formatHex(digest)) fail('Descriptor SHA-256 fingerprint mismatch');
    at = descriptorStart;
    const sha256 = formatHex(actual);
    // the same bytes and root normalize to the same schema: states sharing a snapshot pay once
    const schema = rememberNormalizedSchema(sha256, rootFullName, descriptorBytes.length, () => {
      if (countDeclaredMembers(descriptorBytes, MAX_DECLARED_MEMBERS) > MAX_DECLARED_MEMBERS) {
        throw new ProtobufParseError(
          `expected a descriptor set declaring at most ${MAX_DECLARED_MEMBERS} fields and enum values (this reader's cap), found more`,
          0,
          'limit-exceeded',
        );
      }
      return normalizeDescriptorSet(parseDescriptorSet(descriptorBytes), rootFullName);
    });
    return {
      javaClass,
      rootFullName,
      settings: { deterministic: flag === 1, maxMessageSize, recursionLimit },
      descriptorBytes,
      descriptorSha256: sha256,
      schema,
    };
  } catch (e) {
    const loc = { file: r.file, path: r.path };
    if (isDecodeError(e)) {
      if (e.code === 'truncated') throw createProtobufError('Truncated Protobuf snapshot', { ...loc, offset: e.offset }, e);
      throw createProtobufError(`Cannot read Protobuf snapshot: ${e.detail}`, { ...loc, offset: e.offset }, e);
    }
    if (isProtobufParseError(e)) {
      throw new DecodeError({
        code: e.code,
        detail: `Cannot read Protobuf snapshot: ${e.message}`,
        ...(r.file === undefined ? {} : { file: r.file }),
        offset: descriptorStart + e.offset,
        path: r.path,
        cause: e,
      });
    }
    if (e instanceof DescriptorSchemaError) throw createProtobufError(`Cannot read Protobuf snapshot: ${e.message}`, { ...loc, offset: at }, e);
    throw e;
  }
}
