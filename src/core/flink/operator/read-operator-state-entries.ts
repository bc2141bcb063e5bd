import { ByteReader, DecodeError, decodeSnappyFramed, isDecodeError, type ByteSource } from '../../io';
import { throwIfCancelled, type CancelSignal } from '../cancel-signal';
import { describeOpaque, describeUndecodable } from '../keyed/decode-keyed-entry';
import { isWantedState } from '../is-wanted-state';
import type { OperatorStateHeader, StateEntry, StateMetaInfo } from '../savepoint/inspection-types';
import type { OperatorStateEntry } from '../metadata/metadata-types';
import type { ValueMode, ValueModeSource } from '../snapshots/snapshot-types';

export interface OperatorStreamInput {
  operatorId: string;
  subtask: number;
  source: ByteSource;
  file: string;
  baseOffset: number;
  /** the handle's state entries (name, mode, offsets) */
  states: OperatorStateEntry[];
}

/** Where the operator state header must end: the smallest offset of the handle, or the stream end. */
export function computeOperatorHeaderFence(input: Pick<OperatorStreamInput, 'states' | 'source'>): number {
  let min = input.source.size;
  for (const s of input.states) for (const o of s.offsets) if (o < min) min = o;
  return min;
}

/**
 * Streams operator state entries: list/union states decode one element per offset
 * (an element ends where the next offset of any state starts); broadcast states read `i32` count
 * + key/value pairs at their single offset. Compressed streams: the bytes from each offset are
 * Snappy data chunks (no identifier chunk there). Operator entries have keyGroup -1.
 */
export async function* readOperatorStateEntries(
  input: OperatorStreamInput,
  header: OperatorStateHeader,
  options: {
    state?: string | ReadonlySet<string>;
    signal?: CancelSignal;
    /** the value mode, looked up per value (default decode) */ values?: ValueModeSource;
  } = {},
): AsyncGenerator<StateEntry> {
  checkOffsetsInside(input);
  const endOf = listElementEnds(input);
  for (const entry of input.states) {
    if (!isWantedState(options.state, entry.name)) continue;
    const broadcast = entry.mode === 'BROADCAST';
    const meta = (broadcast ? header.broadcastStates : header.states).find((s) => s.name === entry.name);
    const elements = readElementBytes(input, entry.offsets, endOf);
    for (const offset of entry.offsets) {
      throwIfCancelled(options.signal);
      const r = openElement(input, header.compressed, offset, await elements.next(offset));
      const base = { operatorId: input.operatorId, state: entry.name, subtask: input.subtask, keyGroup: -1, file: r.file ?? input.file };
      if (broadcast) {
        for (const e of readBroadcastMap(r, meta, entry.name, options.values)) yield { ...base, ...e };
      } else {
        const at = r.absolutePosition;
        const value = decodeElement(r, meta, entry.name, options.values?.mode);
        yield { ...base, value, valueRange: { offset: at, length: r.absolutePosition - at } };
      }
    }
  }
}

/** Every offset of the handle lies inside its stream (each bounds an element): one past the end is refused before any read, naming it. */
function checkOffsetsInside(input: Pick<OperatorStreamInput, 'states' | 'source' | 'file' | 'baseOffset'>): void {
  for (const s of input.states) {
    const i = s.offsets.findIndex((o) => o > input.source.size);
    if (i < 0) continue;
    throw new DecodeError({
      code: 'invalid-value',
      detail: `expected element #${i} of operator state "${s.name}" at an offset inside the ${input.source.size}-byte state stream, found offset ${s.offsets[i]}, past its end`,
      file: input.file,
      offset: input.baseOffset + input.source.size,
    });
  }
}

/**
 * Where the element at each offset ends: at the next offset of any state of the handle, or at the
 * stream end. One sort, then a binary search per element (a handle may list hundreds of thousands).
 */
function listElementEnds(input: Pick<OperatorStreamInput, 'states' | 'source'>): (offset: number) => number {
  const bounds = Float64Array.from(new Set(input.states.flatMap((s) => s.offsets))).sort();
  return (offset) => {
    let lo = 0;
    let hi = bounds.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (bounds[mid]! > offset) hi = mid;
      else lo = mid + 1;
    }
    return lo < bounds.length ? bounds[lo]! : input.source.size;
  };
}

