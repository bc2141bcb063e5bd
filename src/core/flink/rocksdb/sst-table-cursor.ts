/**
 * A cursor over one table's data blocks that allocates nothing per entry: the current entry's internal
 * key is rebuilt in place in a buffer of the cursor (two buffers, swapped, so each new key is checked
 * against the one before it), its user key, sequence number and type read from it where it stands, and
 * its value is the decompressed block plus bounds. `next()` is synchronous within a block and returns
 * NEED_BLOCK when the block is used up; `loadBlock()` (the only await: once per data block) reads the
 * next one. What the cursor exposes is valid until its next `next()` or `loadBlock()`.
 */
import { DecodeError } from '../../io';
import { readBlockLayout } from './decode-sst-block-entries';
import { RocksDbCursor } from './rocksdb-cursor';
import type { SstBlock } from './read-sst-block';

/** `next()`: an entry is current */
export const ENTRY = 1;
/** `next()`: the table has no more entries (in the range) */
export const END = 0;
/** `next()`: the block is used up; `await loadBlock()` and call `next()` again */
export const NEED_BLOCK = -1;

/** What a read went through: data blocks, entries, their internal keys' and values' bytes. */
export interface ReadTally {
  blocks: number;
  entries: number;
  keyBytes: number;
  valueBytes: number;
}

export interface CursorBlocks {
  /** the data blocks in index order, decompressed (undefined once there are no more) */
  next(): Promise<SstBlock | undefined>;
  /** called once when a read ends after every block (none passed over by the range), with what it went through */
  finished(tally: ReadTally, stoppedEarly: boolean): void;
}

export class SstTableCursor {
  /** the current internal key: key[0, userKeyLength) is the user key, then the 8-byte trailer */
  key = new Uint8Array(64);
  keyLength = 0;
  userKeyLength = 0;
  sequence = 0;
  type = 0;
  /** the current value: block[valueStart, valueEnd) */
  block: Uint8Array = new Uint8Array(0);
  valueStart = 0;
  valueEnd = 0;
  /** the current block's offset in the file, whether its bytes are the stored ones (offsets inside are file offsets), the current key's offset in the block */
  blockOffset = 0;
  stored = false;
  keyAt = 0;
  /** a valid entry is current (after `next()` returned ENTRY) */
  valid = false;

  private prev = new Uint8Array(64);
  private entriesEnd = 0;
  private restarts: number[] = [];
  private restart = 0;
  private ce: RocksDbCursor | undefined;
  private done = false;
  private readonly tally: ReadTally = { blocks: 0, entries: 0, keyBytes: 0, valueBytes: 0 };

  constructor(
    readonly file: string,
    private readonly blocks: CursorBlocks,
    /** user keys from `from` (inclusive) to `to` (exclusive) */
    private readonly from: Uint8Array | undefined,
    private readonly to: Uint8Array | undefined,
    /** every key's sequence number (an ingested file's global sequence number) */
    private readonly globalSequence: number | undefined,
  ) {}

  /** the value's absolute offset in the file when the block is stored uncompressed, else the block's offset */
  get valueOffset(): number {
    return this.stored ? this.blockOffset + this.valueStart : this.blockOffset;
  }

  /** the user key's absolute offset likewise */
  get keyOffset(): number {
    return this.stored ? this.blockOffset + this.keyAt : this.blockOffset;
  }

  /** Reads the next data block; false when there is none (the cursor is then at its end). */
  async loadBlock(): Promise<boolean> {
    if (this.done) return false;
    const block = await this.blocks.next();
    if (block === undefined) {
      this.finish(false);
      return false;
    }
    this.tally.blocks++;
    const c = new RocksDbCursor(block.bytes, this.file, block.offset);
    const layout = readBlockLayout(c, 'data block');
    this.block = block.bytes;
    this.blockOffset = block.offset;
    this.stored = block.stored;
    this.entriesEnd = layout.entriesEnd;
    this.restarts = layout.restarts;
    this.restart = 0;
    this.ce = new RocksDbCursor(block.bytes, this.file, block.offset, 0, layout.entriesEnd);
    return true;
  }

  private finish(stoppedEarly: boolean): void {
    this.done = true;
    this.valid = false;
    this.blocks.finished(this.tally, stoppedEarly);
  }

  /** Moves to the next entry: ENTRY, END, or NEED_BLOCK (await `loadBlock()`, then call again). */
  next(): number {
    for (;;) {
      if (this.done) return END;
      const ce = this.ce;
      if (ce === undefined || ce.pos >= this.entriesEnd) {
        this.valid = false;
        return NEED_BLOCK;
      }
      this.readEntry(ce);
      const from = this.from;
      if (from !== undefined && compareKeyTo(this.key, this.userKeyLength, from) < 0) continue;
      const to = this.to;
      if (to !== undefined && compareKeyTo(this.key, this.userKeyLength, to) >= 0) {
        this.finish(true);
        return END;
      }
      this.valid = true;
      return ENTRY;
    }
  }

