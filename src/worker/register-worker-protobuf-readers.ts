/**
 * The worker's one Protobuf value codec wrapper (registerWrappedProtobufSnapshotReaders), switched
 * per read by `control.mode`:
 * - `scan`: reads the frame only and hands a view of it (no copy) to the structural scan;
 * - `skip`: reads the frame only (entries before the first row of a page);
 * - `decode`: the full decoder, for the rows and the entry shown; the frame is copied for the hex view.
 * A value's frames go to `control.pending` in read order; the reader of the entries matches them to
 * entries by offset (heap and broadcast chunks decode several entries before yielding them).
 */
import type { DecodedValue, SnapshotRegistry } from '../core/flink';
import {
  buildProtobufScanIndex,
  readProtobufFrame,
  registerWrappedProtobufSnapshotReaders,
  toMessageValue,
  type ProtobufScanIndex,
  type ProtobufValueCodec,
  type ProtobufValueDetail,
} from '../core/protobuf';

export type ProtobufReadMode = 'scan' | 'skip' | 'decode';

/** One Protobuf value as read: offsets are absolute in the reader's coordinates (as StateEntry.valueRange). */
export interface WorkerProtobufFrame {
  /** absolute offset of the 4-byte length */
  offset: number;
  /** `scan`: a view into the read buffer (valid until the next slice is read); `decode`: a copy */
  frame: Uint8Array;
  /** declared payload length (more than frame.length - 4 when the input ends early) */
  length: number;
  codec: ProtobufValueCodec;
  /** `scan` mode: the scan index of the codec's saved schema */
  index?: ProtobufScanIndex;
  /** `decode` mode: the full decoder's result */
  detail?: ProtobufValueDetail;
}

export interface ProtobufReadControl {
  mode: ProtobufReadMode;
  pending: WorkerProtobufFrame[];
}

/** The value an entry carries when its Protobuf payload was scanned or skipped, not decoded. */
export const NOT_DECODED: DecodedValue = Object.freeze({ kind: 'other', type: 'Protobuf frame', text: 'not decoded' });

export function registerWorkerProtobufReaders(registry: SnapshotRegistry, control: ProtobufReadControl): void {
  const indexes = new Map<string, ProtobufScanIndex>();
  registerWrappedProtobufSnapshotReaders(registry, (inner) => {
    const content = inner.content;
    const indexOf = (): ProtobufScanIndex => {
      const key = `${content.rootFullName}\u0000${content.descriptorSha256}`;
      let index = indexes.get(key);
      if (index === undefined) indexes.set(key, (index = buildProtobufScanIndex(content.schema.root)));
      return index;
    };
    return {
      decode(vr): DecodedValue {
        const start = vr.position;
        const offset = vr.absolutePosition;
        if (control.mode === 'decode') {
          const detail = inner.decodeDetailed(vr);
          control.pending.push({ offset, frame: vr.bytes.slice(start, vr.position), length: detail.payloadSize, codec: inner, detail });
          return toMessageValue(detail);
        }
        const frame = readProtobufFrame(vr, content.settings.maxMessageSize);
        if (control.mode === 'scan') control.pending.push({ offset, frame: vr.bytes.subarray(start, vr.position), length: frame.length, codec: inner, index: indexOf() });
        return NOT_DECODED;
      },
    };
  });
}

/**
 * Takes the frames that belong to an entry whose value spans [start, end) out of `pending`: frames
 * before `start` (values of entries not asked for) are dropped, frames from `end` on stay.
 */
export function takeEntryFrames(pending: WorkerProtobufFrame[], range: { offset: number; length: number } | undefined): WorkerProtobufFrame[] {
  if (pending.length === 0) return [];
  if (range === undefined) return [];
  const end = range.offset + range.length;
  let taken = 0;
  const mine: WorkerProtobufFrame[] = [];
  for (const f of pending) {
    if (f.offset >= end) break;
    taken++;
    if (f.offset >= range.offset) mine.push(f);
  }
  if (taken === pending.length) pending.length = 0;
  else pending.splice(0, taken);
  return mine;
}
