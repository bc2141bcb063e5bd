/**
 * Large key-group blocks read in windows instead of whole (readCanonicalKeyedEntryRuns decides which):
 * memory follows the window, not the key-group size, for plain and Snappy-compressed blocks alike.
 */
import { ByteReader, SnappyFramedReader } from '../io';
import { throwIfCancelled, type CancelSignal } from './cancel-signal';
import { decodeRawKeyedEntries, type KeyedBlockDecoding } from './decode-raw-keyed-entries';
import type { StateEntry } from './inspection-types';
import { createKeyGroupBlockCursor, readKeyGroupBlockPart, type RawKeyedEntry } from './read-key-group-block';

/**
 * One large uncompressed block in windows: each window's complete entries become one run (decoded
 * before the next window is read); a window that holds no complete entry is doubled until it does.
 * Errors are the whole block's: the last window ends where the block ends.
 */
export async function* streamKeyGroupBlock(
  d: KeyedBlockDecoding,
  block: { keyGroup: number; offset: number; end: number },
  windowBytes: number,
  readInto: ((offset: number, length: number, target: Uint8Array) => Promise<Uint8Array>) | undefined,
  signal: CancelSignal | undefined,
): AsyncGenerator<Iterable<StateEntry>> {
  const { input, header, prefixBytes } = d;
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
    if (raw.length > 0) yield decodeRawKeyedEntries(d, raw, input.file, block.keyGroup);
  }
}

/**
 * One large Snappy-compressed block (Flink compresses each key group as one framed stream, §3.6),
 * decompressed chunk by chunk into a window of about `windowBytes`; the window's complete entries are
 * one run, the unfinished tail starts the next window. Entry offsets and the file label are those of
 * the whole-block decoder (positions in the decompressed block); memory is the window, not the block.
 */
export async function* streamSnappyKeyGroupBlock(
  d: KeyedBlockDecoding,
  block: { keyGroup: number; offset: number; end: number },
  windowBytes: number,
  reuse: boolean,
  signal: CancelSignal | undefined,
): AsyncGenerator<Iterable<StateEntry>> {
  const { input, header, prefixBytes } = d;
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
    if (raw.length > 0) yield decodeRawKeyedEntries(d, raw, file, block.keyGroup);
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

