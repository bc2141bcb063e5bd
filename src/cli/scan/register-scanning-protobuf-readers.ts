import type { DecodedValue, SnapshotRegistry } from '../../core/flink';
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
  payload: Uint8Array;
  /** declared payload length (more than payload.length when the input ends early) */
  length: number;
  content: ProtobufSnapshotContent;
  index: ProtobufScanIndex;
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
    return {
      decode(vr): DecodedValue {
        const offset = vr.absolutePosition;
        const frame = readProtobufFrame(vr, content.settings.maxMessageSize);
        sink({ offset, payload: frame.payload, length: frame.length, content, index: scanIndex });
        return SCANNED;
      },
    };
  });
}
