/**
 * The ValueCodec of a Protobuf snapshot: decodes each value with the descriptors embedded in its
 * own snapshot. `decode` gives the DecodedValue of kind 'message'; `decodeDetailed` adds unknown
 * fields and field ranges for the detail/hex view.
 */
import type { ByteReader } from '../io';
import type { DecodedValue, ValueCodec } from '../flink';
import { decodeProtobufValue, type ProtobufValueDetail } from './decode-protobuf-value';
import type { ProtobufSnapshotContent } from './protobuf-snapshot-types';

export class ProtobufValueCodec implements ValueCodec {
  readonly format = 'protobuf';

  constructor(readonly content: ProtobufSnapshotContent) {}

  decodeDetailed(r: ByteReader): ProtobufValueDetail {
    return decodeProtobufValue(r, { root: this.content.schema.root, javaClass: this.content.javaClass, settings: this.content.settings });
  }

  decode(r: ByteReader): DecodedValue {
    return toMessageValue(this.decodeDetailed(r));
  }
}

/** The DecodedValue (kind 'message') of a detailed Protobuf value. */
export function toMessageValue(d: ProtobufValueDetail): DecodedValue {
  return {
    kind: 'message',
    format: 'protobuf',
    typeName: d.typeName,
    payloadSize: d.payloadSize,
    frame: { offset: d.frameOffset, length: 4 + d.payloadSize },
    json: d.json,
    unknownFieldCount: d.unknownFields.length,
    depth: d.depth,
  };
}

export function isProtobufValueCodec(codec: unknown): codec is ProtobufValueCodec {
  return codec instanceof ProtobufValueCodec;
}
