/**
 * The entries of one decompressed block (table/block_based/block.cc, block_builder.cc): entries of
 * shared key prefix length, unshared length and value length (varint32 each), the key's unshared
 * bytes and the value; then the restart offsets (fixed32 each) and their count (fixed32, whose top bit
 * flags a data-block hash index when the block is at most 64 KiB: its buckets and bucket count sit
 * between the restarts and the count). Index blocks of format version 4+ may delta-encode their
 * values (no value length; block handles as sizes relative to the entry before).
 */
import { RocksDbCursor } from './rocksdb-cursor';
import type { BlockHandle } from './read-sst-footer';
import { BLOCK_TRAILER_SIZE } from './read-sst-block';

export interface BlockLayout {
  /** where the entries end (the restart array begins) */
  entriesEnd: number;
  restarts: number[];
}

const MAX_BLOCK_SIZE_WITH_HASH_INDEX = 1 << 16;

/** The restart array of a block, checked against its size. */
export function readBlockLayout(c: RocksDbCursor, what: string): BlockLayout {
  const size = c.end;
  if (size < 4) throw c.error('truncated', `expected a ${what} of at least 4 bytes (its restart count), found ${size}`, 0);
  const footer = new RocksDbCursor(c.bytes, c.file, c.base, size - 4, size).readFixed32(`${what} restart count`);
  let numRestarts = footer;
  let mapBytes = 0;
  if (size <= MAX_BLOCK_SIZE_WITH_HASH_INDEX && footer >= 0x80000000) {
    numRestarts = footer & 0x7fffffff;
    if (size < 6) throw c.error('truncated', `expected a ${what} with a hash index bucket count, found ${size} bytes`, 0);
    const buckets = c.bytes[size - 6]! | (c.bytes[size - 5]! << 8);
    mapBytes = 2 + buckets;
  }
  const restartsStart = size - 4 - mapBytes - 4 * numRestarts;
  if (numRestarts === 0 || restartsStart < 0) {
    throw c.error('invalid-value', `expected a ${what} restart count between 1 and ${Math.floor((size - 4 - mapBytes) / 4)}, found ${numRestarts}`, size - 4);
  }
  const r = new RocksDbCursor(c.bytes, c.file, c.base, restartsStart, size - 4 - mapBytes);
  const restarts: number[] = [];
  for (let i = 0; i < numRestarts; i++) {
    const at = r.pos;
    const off = r.readFixed32(`${what} restart offset`);
    if (off > restartsStart || (i > 0 && off < restarts[i - 1]!))
      throw r.error('invalid-value', `expected ${what} restart offset #${i} between ${restarts[i - 1] ?? 0} and ${restartsStart}, found ${off}`, at);
    restarts.push(off);
  }
  return { entriesEnd: restartsStart, restarts };
}

export interface BlockEntry {
  key: Uint8Array;
  /**
   * where the key would start in the block were it stored whole: its unshared bytes' offset minus the
   * length of the prefix it shares with the key before (so offsets into the unshared bytes are exact)
   */
  keyAt: number;
  /** the value's bytes (a view into the block) */
  value: Uint8Array;
  /** offset of the value in the block */
  valueAt: number;
}

/** Every entry of a data or meta block, keys rebuilt from their shared prefixes. */
export function* iterateBlockEntries(bytes: Uint8Array, file: string, base: number, what: string): Generator<BlockEntry> {
  const c = new RocksDbCursor(bytes, file, base);
  const layout = readBlockLayout(c, what);
  const ce = new RocksDbCursor(bytes, file, base, 0, layout.entriesEnd);
  let key: Uint8Array = new Uint8Array(0);
  let restart = 0;
  while (ce.pos < layout.entriesEnd) {
    const at = ce.pos;
    const isRestart = restart < layout.restarts.length && layout.restarts[restart] === at;
    if (isRestart) restart++;
    const shared = ce.readVarint32(`${what} entry shared key length`);
    const unshared = ce.readVarint32(`${what} entry key length`);
    const valueLength = ce.readVarint32(`${what} entry value length`);
    const keyAt = ce.pos - shared;
    key = rebuildKey(ce, key, shared, unshared, isRestart, what, at);
    const valueAt = ce.pos;
    const value = ce.readBytes(valueLength, `${what} entry value`);
    yield { key, keyAt, value, valueAt };
  }
}

export interface IndexEntry {
  key: Uint8Array;
  handle: BlockHandle;
}

