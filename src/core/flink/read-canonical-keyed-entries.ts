import { ByteReader, decodeSnappyFramed, SnappyFramedReader, type ByteSource } from '../io';
import { throwIfCancelled, type CancelSignal } from './cancel-signal';
import { decodeKeyedEntryInto, planKeyedDecode, type KeyedDecodePlan } from './decode-keyed-entry';
import type { KeyedStateHeader, StateEntry } from './inspection-types';
import { createKeyGroupBlockCursor, readKeyGroupBlock, readKeyGroupBlockPart, type RawKeyedEntry } from './read-key-group-block';
import type { KeyGroupRange } from './types';

export interface KeyedStreamInput {
  operatorId: string;
  subtask: number;
  maxParallelism: number;
  /** the handle's bytes (byte 0 = stream start) */
  source: ByteSource;
  /** file named in errors and byte ranges, and the absolute offset of source byte 0 in it */
  file: string;
  baseOffset: number;
  range: KeyGroupRange;
  /** one per key group of the range; 0 = no data */
  offsets: number[];
}

export interface KeyedReadOptions {
  /** only this state's entries */
  state?: string;
  signal?: CancelSignal;
  /**
   * Read the blocks into two buffers reused for the whole stream (where the source offers
   * `readInto`) instead of a new array per read: for a consumer that is done with a run's entries,
   * their bytes included, before it asks for the next run (a whole-state tally). Memory then stays
   * at two buffers of the largest slice, without waiting for the garbage collector to free old ones.
   */
  reuseReadBuffers?: boolean;
  /** window size for streaming large uncompressed blocks (default KEYED_BLOCK_WINDOW_BYTES; tests use small ones) */
  blockWindowBytes?: number;
}

/** Non-zero offsets as [keyGroup, offset, end) blocks, in offset order; end = next block or the stream end. */
export function listKeyGroupBlocks(input: Pick<KeyedStreamInput, 'range' | 'offsets' | 'source'>): { keyGroup: number; offset: number; end: number }[] {
  const blocks = input.offsets
    .map((offset, i) => ({ keyGroup: input.range.start + i, offset }))
    .filter((b) => b.offset !== 0)
    .sort((a, b) => a.offset - b.offset);
  return blocks.map((b, i) => ({ ...b, end: i + 1 < blocks.length ? blocks[i + 1]!.offset : input.source.size }));
}

/** Where the header of a keyed stream must end: the first non-zero offset, or the stream end (spec §3.1). */
export function computeKeyedHeaderFence(input: Pick<KeyedStreamInput, 'range' | 'offsets' | 'source'>): number {
  const first = listKeyGroupBlocks(input)[0];
  return first ? first.offset : input.source.size;
}

/** Reads of consecutive key-group blocks are joined up to this many bytes (a larger block is read alone). */
export const MAX_KEYED_SLICE_BYTES = 1024 * 1024;
/** The first read's limit; each further slice may be twice as large as the one before, up to MAX_KEYED_SLICE_BYTES. */
export const FIRST_KEYED_SLICE_BYTES = 64 * 1024;
/** The next slice is read while the current one is decoded only while both together stay within this. */
export const KEYED_READ_AHEAD_BYTES = 16 * 1024 * 1024;
/**
 * An uncompressed key-group block larger than this is read in windows of this size (an entry larger
 * than a window gets a window of its own size), so memory does not grow with the key-group size:
 * a large state with few key groups (low max parallelism) has key groups of gigabytes.
 */
export const KEYED_BLOCK_WINDOW_BYTES = 4 * 1024 * 1024;

export interface KeyGroupSlice {
  offset: number;
  end: number;
  blocks: { keyGroup: number; offset: number; end: number }[];
}

/**
 * Groups the blocks (contiguous, in offset order) into range reads: the first of at most
 * `firstBytes`, each next one of at most twice the limit before, up to `maxBytes`. A reader that
 * stops early (a listing of the first entries, over HTTP) fetches little more than it shows; a
 * full scan soon reads in large slices.
 */
