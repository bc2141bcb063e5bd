import type { DecodedValue, SnapshotRegistry, ValueCodec } from '../../core/flink';
import {
  buildProtobufScanIndex,
  readProtobufFrame,
  registerWrappedProtobufSnapshotReaders,
  type ProtobufScanIndex,
  type ProtobufSnapshotContent,
} from '../../core/protobuf';

/** The value an entry carries in a statistics scan: the payload went to the structural scan instead. */
const SCANNED: DecodedValue = Object.freeze({ kind: 'other', type: 'Protobuf frame', text: 'scanned structurally, not decoded' });

/** A Protobuf value as the statistics scan sees it: the payload (a view, no copy) and its snapshot. */
export interface ScannedFrame {
  /** absolute offset of the frame in the reader's coordinates (as StateEntry.valueRange) */
  offset: number;
  /** the payload bytes present: bytes[start, end) (the payload alone, or a stretch of a read buffer) */
  bytes: Uint8Array;
  start: number;
  end: number;
  /** declared payload length (more than end − start when the input ends early) */
  length: number;
  content: ProtobufSnapshotContent;
  index: ProtobufScanIndex;
}

/** The scanning codecs this module made, with what their frames carry (walkKeyedEntryRun reads frames in place with it). */
const scanningCodecs = new WeakMap<ValueCodec, Pick<ScannedFrame, 'content' | 'index'>>();

/** The snapshot and scan index behind a codec made by registerScanningProtobufReaders, if it is one. */
export function getScanningCodecSchema(codec: ValueCodec | undefined): Pick<ScannedFrame, 'content' | 'index'> | undefined {
  return codec === undefined ? undefined : scanningCodecs.get(codec);
}

/**
 * Registers the Protobuf snapshot readers with a value codec that does not decode: it reads the
 * frame and hands the payload to `sink` for the structural scan (scanProtobufPayload), and returns
 * only the frame's size as the entry's value. The scan index is built once per saved schema.
 */
export function registerScanningProtobufReaders(registry: SnapshotRegistry, sink: (frame: ScannedFrame) => void): void {
  const indexes = new Map<string, ProtobufScanIndex>();
  registerWrappedProtobufSnapshotReaders(registry, (inner) => {
    const content = inner.content;
    const cacheKey = `${content.rootFullName}\u0000${content.descriptorSha256}`;
    let index = indexes.get(cacheKey);
    if (!index) indexes.set(cacheKey, (index = buildProtobufScanIndex(content.schema.root)));
    const scanIndex = index;
    const codec: ValueCodec = {
      decode(vr): DecodedValue {
        const offset = vr.absolutePosition;
        const frame = readProtobufFrame(vr, content.settings.maxMessageSize);
        sink({ offset, bytes: frame.payload, start: 0, end: frame.payload.length, length: frame.length, content, index: scanIndex });
        return SCANNED;
      },
    };
    scanningCodecs.set(codec, { content, index: scanIndex });
    return codec;
  });
}
