/**
 * Identity, limits and defaults of the flink-datastream-protobuf serializer.
 */
export const PROTOBUF_SNAPSHOT_CLASS = 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot';
export const PROTOBUF_SERIALIZER_CLASS = 'io.github.flink.gcp.protobuf.ProtobufTypeSerializer';
export const PROTOBUF_SNAPSHOT_VERSION = 1;
export const PROTOBUF_FRAMING_VERSION = 1;
export const PROTOBUF_NORMALIZATION_VERSION = 1;
/** MAX_DESCRIPTOR_BYTES: upper bound of the descriptor set length, independent of maxMessageSize. */
export const MAX_DESCRIPTOR_BYTES = 67_108_864;
/** Recursion limit used when parsing a saved FileDescriptorSet: 100 + 1 for the set wrapper. */
export const DESCRIPTOR_SET_RECURSION_LIMIT = 101;
export const DEFAULT_MAX_MESSAGE_SIZE = 67_108_864;
export const DEFAULT_RECURSION_LIMIT = 100;
/** The largest Protobuf field number. */
export const MAX_FIELD_NUMBER = 536_870_911;
/** 1.0.0 large-payload aliasing: payloads above this many bytes are read into their own array. */
export const ALIASING_THRESHOLD_BYTES = 4096;
/**
 * Hard cap of this reader's own recursion, whatever recursionLimit a snapshot records (a
 * snapshot may legally record 2^31-1). Deeper input fails with a 'limit-exceeded' DecodeError.
 * 1000, not more: the decoder recurses about three frames per level, and 2000 levels overflowed
 * Node's default stack (a RangeError instead of this limit's DecodeError).
 */
export const MAX_DECODER_DEPTH = 1000;

/**
 * Most fields, extensions and enum values a descriptor set may declare (this inspector's safety cap,
 * not protobuf-java's): beyond it, building descriptors costs gigabytes of memory.
 */
export const MAX_DECLARED_MEMBERS = 100_000;

export interface ProtobufSettings {
  deterministic: boolean;
  maxMessageSize: number;
  recursionLimit: number;
}

export const DEFAULT_PROTOBUF_SETTINGS: Readonly<ProtobufSettings> = Object.freeze({
  deterministic: false,
  maxMessageSize: DEFAULT_MAX_MESSAGE_SIZE,
  recursionLimit: DEFAULT_RECURSION_LIMIT,
});