/**
 * Every entry of an index block (or partition): its separator key and the block handle it points
 * to. `deltaValues`: format version 4+ index blocks whose values are delta encoded; `firstKey`: index
 * type kBinarySearchWithFirstKey (each value also holds the block's first key). With `seek`, the
 * restart points are binary searched for the first entry that may reach the target, and entries
 * whose key (at least their block's last key) lies below it are passed over.
 */
export function* iterateIndexEntries(
  bytes: Uint8Array,
  file: string,
  base: number,
  what: string,
  deltaValues: boolean,
  firstKey: boolean,
  seek?: IndexSeek,
): Generator<IndexEntry> {
  const layout = readBlockLayout(new RocksDbCursor(bytes, file, base), what);
  let restart = seek === undefined ? 0 : findRestartBefore(bytes, file, base, layout, what, deltaValues, seek);
  if (seek !== undefined && restart > 0) seek.skipped = true;
  const ce = new RocksDbCursor(bytes, file, base, layout.restarts[restart] ?? 0, layout.entriesEnd);
  let key: Uint8Array = new Uint8Array(0);
  let prev: BlockHandle | undefined;
  while (ce.pos < layout.entriesEnd) {
    const at = ce.pos;
    const isRestart = restart < layout.restarts.length && layout.restarts[restart] === at;
    if (isRestart) restart++;
    const shared = ce.readVarint32(`${what} entry shared key length`);
    const unshared = ce.readVarint32(`${what} entry key length`);
    const valueLength = deltaValues ? 0 : ce.readVarint32(`${what} entry value length`);
    key = rebuildKey(ce, key, shared, unshared, isRestart, what, at);
    const valueEnd = ce.pos + valueLength;
    let handle: BlockHandle;
    if (!deltaValues || isRestart || prev === undefined) {
      handle = { offset: ce.readVarint64(`${what} block offset`), size: ce.readVarint64(`${what} block size`) };
    } else {
      const sizeAt = ce.pos;
      const size = prev.size + ce.readVarSigned64(`${what} block size delta`);
      if (size < 0) throw ce.error('invalid-value', `expected a non-negative block size in the ${what}, found ${size}`, sizeAt);
      handle = { offset: prev.offset + prev.size + BLOCK_TRAILER_SIZE, size };
    }
    if (firstKey) ce.readSlice(`${what} first key`);
    if (!deltaValues) {
      if (ce.pos > valueEnd) throw ce.error('invalid-value', `expected a ${what} value of ${valueLength} bytes, found a block handle running past it`, at);
      ce.pos = valueEnd;
    }
    prev = handle;
    if (seek !== undefined && seek.compare(key) < 0) {
      seek.skipped = true;
      continue;
    }
    yield { key, handle };
  }
}

/** Where an index read starts: `compare(indexKey)` is negative while the index key lies below the target. */
export interface IndexSeek {
  compare(indexKey: Uint8Array): number;
  /** set once an entry of the index was passed over (the read then covers part of the table only) */
  skipped?: boolean;
}

/** The last restart point whose key lies below the target (0 when none does). */
function findRestartBefore(bytes: Uint8Array, file: string, base: number, layout: BlockLayout, what: string, deltaValues: boolean, seek: IndexSeek): number {
  let lo = 0;
  let hi = layout.restarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    const c = new RocksDbCursor(bytes, file, base, layout.restarts[mid]!, layout.entriesEnd);
    const at = c.pos;
    const shared = c.readVarint32(`${what} entry shared key length`);
    const unshared = c.readVarint32(`${what} entry key length`);
    if (!deltaValues) c.readVarint32(`${what} entry value length`);
    if (shared !== 0) throw c.error('invalid-value', `expected a ${what} entry at a restart point to share no key bytes, found ${shared}`, at);
    if (seek.compare(c.readBytes(unshared, `${what} entry key`)) < 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function rebuildKey(c: RocksDbCursor, prev: Uint8Array, shared: number, unshared: number, isRestart: boolean, what: string, at: number): Uint8Array {
  if (isRestart && shared !== 0) throw c.error('invalid-value', `expected a ${what} entry at a restart point to share no key bytes, found ${shared}`, at);
  if (shared > prev.length)
    throw c.error('invalid-value', `expected a ${what} entry to share at most ${prev.length} key bytes with the one before, found ${shared}`, at);
  const rest = c.readBytes(unshared, `${what} entry key`);
  const key = new Uint8Array(shared + unshared);
  key.set(prev.subarray(0, shared), 0);
  key.set(rest, shared);
  return key;
}