export function groupKeyGroupSlices(
  blocks: readonly { keyGroup: number; offset: number; end: number }[],
  maxBytes = MAX_KEYED_SLICE_BYTES,
  firstBytes = FIRST_KEYED_SLICE_BYTES,
): KeyGroupSlice[] {
  const slices: KeyGroupSlice[] = [];
  let current: KeyGroupSlice | undefined;
  let limit = Math.min(firstBytes, maxBytes);
  for (const b of blocks) {
    if (current && current.end === b.offset && b.end - current.offset <= limit) {
      current.end = b.end;
      current.blocks.push(b);
    } else {
      if (current) limit = Math.min(limit * 2, maxBytes);
      current = { offset: b.offset, end: b.end, blocks: [b] };
      slices.push(current);
    }
  }
  return slices;
}

/**
 * Streams the entries of a canonical keyed state stream (spec §3.2–§3.4): one block per non-zero
 * key-group offset (Snappy-framed per block when the header says so), decoded per state with the
 * header's serializers. Consecutive blocks are read together in growing slices (groupKeyGroupSlices,
 * up to 1 MiB), and from the second slice on the next one is read while this one is decoded when
 * both fit in 16 MiB, so memory stays bounded by twice the larger of 1 MiB and the largest block.
 */
export async function* readCanonicalKeyedEntries(input: KeyedStreamInput, header: KeyedStateHeader, options: KeyedReadOptions = {}): AsyncGenerator<StateEntry> {
  for await (const run of readCanonicalKeyedEntryRuns(input, header, options)) for (const e of run) yield e;
}

/**
 * The same entries, in the same order and with the same errors, as one lazy run per key-group block:
 * each yielded iterable decodes its block's entries one at a time as it is iterated (consume a run, or
 * stop, before asking for the next). A whole-state scan pays one async step per block, not per entry.
 */
export async function* readCanonicalKeyedEntryRuns(input: KeyedStreamInput, header: KeyedStateHeader, options: KeyedReadOptions = {}): AsyncGenerator<Iterable<StateEntry>> {
  const plans = new Map<number, KeyedDecodePlan>();
  const wanted = options.state === undefined ? undefined : header.states.findIndex((s) => s.name === options.state);
  if (wanted === -1) return;
  const prefixBytes = input.maxParallelism > 128 ? 2 : 1;
  const slices = groupKeyGroupSlices(listKeyGroupBlocks(input));
  // two buffers in turn: slice i is decoded from one while slice i + 1 is read ahead into the other
  const buffers: (Uint8Array | undefined)[] = [undefined, undefined];
  let turn = 0;
  const readInto = options.reuseReadBuffers ? input.source.readInto?.bind(input.source) : undefined;
  const readSlice = (slice: KeyGroupSlice): Promise<Uint8Array> => {
    const length = slice.end - slice.offset;
    if (readInto === undefined) return input.source.read(slice.offset, length);
    let buffer = buffers[turn];
    if (buffer === undefined || buffer.length < length) buffers[turn] = buffer = new Uint8Array(length);
    turn ^= 1;
    return readInto(slice.offset, length, buffer);
  };
  const windowBytes = options.blockWindowBytes ?? KEYED_BLOCK_WINDOW_BYTES;
  // only a block alone in its slice (a block above MAX_KEYED_SLICE_BYTES always is; joined slices stay below it)
  const streamed = (slice: KeyGroupSlice): boolean => slice.blocks.length === 1 && slice.end - slice.offset > windowBytes;
  let pending: Promise<Uint8Array> | undefined;
  try {
    for (let i = 0; i < slices.length; i++) {
      const slice = slices[i]!;
      throwIfCancelled(options.signal);
      if (streamed(slice)) {
        // never read ahead into or out of a streamed block
        if (header.compressed) yield* streamSnappyKeyGroupBlock(input, header, plans, wanted, prefixBytes, slice.blocks[0]!, windowBytes, options.reuseReadBuffers === true, options.signal);
        else yield* streamKeyGroupBlock(input, header, plans, wanted, prefixBytes, slice.blocks[0]!, windowBytes, readInto, options.signal);
        continue;
      }
      const raw = await (pending ?? readSlice(slice));
      pending = undefined;
      const next = slices[i + 1];
      // not after the first slice: a reader that stops within it reads nothing more
      if (i > 0 && next && !streamed(next) && next.end - next.offset + (slice.end - slice.offset) <= KEYED_READ_AHEAD_BYTES) pending = readSlice(next);
      for (const block of slice.blocks) {
        if (block !== slice.blocks[0]) throwIfCancelled(options.signal);
        yield decodeBlockEntries(input, header, plans, wanted, prefixBytes, raw.subarray(block.offset - slice.offset, block.end - slice.offset), block);
      }
    }
  } finally {
    // a consumer that stops early (or a failure) leaves the read-ahead unawaited: never an unhandled rejection
    pending?.catch(() => undefined);
  }
}