  /** Parses the entry at the cursor: its key rebuilt into the spare buffer (then swapped in), checked to follow the one before. */
  private readEntry(ce: RocksDbCursor): void {
    const at = ce.pos;
    const restarts = this.restarts;
    const isRestart = this.restart < restarts.length && restarts[this.restart] === at;
    if (isRestart) this.restart++;
    const bytes = this.block;
    // single-byte varints read directly (the usual case), longer ones through the checked reader
    let shared: number;
    let unshared: number;
    let valueLength: number;
    if (at + 3 <= this.entriesEnd && bytes[at]! < 0x80 && bytes[at + 1]! < 0x80 && bytes[at + 2]! < 0x80) {
      shared = bytes[at]!;
      unshared = bytes[at + 1]!;
      valueLength = bytes[at + 2]!;
      ce.pos = at + 3;
    } else {
      shared = ce.readVarint32('data block entry shared key length');
      unshared = ce.readVarint32('data block entry key length');
      valueLength = ce.readVarint32('data block entry value length');
    }
    const old = this.key;
    const oldLength = this.keyLength;
    if (isRestart && shared !== 0) throw ce.error('invalid-value', `expected a data block entry at a restart point to share no key bytes, found ${shared}`, at);
    if (shared > oldLength)
      throw ce.error('invalid-value', `expected a data block entry to share at most ${oldLength} key bytes with the one before, found ${shared}`, at);
    if (ce.pos + unshared > this.entriesEnd)
      throw ce.error('truncated', `expected ${unshared} bytes of data block entry key, found ${this.entriesEnd - ce.pos}`);
    const length = shared + unshared;
    let key = this.prev;
    if (key.length < length) key = new Uint8Array(Math.max(length, key.length * 2));
    for (let i = 0; i < shared; i++) key[i] = old[i]!;
    const src = ce.pos;
    if (unshared <= 32) for (let i = 0; i < unshared; i++) key[shared + i] = bytes[src + i]!;
    else key.set(bytes.subarray(src, src + unshared), shared);
    this.keyAt = src - shared;
    ce.pos = src + unshared;
    if (ce.pos + valueLength > this.entriesEnd)
      throw ce.error('truncated', `expected ${valueLength} bytes of data block entry value, found ${this.entriesEnd - ce.pos}`);
    this.valueStart = ce.pos;
    this.valueEnd = ce.pos + valueLength;
    ce.pos += valueLength;
    if (length < 8)
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected a data block entry key of at least 8 bytes (user key, sequence number and type), found ${length} bytes`,
        file: this.file,
        offset: this.blockOffset,
      });
    const n = length - 8;
    const type = key[n]!;
    const lo = (key[n + 1]! | (key[n + 2]! << 8) | (key[n + 3]! << 16)) >>> 0;
    const hi = (key[n + 4]! | (key[n + 5]! << 8) | (key[n + 6]! << 16) | (key[n + 7]! << 24)) >>> 0;
    const sequence = this.globalSequence ?? hi * 2 ** 24 + lo;
    // the key after the one before in internal-key order (user key ascending, then sequence descending): the shared prefix is equal
    if (this.tally.entries > 0) {
      const c = compareUserKeys(key, n, old, this.userKeyLength, Math.min(shared, n, this.userKeyLength)) || this.sequence - sequence;
      if (c < 0)
        throw new DecodeError({
          code: 'invalid-value',
          detail: 'expected the entries of an SST file in ascending internal-key order, found a key after a larger one',
          file: this.file,
          offset: this.keyOffset,
        });
    }
    this.prev = old;
    this.key = key;
    this.keyLength = length;
    this.userKeyLength = n;
    this.type = type;
    this.sequence = sequence;
    this.tally.entries++;
    this.tally.keyBytes += length;
    this.tally.valueBytes += valueLength;
  }

  /** the current user key as a view (valid until the cursor moves) */
  userKey(): Uint8Array {
    return this.key.subarray(0, this.userKeyLength);
  }

  /** the current value as a view (valid until the cursor moves, and while the block is not reused) */
  value(): Uint8Array {
    return this.block.subarray(this.valueStart, this.valueEnd);
  }
}

/** Bytewise comparison of a[0, aLength) and b[0, bLength), whose first `from` bytes are known equal. */
export function compareUserKeys(a: Uint8Array, aLength: number, b: Uint8Array, bLength: number, from = 0): number {
  const n = aLength < bLength ? aLength : bLength;
  for (let i = from; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return aLength - bLength;
}

function compareKeyTo(key: Uint8Array, length: number, bound: Uint8Array): number {
  return compareUserKeys(key, length, bound, bound.length);
}
