import { ByteReader, decodeSnappyFramed } from '../../io';
import type { KeyedStreamInput } from './keyed-stream-types';
import { throwIfCancelled, type CancelSignal } from '../cancel-signal';
import type { KeyedStateHeader } from '../savepoint/inspection-types';
import { createKeyGroupBlockCursor, readKeyGroupBlockPart } from './read-key-group-block';
import { KeyedEntryRun, takeKeyedEntryRows, type KeyedBlockDecoding } from './keyed-entry-run';
import { KeyedReadBuffers } from './keyed-read-buffers';
import { streamKeyGroupBlock, streamSnappyKeyGroupBlock } from './stream-key-group-block';
import { isWantedState } from '../is-wanted-state';
import type { ValueModeSource } from '../snapshots/snapshot-types';

export interface KeyedReadOptions {
  /** only this state's entries, or these states' (in stream order) */
  state?: string | ReadonlySet<string>;
  signal?: CancelSignal;
  /**
   * Read the blocks into two buffers reused for the whole stream (where the source offers
   * `readInto`) instead of a new array per read: for a consumer that is done with a run's entries,
   * their bytes included, before it asks for the next run (a whole-state tally). Memory then stays
   * at two buffers of the largest slice, without waiting for the garbage collector to free old ones.
   */
  reuseReadBuffers?: boolean;
  /** with reuseReadBuffers: the buffers to reuse (default: a set for this stream); pass one set to read stream after stream into the same buffers */
  readBuffers?: KeyedReadBuffers;
  /** window size for streaming large blocks (default KEYED_SCAN_WINDOW_BYTES for uncompressed blocks with reused buffers and a source with readInto, else KEYED_BLOCK_WINDOW_BYTES; tests use small ones) */
  blockWindowBytes?: number;
  /** the value mode, looked up as each entry's value is decoded (default decode) */
  values?: ValueModeSource;
}

/** The header's state ids that pass the filter (undefined: every state). */
function listWantedStateIds(header: KeyedStateHeader, filter: string | ReadonlySet<string> | undefined): ReadonlySet<number> | undefined {
  if (filter === undefined) return undefined;
  const ids = new Set<number>();
  header.states.forEach((s, id) => {
    if (isWantedState(filter, s.name)) ids.add(id);
  });
  return ids;
}

/** Non-zero offsets as [keyGroup, offset, end) blocks, in offset order; end = next block or the stream end. */
export function listKeyGroupBlocks(input: Pick<KeyedStreamInput, 'range' | 'offsets' | 'source'>): { keyGroup: number; offset: number; end: number }[] {
  const blocks = input.offsets
    .map((offset, i) => ({ keyGroup: input.range.start + i, offset }))
    .filter((b) => b.offset !== 0)
    .sort((a, b) => a.offset - b.offset);
  return blocks.map((b, i) => ({ ...b, end: i + 1 < blocks.length ? blocks[i + 1]!.offset : input.source.size }));
}

/** Where the header of a keyed stream must end: the first non-zero offset, or the stream end. */
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
 * A key-group block larger than this is read in windows of this size (an entry larger than a window
 * gets a window of its own size), so memory does not grow with the key-group size: a large state
 * with few key groups (low max parallelism) has key groups of gigabytes. Whole-state scans of
 * uncompressed blocks in local files use KEYED_SCAN_WINDOW_BYTES instead.
 */
export const KEYED_BLOCK_WINDOW_BYTES = 4 * 1024 * 1024;
/**
 * The window of a whole-state scan (or full count) of uncompressed blocks in a local file (reused
 * buffers and a source with `readInto`, where a read costs a system call, not a request): a window is
 * framed and its values scanned right after it arrives, and a smaller one was measured to scan
 * faster on this project's bench machine (2 MiB L2 per core; the 0.5 GiB bench savepoint: the stats
 * pipeline ~20 % faster with 1 or 2 MiB windows than with 4 MiB ones). A block whose entries
 * outgrow it goes on in windows of up to KEYED_BLOCK_WINDOW_BYTES.
 */
