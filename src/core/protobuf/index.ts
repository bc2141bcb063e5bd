/**
 * protobuf/: the flink-datastream-protobuf serializer's half of the core — value frames, its
 * serializer snapshot (read, write, registry plug-in), descriptor normalization, protobuf-java
 * decoding of saved values (JSON view, unknown fields, byte ranges), the structural scan with the
 * aliasing memory model, and the value-level compatibility checks.
 */
export * from './protobuf-constants';
export * from './protobuf-errors';
export * from './protobuf-message-types';
export * from './protobuf-snapshot-types';
export { decodeUtf8, encodeUtf8 } from './decode-utf8';
export { decodeProtobufPayload, createPbMessage, isPbMessage, type DecodeProtobufPayloadOptions } from './decode-protobuf-payload';
export { encodeProtobufMessage } from './encode-protobuf-message';
export { formatProtobufJson, type JsonValue } from './format-protobuf-json';
export { collectProtobufUnknownFields, collectProtobufFieldRanges, walkMessages } from './collect-protobuf-fields';
export { readProtobufFrame, readProtobufFrameLength, copyProtobufFrame, type ProtobufFrame } from './read-protobuf-frame';
export { writeProtobufFrame } from './write-protobuf-frame';
export { decodeProtobufValue, type ProtobufValueDetail, type ProtobufValueTarget } from './decode-protobuf-value';
export { parseDescriptorSet } from './parse-descriptor-set';
export { countDeclaredMembers } from './count-declared-members';
export { normalizeDescriptorSet, orderDescriptorFiles, type NormalizedDescriptorSet } from './normalize-descriptor-set';
export { stripDerivedJsonNames, deriveJsonName } from './strip-derived-json-names';
export { computeSha256, formatHex } from './compute-sha256';
export { readProtobufSnapshotContent } from './read-protobuf-snapshot';
export { writeProtobufSnapshot, writeProtobufSnapshotParts, normalizeSnapshotDescriptors, type ProtobufSnapshotInput } from './write-protobuf-snapshot';
export { ProtobufValueCodec, isProtobufValueCodec, toMessageValue, getProtobufValueDetail, listProtobufFrames, listProtobufValueDetails, asProtobufFrame, type DecodedProtobufValue, type ProtobufFrameValue } from './protobuf-value-codec';
export {
  registerProtobufSnapshotReaders,
  registerWrappedProtobufSnapshotReaders,
  createProtobufSerializerSnapshot,
  getProtobufSnapshotContent,
  PROTOBUF_SNAPSHOT_READERS,
} from './register-protobuf-snapshot-readers';
export { listLoggedFields, type LoggedField } from './list-logged-fields';
export { buildProtobufScanIndex, getProtobufScanIndex, type ProtobufScanIndex, type ScanMessageInfo } from './build-protobuf-scan-index';
export { scanProtobufPayload, scanProtobufPayloadInto, scanProtobufPayloadRangeInto, createEmptyScan, createProtobufFieldLog, type ProtobufFieldLog, type ProtobufPayloadScan, type ProtobufScanOptions } from './scan-protobuf-payload';
export {
  createProtobufStateScan,
  type ProtobufStateScan,
  type ProtobufStateScanSummary,
  type ProtobufStateScanOptions,
  type ProtobufValueFinding,
  type AliasingMemory,
  type EntryKeyText,
} from './aggregate-protobuf-state-scan';
export { describeProtobufSnapshots, formatProtobufSnapshotSummary, type ProtobufSnapshotSummary } from './describe-protobuf-snapshot';