/**
 * One large uncompressed block in windows: each window's complete entries become one run (decoded
 * before the next window is read); a window that holds no complete entry is doubled until it does.
 * Errors are the whole block's: the last window ends where the block ends.
 */
async function* streamKeyGroupBlock(
  input: KeyedStreamInput,
  header: KeyedStateHeader,
  plans: Map<number, KeyedDecodePlan>,
  wanted: number | undefined,
  prefixBytes: number,
  block: { keyGroup: number; offset: number; end: number },
  windowBytes: number,
  readInto: ((offset: number, length: number, target: Uint8Array) => Promise<Uint8Array>) | undefined,
  signal: CancelSignal | undefined,
): AsyncGenerator<Iterable<StateEntry>> {
  const cursor = createKeyGroupBlockCursor();
  let at = block.offset;
  let window = windowBytes;
  let buffer: Uint8Array | undefined;
  while (!cursor.done) {
    throwIfCancelled(signal);
    const length = Math.min(window, block.end - at);
    const more = at + length < block.end;
    let bytes: Uint8Array;
    if (readInto === undefined) bytes = await input.source.read(at, length);
    else {
      if (buffer === undefined || buffer.length < length) buffer = new Uint8Array(length);
      bytes = await readInto(at, length, buffer);
    }
    const r = new ByteReader(bytes, { file: input.file, baseOffset: input.baseOffset + at });
    const raw: RawKeyedEntry[] = [];
    const consumed = readKeyGroupBlockPart(r, cursor, header.states.length, prefixBytes, raw, more);
    if (consumed === 0 && !cursor.done) {
      window = length * 2; // an entry larger than the window
      continue;
    }
    window = windowBytes;
    at += consumed;
    if (raw.length > 0) yield decodeRawEntries(input, header, plans, wanted, raw, input.file, block.keyGroup);
  }
}

/**
 * One large Snappy-compressed block (Flink compresses each key group as one framed stream, §3.6),
 * decompressed chunk by chunk into a window of about `windowBytes`; the window's complete entries are
 * one run, the unfinished tail starts the next window. Entry offsets and the file label are those of
 * the whole-block decoder (positions in the decompressed block); memory is the window, not the block.
 */
