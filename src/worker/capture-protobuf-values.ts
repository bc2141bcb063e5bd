import type { SnapshotRegistry } from '../core/flink';
import { ByteReader } from '../core/io';
import { registerWrappedProtobufSnapshotReaders, toMessageValue, type ProtobufSnapshotContent, type ProtobufValueCodec, type ProtobufValueDetail } from '../core/protobuf';

/** One Protobuf value as decoded while scanning a state, with its frame bytes for the hex view. */
export interface CapturedProtobufValue {
  detail: ProtobufValueDetail;
  /** copy of the frame (4-byte length + payload) */
  frame: Uint8Array;
  /** absolute offset of frame[0] in the coordinates of the detail's offsets */
  frameOffset: number;
  content: ProtobufSnapshotContent;
  /** the codec that decoded it, to decode the frame again for the detail view */
  codec: ProtobufValueCodec;
}

/** What a scan keeps per value: the frame and its codec, not the decoded tree (memory). */
export interface StoredProtobufValue {
  frame: Uint8Array;
  frameOffset: number;
  file: string | undefined;
  codec: ProtobufValueCodec;
}

/** Decodes a stored frame again, with the same offsets it had in its stream. */
export function redecodeProtobufValue(v: StoredProtobufValue): CapturedProtobufValue {
  const r = new ByteReader(v.frame, { baseOffset: v.frameOffset, ...(v.file === undefined ? {} : { file: v.file }) });
  return { detail: v.codec.decodeDetailed(r), frame: v.frame, frameOffset: v.frameOffset, content: v.codec.content, codec: v.codec };
}

/**
 * Registers the Protobuf snapshot readers so that their value codec also hands every decoded value
 * (detail, frame bytes, snapshot content) to `sink`. Values are decoded exactly once.
 */
export function registerCapturingProtobufReaders(registry: SnapshotRegistry, sink: (v: CapturedProtobufValue) => void): void {
  registerWrappedProtobufSnapshotReaders(registry, (inner) => ({
    decode(vr) {
      const start = vr.position;
      const frameOffset = vr.absolutePosition;
      const detail = inner.decodeDetailed(vr);
      sink({ detail, frame: vr.bytes.slice(start, vr.position), frameOffset, content: inner.content, codec: inner });
      return toMessageValue(detail);
    },
  }));
}