export const KEYED_SCAN_WINDOW_BYTES = 1024 * 1024;

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
 * Streams the entries of a canonical keyed state stream: one block per non-zero
 * key-group offset (Snappy-framed per block when the header says so), decoded per state with the
 * header's serializers. Consecutive blocks are read together in growing slices (groupKeyGroupSlices,
 * up to 1 MiB), and from the second slice on the next one is read while this one is decoded when
 * both fit in 16 MiB; a block above the window size (KEYED_BLOCK_WINDOW_BYTES, 4 MiB, or for a
 * whole-state scan of uncompressed blocks in a local file KEYED_SCAN_WINDOW_BYTES, 1 MiB) is streamed in windows of that
 * size (stream-key-group-block.ts), so memory stays bounded by a few windows, whatever the key-group
 * size (an entry larger than a window gets a window of its own size).
 *
 * The entries come as one run per key-group block (or window of a streamed block): the block is framed into rows when the run is yielded (a framing error
 * is thrown then, before any of the block's entries), and iterating the run decodes its entries one at
 * a time (consume a run, or stop, before asking for the next). A whole-state scan pays one async step
 * per block, not per entry, and may walk the rows without decoding (KeyedEntryRun). With
 * reuseReadBuffers the row table and the window buffers are reused too, and a streamed block's next
 * window is read while the current run is consumed.
 */
export async function* readCanonicalKeyedEntryRuns(
  input: KeyedStreamInput,
  header: KeyedStateHeader,
  options: KeyedReadOptions = {},
): AsyncGenerator<KeyedEntryRun> {
  const wanted = listWantedStateIds(header, options.state);
  if (wanted?.size === 0) return;
  const buffers = options.reuseReadBuffers ? (options.readBuffers ?? new KeyedReadBuffers()) : undefined;
  const decoding: KeyedBlockDecoding = {
    input,
    header,
    plans: new Map(),
    wanted,
    prefixBytes: input.maxParallelism > 128 ? 2 : 1,
    buffers,
    values: options.values,
  };
  const slices = groupKeyGroupSlices(listKeyGroupBlocks(input));
  // two buffers in turn: slice i is decoded from one while slice i + 1 is read ahead into the other
  const readInto = buffers !== undefined ? input.source.readInto?.bind(input.source) : undefined;
  const readSlice = (slice: KeyGroupSlice): Promise<Uint8Array> => {
    const length = slice.end - slice.offset;
    if (readInto === undefined || buffers === undefined) return input.source.read(slice.offset, length);
    const turn = buffers.sliceTurn;
    let buffer = buffers.slices[turn];
    if (buffer === undefined || buffer.length < length) buffers.slices[turn] = buffer = new Uint8Array(length);
    buffers.sliceTurn = turn ^ 1;
    return readInto(slice.offset, length, buffer);
  };
  // (compressed blocks keep the larger window: a block up to it is read and decompressed whole)
  const windowBytes = options.blockWindowBytes ?? (readInto !== undefined && !header.compressed ? KEYED_SCAN_WINDOW_BYTES : KEYED_BLOCK_WINDOW_BYTES);
  // only a block alone in its slice (a block above MAX_KEYED_SLICE_BYTES always is; joined slices stay below it)
  const streamed = (slice: KeyGroupSlice): boolean => slice.blocks.length === 1 && slice.end - slice.offset > windowBytes;
  let pending: Promise<Uint8Array> | undefined;
  try {
    for (let i = 0; i < slices.length; i++) {
      const slice = slices[i]!;
      throwIfCancelled(options.signal);
      if (streamed(slice)) {
        // never read ahead into or out of a streamed block
        if (header.compressed) yield* streamSnappyKeyGroupBlock(decoding, slice.blocks[0]!, windowBytes, options.signal);
        else {
          const next = slices[i + 1];
          yield* streamKeyGroupBlock(
            decoding,
            slice.blocks[0]!,
            windowBytes,
            KEYED_BLOCK_WINDOW_BYTES,
            readInto,
            options.signal,
            next !== undefined && streamed(next) ? next : undefined,
          );
        }
        continue;
      }
      const raw = await (pending ?? readSlice(slice));
      pending = undefined;
      const next = slices[i + 1];
      // not after the first slice: a reader that stops within it reads nothing more
      if (i > 0 && next && !streamed(next) && next.end - next.offset + (slice.end - slice.offset) <= KEYED_READ_AHEAD_BYTES) pending = readSlice(next);
      for (const block of slice.blocks) {
        if (block !== slice.blocks[0]) throwIfCancelled(options.signal);
        yield decodeBlockEntries(decoding, raw.subarray(block.offset - slice.offset, block.end - slice.offset), block);
      }
    }
  } finally {
    // a consumer that stops early (or a failure) leaves the read-ahead unawaited: never an unhandled rejection;
    // into a reused buffer it is awaited, so the next stream never reads into a buffer this read still fills
    const settled = pending?.catch(() => undefined);
    const window = decoding.nextWindow?.bytes.catch(() => undefined);
    decoding.nextWindow = undefined;
    if (readInto !== undefined) await Promise.all([settled, window]);
  }
}

function decodeBlockEntries(d: KeyedBlockDecoding, bytes: Uint8Array, block: { keyGroup: number; offset: number }): KeyedEntryRun {
  const { input, header, prefixBytes } = d;
  const absolute = input.baseOffset + block.offset;
  const r = header.compressed
    ? new ByteReader(decodeSnappyFramed(bytes, { identifier: 'required', file: input.file }).data, {
        file: `${input.file} (Snappy block at ${absolute})`,
        baseOffset: 0,
      })
    : new ByteReader(bytes, { file: input.file, baseOffset: absolute });
  const rows = takeKeyedEntryRows(d);
  readKeyGroupBlockPart(r, createKeyGroupBlockCursor(), header.states.length, prefixBytes, rows, false);
  return new KeyedEntryRun(d, r.bytes, r.baseOffset, rows, r.file ?? input.file, block.keyGroup);
}