async function* streamSnappyKeyGroupBlock(
  input: KeyedStreamInput,
  header: KeyedStateHeader,
  plans: Map<number, KeyedDecodePlan>,
  wanted: number | undefined,
  prefixBytes: number,
  block: { keyGroup: number; offset: number; end: number },
  windowBytes: number,
  reuse: boolean,
  signal: CancelSignal | undefined,
): AsyncGenerator<Iterable<StateEntry>> {
  const file = `${input.file} (Snappy block at ${input.baseOffset + block.offset})`;
  const reader = new SnappyFramedReader(input.source, { offset: block.offset, end: block.end, identifier: 'required', maxOutputBytes: Number.MAX_SAFE_INTEGER });
  const cursor = createKeyGroupBlockCursor();
  let window = new Uint8Array(windowBytes);
  let filled = 0;
  let windowStart = 0;
  let ended = false;
  let want = windowBytes;
  while (!cursor.done) {
    throwIfCancelled(signal);
    while (!ended && filled < want) {
      const chunk = await reader.readChunk();
      if (chunk === undefined) {
        ended = true;
        break;
      }
      if (filled + chunk.length > window.length) {
        const grown = new Uint8Array(Math.max(filled + chunk.length, window.length * 2));
        grown.set(window.subarray(0, filled));
        window = grown;
      }
      window.set(chunk, filled);
      filled += chunk.length;
    }
    const r = new ByteReader(window.subarray(0, filled), { file, baseOffset: windowStart });
    const raw: RawKeyedEntry[] = [];
    const consumed = readKeyGroupBlockPart(r, cursor, header.states.length, prefixBytes, raw, !ended);
    if (consumed === 0 && !cursor.done) {
      want = filled * 2; // an entry larger than the window
      continue;
    }
    want = windowBytes;
    if (raw.length > 0) yield decodeRawEntries(input, header, plans, wanted, raw, file, block.keyGroup);
    // the consumer is done with this run: carry the unfinished tail to the front (a new array unless
    // the caller allowed reuse, since entries may keep views of the old one)
    const tail = window.subarray(consumed, filled);
    if (reuse) window.copyWithin(0, consumed, filled);
    else {
      const next = new Uint8Array(Math.max(windowBytes, tail.length));
      next.set(tail);
      window = next;
    }
    filled = tail.length;
    windowStart += consumed;
  }
}

function* decodeBlockEntries(
  input: KeyedStreamInput,
  header: KeyedStateHeader,
  plans: Map<number, KeyedDecodePlan>,
  wanted: number | undefined,
  prefixBytes: number,
  bytes: Uint8Array,
  block: { keyGroup: number; offset: number },
): Generator<StateEntry> {
  const absolute = input.baseOffset + block.offset;
  const r = header.compressed
    ? new ByteReader(decodeSnappyFramed(bytes, { identifier: 'required', file: input.file }).data, { file: `${input.file} (Snappy block at ${absolute})`, baseOffset: 0 })
    : new ByteReader(bytes, { file: input.file, baseOffset: absolute });
  yield* decodeRawEntries(input, header, plans, wanted, readKeyGroupBlock(r, header.states.length, prefixBytes), r.file ?? input.file, block.keyGroup);
}

function* decodeRawEntries(
  input: KeyedStreamInput,
  header: KeyedStateHeader,
  plans: Map<number, KeyedDecodePlan>,
  wanted: number | undefined,
  raw: readonly RawKeyedEntry[],
  file: string,
  keyGroup: number,
): Generator<StateEntry> {
  for (const e of raw) {
    if (wanted !== undefined && e.stateId !== wanted) continue;
    let plan = plans.get(e.stateId);
    if (!plan) {
      plan = planKeyedDecode(header.states[e.stateId]!, header.keySerializer, input.maxParallelism);
      plans.set(e.stateId, plan);
    }
    // one object per entry, in StateEntry's property order (the decoded parts are written into it)
    const entry = decodeKeyedEntryInto(
      { operatorId: input.operatorId, state: plan.state.name, subtask: input.subtask },
      plan,
      new ByteReader(e.key, { file, baseOffset: e.keyOffset }),
      new ByteReader(e.value, { file, baseOffset: e.valueOffset }),
      keyGroup,
    ) as StateEntry;
    entry.file = file;
    entry.keyRange = { offset: e.keyOffset, length: e.key.length };
    entry.valueRange = { offset: e.valueOffset, length: e.value.length };
    yield entry;
  }
}
