/**
 * Large key-group blocks read in windows instead of whole (readCanonicalKeyedEntryRuns decides which):
 * memory follows the window, not the key-group size, for plain and Snappy-compressed blocks alike.
 */
import { ByteReader, SnappyFramedReader } from '../../io';
import type { WindowRead } from './keyed-stream-types';
import { throwIfCancelled, type CancelSignal } from '../cancel-signal';
import { KeyedEntryRun, takeKeyedEntryRows, type KeyedBlockDecoding } from './keyed-entry-run';
import { createKeyGroupBlockCursor, readKeyGroupBlockPart } from './read-key-group-block';

/**
 * One large uncompressed block in windows: each window's complete entries become one run (framed
 * before the run is yielded; with `readInto`, the reused-buffer whole-state scan, the next window is
 * read while the run is consumed); a window that holds no complete entry is doubled until it does,
 * and the block goes on in windows of that size up to `grownWindowCap` (a block with one entry
 * above the window mostly has more). Errors are the whole block's: the last window ends where the
 * block ends.
 */
export async function* streamKeyGroupBlock(
  d: KeyedBlockDecoding,
  block: { keyGroup: number; offset: number; end: number },
  windowBytes: number,
  /** the largest window the block goes on with after one was doubled for a large entry */
  grownWindowCap: number,
  readInto: ((offset: number, length: number, target: Uint8Array) => Promise<Uint8Array>) | undefined,
  signal: CancelSignal | undefined,
  /** the stream's next block when it is streamed too: with readInto, its first window is read while this block's last run is consumed */
  nextBlock?: { offset: number; end: number },
): AsyncGenerator<KeyedEntryRun> {
  const { input, header, prefixBytes } = d;
  const cursor = createKeyGroupBlockCursor();
  let at = block.offset;
  let window = windowBytes;
  // the window after a successful part: windowBytes, or a grown one (up to grownWindowCap)
  let steady = windowBytes;
  // a whole-state scan (reused buffers) reads the next window while this one's run is consumed, into
  // the other of the stream's two window buffers (such a reader is done with a run before the next);
  // a reader that may stop early (a listing, a sample) reads only the windows it asks for
  // (a window read again larger, for an entry larger than it, goes to the same buffer: only one grows)
  const shared = d.buffers;
  const readWindow = (offset: number, length: number, again = false): Promise<Uint8Array> => {
    if (readInto === undefined || shared === undefined) return input.source.read(offset, length);
    const turn = again ? shared.windowTurn : (shared.windowTurn ^= 1);
    let buffer = shared.windows[turn];
    if (buffer === undefined || buffer.length < length) shared.windows[turn] = buffer = new Uint8Array(length);
    return readInto(offset, length, buffer);
  };
  // the first window may have been read ahead by the block before (d.nextWindow)
  let ahead: WindowRead | undefined = d.nextWindow;
  d.nextWindow = undefined;
  let again = false;
  try {
    while (!cursor.done) {
      throwIfCancelled(signal);
      const length = Math.min(window, block.end - at);
      const more = at + length < block.end;
      let bytes: Uint8Array;
      if (ahead !== undefined && ahead.offset === at && ahead.length === length) bytes = await ahead.bytes;
      else {
        // (never happens as the reads are planned; if it did, the buffer is free once the read settles)
        if (ahead !== undefined) await ahead.bytes.catch(() => undefined);
        bytes = await readWindow(at, length, again);
      }
      ahead = undefined;
      const r = new ByteReader(bytes, { file: input.file, baseOffset: input.baseOffset + at });
      const raw = takeKeyedEntryRows(d);
      const consumed = readKeyGroupBlockPart(r, cursor, header.states.length, prefixBytes, raw, more);
      again = consumed === 0 && !cursor.done;
      if (again) {
        window = length * 2; // an entry larger than the window
        continue;
      }
      if (length > steady) steady = Math.min(length, Math.max(grownWindowCap, windowBytes));
      window = steady;
      at += consumed;
      if (readInto !== undefined && !cursor.done && at < block.end) {
        const next = Math.min(window, block.end - at);
        ahead = { offset: at, length: next, bytes: readWindow(at, next) };
      } else if (readInto !== undefined && cursor.done && nextBlock !== undefined) {
        const next = Math.min(windowBytes, nextBlock.end - nextBlock.offset);
        d.nextWindow = { offset: nextBlock.offset, length: next, bytes: readWindow(nextBlock.offset, next) };
      }
      if (raw.length > 0) yield new KeyedEntryRun(d, r.bytes, r.baseOffset, raw, input.file, block.keyGroup);
    }
  } finally {
    // a consumer that stops early (or a failure) leaves the read-ahead unawaited: never an unhandled
    // rejection; into a reused buffer it is awaited, so no later read shares a buffer with it
    const settled = ahead?.bytes.catch(() => undefined);
    if (shared !== undefined && readInto !== undefined) {
      await settled;
      // a window grown for one large entry is not kept for the rest of the scan
      for (let k = 0; k < shared.windows.length; k++) if ((shared.windows[k]?.length ?? 0) > windowBytes) shared.windows[k] = undefined;
    }
  }
}

/**
 * One large Snappy-compressed block (Flink compresses each key group as one framed stream),
 * decompressed chunk by chunk into a window of about `windowBytes`; the window's complete entries are
 * one run, the unfinished tail starts the next window. Entry offsets and the file label are those of
 * the whole-block decoder (positions in the decompressed block); memory is the window, not the block.
 */
export async function* streamSnappyKeyGroupBlock(
  d: KeyedBlockDecoding,
  block: { keyGroup: number; offset: number; end: number },
  windowBytes: number,
  signal: CancelSignal | undefined,
): AsyncGenerator<KeyedEntryRun> {
  const shared = d.buffers;
  const reuse = shared !== undefined;
  const { input, header, prefixBytes } = d;
  const file = `${input.file} (Snappy block at ${input.baseOffset + block.offset})`;
  const reader = new SnappyFramedReader(input.source, {
    offset: block.offset,
    end: block.end,
    identifier: 'required',
    maxOutputBytes: Number.MAX_SAFE_INTEGER,
  });
  const cursor = createKeyGroupBlockCursor();
  let window = shared?.windows[0] !== undefined && shared.windows[0].length >= windowBytes ? shared.windows[0] : new Uint8Array(windowBytes);
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
    const raw = takeKeyedEntryRows(d);
    const consumed = readKeyGroupBlockPart(r, cursor, header.states.length, prefixBytes, raw, !ended);
    if (consumed === 0 && !cursor.done) {
      want = filled * 2; // an entry larger than the window
      continue;
    }
    want = windowBytes;
    if (raw.length > 0) yield new KeyedEntryRun(d, r.bytes, r.baseOffset, raw, file, block.keyGroup);
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
  // kept for the stream's next block unless it grew for one large entry
  if (shared !== undefined && window.length <= windowBytes) shared.windows[0] = window;
}