/** Elements of one state that follow each other without a gap are read together, in runs of up to this many bytes (a larger element is read alone). */
export const ELEMENT_RUN_BYTES = 1024 * 1024;

/**
 * The bytes of each element of `offsets`, asked for in that order. The first element is read
 * alone; after it, a run of elements where each starts at the end of the one before is read in
 * one request of at most twice the bytes of the run before (up to ELEMENT_RUN_BYTES). So a
 * reader that stops after a few elements (a page) reads little more than it shows, and a state
 * of many small elements costs a few dozen reads, not one per element (300,000 one-byte
 * elements: 45 s of reads before). Each element is scanned into a run at most once: the work
 * stays linear in the number of elements.
 */
function readElementBytes(
  input: OperatorStreamInput,
  offsets: readonly number[],
  endOf: (offset: number) => number,
): { next(offset: number): Promise<Uint8Array> } {
  let index = 0;
  let window: { start: number; bytes: Uint8Array } | undefined;
  let runLimit = 0;
  return {
    async next(offset) {
      const i = index++;
      const end = endOf(offset);
      if (window === undefined || offset < window.start || end > window.start + window.bytes.length || end < offset) {
        let runEnd = end;
        for (let j = i + 1; j < offsets.length && offsets[j] === runEnd; j++) {
          const e = endOf(runEnd);
          if (e > input.source.size || e - offset > runLimit) break;
          runEnd = e;
        }
        window = undefined;
        const bytes = await input.source.read(offset, runEnd - offset);
        runLimit = Math.min(Math.max(runLimit, bytes.length) * 2, ELEMENT_RUN_BYTES);
        if (runEnd === end) return bytes;
        window = { start: offset, bytes };
      }
      return window.bytes.subarray(offset - window.start, end - window.start);
    },
  };
}

function openElement(input: OperatorStreamInput, compressed: boolean, offset: number, raw: Uint8Array): ByteReader {
  const absolute = input.baseOffset + offset;
  if (!compressed) return new ByteReader(raw, { file: input.file, baseOffset: absolute });
  const data = decodeSnappyFramed(raw, { identifier: 'optional', file: input.file }).data;
  return new ByteReader(data, { file: `${input.file} (Snappy data from ${absolute})` });
}

function decodeElement(r: ByteReader, meta: StateMetaInfo | undefined, name: string, mode: ValueMode | undefined) {
  const s = meta?.serializers.VALUE_SERIALIZER;
  if (!s) return describeOpaque(r.readBytes(r.remaining), `state ${name} is not in the operator state header`);
  if (!s.codec || s.status === 'unknown')
    return describeOpaque(
      r.readBytes(r.remaining),
      s.status === 'unknown' ? `unknown serializer snapshot ${s.className} v${s.version}` : `element serializer ${s.typeLabel} has no value decoder`,
    );
  const start = r.position;
  try {
    return s.codec.decode(r, mode);
  } catch (e) {
    if (!isDecodeError(e)) throw e;
    r.seek(start);
    return describeUndecodable(r.readBytes(r.remaining), `element could not be decoded as ${s.typeLabel}: ${e.message}`);
  }
}

function* readBroadcastMap(
  r: ByteReader,
  meta: StateMetaInfo | undefined,
  name: string,
  values: ValueModeSource | undefined,
): Generator<Pick<StateEntry, 'userKey' | 'value' | 'valueRange'>> {
  const k = meta?.serializers.KEY_SERIALIZER;
  const v = meta?.serializers.VALUE_SERIALIZER;
  if (!k?.codec || !v?.codec || k.status === 'unknown' || v.status === 'unknown') {
    const at = r.absolutePosition;
    const bytes = r.readBytes(r.remaining);
    const why = !meta
      ? 'is not in the operator state header'
      : `has serializers ${k?.typeLabel ?? 'none'} → ${v?.typeLabel ?? 'none'} that cannot all be decoded`;
    yield { value: describeOpaque(bytes, `broadcast state ${name} ${why}`), valueRange: { offset: at, length: bytes.length } };
    return;
  }
  const count = r.readCount(`entries of broadcast state ${name}`, 1);
  for (let i = 0; i < count; i++) {
    const userKey = k.codec.decode(r);
    const at = r.absolutePosition;
    const value = v.codec.decode(r, values?.mode);
    yield { userKey, value, valueRange: { offset: at, length: r.absolutePosition - at } };
  }
}
