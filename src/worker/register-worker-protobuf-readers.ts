/**
 * The worker's one Protobuf value codec wrapper (registerWrappedProtobufSnapshotReaders), switched
 * per read by `control.mode`:
 * - `scan`: reads the frame only and hands a view of it (no copy) to the structural scan;
 * - `skip`: reads the frame only (entries before the first row of a page);
 * - `decode`: the full decoder, for the rows and the entry shown; the frame is copied for the hex view.
 * Each value the codec returns in `scan` and `decode` mode is a new object, and `control.frames` maps
 * it to the frame it was read from: an entry's frames are found from its value by identity
 * (findValueFrames), whatever its byte offsets (heap MapState user keys share one value range,
 * compressed heap chunks restart offsets at 0). Frames of values nobody asks for (other states of a
 * heap chunk, entries before a page) go away with their values.
 */
import type { DecodedValue, SnapshotRegistry, ValueCodec } from '../core/flink';
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

/** The frame of each value the codec returned, keyed by that value object (as a WeakMap would, without its per-entry cost). */
export interface ValueFrames {
  set(value: DecodedValue, frame: WorkerProtobufFrame): void;
  get(value: DecodedValue): WorkerProtobufFrame | undefined;
}

export interface ProtobufReadControl {
  mode: ProtobufReadMode;
  frames: ValueFrames;
}

export function createProtobufReadControl(mode: ProtobufReadMode): ProtobufReadControl {
  return { mode, frames: createValueFrames() };
}

/**
 * Frames kept on the value objects themselves under a symbol of this table: a value scan sets one per
 * value, and a WeakMap entry per value cost more than the scan of small values. The property is
 * invisible elsewhere (another table's symbol, structured clone, Object.entries and JSON all skip it) and
 * goes away with its value. Values the codec returns are new objects, never frozen.
 */
function createValueFrames(): ValueFrames {
  const key = Symbol('protobuf frame');
  type Carrier = { [key]?: WorkerProtobufFrame };
  return {
    set(value, frame) {
      (value as Carrier)[key] = frame;
    },
    get(value) {
      return (value as Carrier)[key];
    },
  };
}

/** The value an entry carries when its Protobuf payload was scanned or skipped, not decoded. */
export const NOT_DECODED: DecodedValue = Object.freeze({ kind: 'other', type: 'Protobuf frame', text: 'not decoded' });

/** What a codec made by registerWorkerProtobufReaders scans with: the Protobuf codec it wraps and its scan index. */
export interface WorkerScanCodec {
  codec: ProtobufValueCodec;
  index: () => ProtobufScanIndex;
}

const workerCodecs = new WeakMap<ValueCodec, WorkerScanCodec>();

/** The Protobuf codec and scan index behind a codec of registerWorkerProtobufReaders (for frames read in place). */
export function getWorkerScanCodec(codec: ValueCodec | undefined): WorkerScanCodec | undefined {
  return codec === undefined ? undefined : workerCodecs.get(codec);
}

export function registerWorkerProtobufReaders(registry: SnapshotRegistry, control: ProtobufReadControl): void {
  const indexes = new Map<string, ProtobufScanIndex>();
  registerWrappedProtobufSnapshotReaders(registry, (inner) => {
    const content = inner.content;
    // looked up once per codec, not per value (a key string per scanned value showed in profiles)
    let index: ProtobufScanIndex | undefined;
    const indexOf = (): ProtobufScanIndex => {
      if (index !== undefined) return index;
      const key = `${content.rootFullName}\u0000${content.descriptorSha256}`;
      index = indexes.get(key);
      if (index === undefined) indexes.set(key, (index = buildProtobufScanIndex(content.schema.root)));
      return index;
    };
    const codec: ValueCodec = {
      decode(vr): DecodedValue {
        const start = vr.position;
        const offset = vr.absolutePosition;
        if (control.mode === 'decode') {
          const detail = inner.decodeDetailed(vr);
          const value = toMessageValue(detail);
          control.frames.set(value, { offset, frame: vr.bytes.slice(start, vr.position), length: detail.payloadSize, codec: inner, detail });
          return value;
        }
        const frame = readProtobufFrame(vr, content.settings.maxMessageSize);
        if (control.mode === 'skip') return NOT_DECODED;
        const value: DecodedValue = { kind: 'other', type: 'Protobuf frame', text: 'not decoded' };
        control.frames.set(value, { offset, frame: vr.bytes.subarray(start, vr.position), length: frame.length, codec: inner, index: indexOf() });
        return value;
      },
    };
    workerCodecs.set(codec, { codec: inner, index: indexOf });
    return codec;
  });
}

/** Deepest nesting of values searched for frames (values are built by depth-limited decoders). */
const MAX_VALUE_DEPTH = 64;

/** The frames of the Protobuf values inside `value` (list items, TTL wrappers, ...), in read order. */
export function findValueFrames(control: ProtobufReadControl, value: DecodedValue | null): WorkerProtobufFrame[] {
  const out: WorkerProtobufFrame[] = [];
  if (value !== null) collectFrames(control.frames, value, out, 0);
  return out;
}

function collectFrames(frames: ValueFrames, v: DecodedValue, out: WorkerProtobufFrame[], depth: number): void {
  const own = frames.get(v);
  if (own !== undefined) {
    out.push(own);
    return;
  }
  if (depth >= MAX_VALUE_DEPTH) return;
  switch (v.kind) {
    case 'list':
      for (const item of v.items) collectFrames(frames, item, out, depth + 1);
      return;
    case 'ttl':
      collectFrames(frames, v.value, out, depth + 1);
      return;
    case 'tuple':
      for (const f of v.fields) collectFrames(frames, f, out, depth + 1);
      return;
    case 'pojo':
      for (const f of v.fields) collectFrames(frames, f.value, out, depth + 1);
      return;
    case 'map':
      for (const e of v.entries) {
        collectFrames(frames, e.key, out, depth + 1);
        collectFrames(frames, e.value, out, depth + 1);
      }
      return;
    default:
      return;
  }
}
