/**
 * protobuf/: the flink-datastream-protobuf serializer's half of the core — value frames, its
 * serializer snapshot (read, write, registry plug-in), descriptor normalization, protobuf-java
 * decoding of saved values (JSON view, unknown fields, byte ranges), the structural scan with the
 * aliasing memory model, and the value-level compatibility checks.
 */
export {
  type AliasingMemory,
  type ProtobufStateScan,
  type ProtobufStateScanSummary,
  type ProtobufValueFinding,
  createProtobufStateScan,
} from './aggregate-protobuf-state-scan';
export { type ProtobufScanIndex, buildProtobufScanIndex, getProtobufScanIndex } from './build-protobuf-scan-index';
export { walkMessages } from './collect-protobuf-fields';
export { computeSha256 } from './compute-sha256';
export { countDeclaredMembers } from './count-declared-members';
export { decodeProtobufPayload } from './decode-protobuf-payload';
export { type ProtobufValueDetail } from './decode-protobuf-value';
export { describeProtobufSnapshots, formatProtobufSnapshotSummary } from './describe-protobuf-snapshot';
export { DYNAMIC_MESSAGE_CLASS } from './infer-protobuf-snapshot';
export { listLoggedFields } from './list-logged-fields';
export { normalizeDescriptorSet } from './normalize-descriptor-set';
export { parseDescriptorSet } from './parse-descriptor-set';
export {
  ALIASING_THRESHOLD_BYTES,
  DEFAULT_PROTOBUF_SETTINGS,
  MAX_DECLARED_MEMBERS,
  MAX_DESCRIPTOR_BYTES,
  PROTOBUF_SNAPSHOT_CLASS,
  type ProtobufSettings,
} from './protobuf-constants';
export { isProtobufParseError } from './protobuf-errors';
export { type ProtobufScanOptions, createEmptyScan, createProtobufFieldLog } from './protobuf-payload-scan-types';
export { type ProtobufSnapshotContent } from './protobuf-snapshot-types';
export {
  type DecodedProtobufValue,
  type ProtobufFrameValue,
  ProtobufValueCodec,
  asProtobufFrame,
  formatMessageJsonText,
  listProtobufFrames,
  listProtobufValueDetails,
  measureDecodedValueJson,
  stringifyWithMessageViews,
} from './protobuf-value-codec';
export { measureJsonLength } from './measure-json-length';
export { getJsonName } from './format-protobuf-json';
export { getKryoProtobufCodec, getProtobufSnapshotContent, registerProtobufSnapshotReaders } from './register-protobuf-snapshot-readers';
export { FLINK_FIRST_KRYO_REGISTRATION_ID } from './read-kryo-protobuf-frame';
export { scanProtobufPayload, scanProtobufPayloadInto, scanProtobufPayloadRangeInto } from './scan-protobuf-payload';
export { stripDerivedJsonNames } from './strip-derived-json-names';
export { normalizeSnapshotDescriptors, writeProtobufSnapshotParts } from './write-protobuf-snapshot';
export { decodeUtf8, encodeUtf8 } from './decode-utf8';
export { unreachableWireFailure, WireCursor } from './wire-cursor';
export { encodeProtobufMessage, isSingularPresent } from './encode-protobuf-message';
export { type PbElement, type PbMessage, type PbScalar } from './protobuf-message-types';
export { getAcceptedWireTypes } from './protobuf-field-wire';
