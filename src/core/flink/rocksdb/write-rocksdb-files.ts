/**
 * Writers of RocksDB files for tests: block-based tables (data blocks with shared-prefix keys and
 * restarts, a one- or two-level index with plain or delta-encoded values, properties, range deletions,
 * footer of format version 1–5, CRC32C/xxHash/xxHash64/XXH3 checksums, no/Snappy/zlib compression)
 * and MANIFEST logs (VersionEdits in 32 KiB log blocks, records fragmented across blocks). They write
 * the layouts the readers here read, from RocksDB's table/block_based and db/log_writer.cc. A table
 * carries the properties RocksDB's table builder counts (num.entries with its range deletions,
 * num.data.blocks, raw.key.size, raw.value.size), which a test may override, and streams to a sink
 * one data block at a time (writeSstTableTo: tables of any size, for the benchmarks).
 */
import { deflateSync } from 'fflate';
import { compress as compressSnappy } from 'snappyjs';
import { computeMaskedCrc32c } from '../../io';
import { computeBlockChecksum } from './compute-block-checksum';
import { BLOCK_BASED_MAGIC } from './read-sst-footer';

export interface WrittenEntry {
  userKey: Uint8Array;
  sequence: number;
  type: number;
  value: Uint8Array;
}

export interface SstWriteOptions {
  /** entries per data block (default 16), or each block's count in turn (0: a block with no entries; past the list, the rest in one block) */
  blockEntries?: number | readonly number[];
  restartInterval?: number;
  /** 0 none, 1 Snappy, 2 zlib */
  compression?: 0 | 1 | 2;
  checksumType?: 1 | 2 | 3 | 4;
  formatVersion?: number;
  /** 0 binary search, 2 two-level (partitions of `partitionEntries` index entries); any other number is written as the property only (the index stays one level) */
  indexType?: number;
  /** an index block with no entries (the data blocks written all the same) */
  emptyIndex?: boolean;
  /** pads the file to this size with a meta block no reader asks for (a table standing in for another of a recorded size) */
  padTo?: number;
  /** properties set over the ones written (a number as a varint), or removed (undefined) */
  properties?: Record<string, number | Uint8Array | undefined>;
  partitionEntries?: number;
  deltaIndex?: boolean;
  columnFamily?: { id: number; name: string };
  rangeDeletions?: { start: Uint8Array; end: Uint8Array; sequence: number }[];
}

class Bytes {
  private buf = new Uint8Array(64);
  private n = 0;
  get length(): number {
    return this.n;
  }
  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.n + k) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }
  u8(b: number): this {
    this.room(1);
    this.buf[this.n++] = b & 0xff;
    return this;
  }
  varint(n: number | bigint): this {
    if (typeof n === 'number' && n < 2 ** 31) {
      let v = n;
      while (v >= 0x80) {
        this.u8((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      return this.u8(v);
    }
    let v = BigInt(n);
    while (v >= 0x80n) {
      this.u8(Number((v & 0x7fn) | 0x80n));
      v >>= 7n;
    }
    return this.u8(Number(v));
  }
  fixed32(n: number): this {
    for (let i = 0; i < 4; i++) this.u8((n >>> (8 * i)) & 0xff);
    return this;
  }
  fixed64(n: bigint): this {
    for (let i = 0n; i < 8n; i++) this.u8(Number((n >> (8n * i)) & 0xffn));
    return this;
  }
  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.n);
    this.n += b.length;
    return this;
  }
  slice(b: Uint8Array): this {
    return this.varint(b.length).bytes(b);
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.n);
  }
}

const utf8 = (s: string) => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

export function encodeInternalKey(e: { userKey: Uint8Array; sequence: number; type: number }): Uint8Array {
  const trailer = (BigInt(e.sequence) << 8n) | BigInt(e.type);
  return new Bytes().bytes(e.userKey).fixed64(trailer).done();
}

/** A block: entries with shared prefixes (values plain, or written by `value` for delta-encoded index values, without a length), restarts. */
function buildBlock(entries: { key: Uint8Array; value: (restart: boolean) => Uint8Array }[], restartInterval: number, withValueLength: boolean): Uint8Array {
  const b = new Bytes();
  const restarts: number[] = [];
  let prev: Uint8Array = new Uint8Array(0);
  entries.forEach((e, i) => {
    const restart = i % restartInterval === 0;
    let shared = 0;
    if (restart) restarts.push(b.length);
    else while (shared < prev.length && shared < e.key.length && prev[shared] === e.key[shared]) shared++;
    const value = e.value(restart);
    b.varint(shared).varint(e.key.length - shared);
    if (withValueLength) b.varint(value.length);
    b.bytes(e.key.subarray(shared)).bytes(value);
    prev = e.key;
  });
  if (restarts.length === 0) restarts.push(0);
  for (const r of restarts) b.fixed32(r);
  return b.fixed32(restarts.length).done();
}

export function writeSstTable(entries: Iterable<WrittenEntry>, options: SstWriteOptions = {}): Uint8Array {
  const chunks: Uint8Array[] = [];
  const size = writeSstTableTo(entries, (chunk) => chunks.push(chunk), options);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Writes the table chunk by chunk (a data block at a time) to `write`, holding one data block and the
 * index in memory (a table of any size streams to a file); returns the table's size in bytes.
 */
export function writeSstTableTo(entries: Iterable<WrittenEntry>, write: (chunk: Uint8Array) => void, options: SstWriteOptions = {}): number {
  const perBlock = options.blockEntries ?? 16;
  const restartInterval = options.restartInterval ?? 16;
  const compression = options.compression ?? 0;
  const checksumType = options.checksumType ?? 1;
  const formatVersion = options.formatVersion ?? 5;
  const delta = options.deltaIndex ?? formatVersion >= 4;
  let offset = 0;
  const writeBlock = (contents: Uint8Array, compress: boolean): { offset: number; size: number } => {
    let stored = contents;
    let type = 0;
    if (compress && compression === 1) {
      stored = compressSnappy(contents);
      type = 1;
    } else if (compress && compression === 2) {
      stored = new Bytes().varint(contents.length).bytes(deflateSync(contents)).done();
      type = 2;
    }
    const at = offset;
    const body = new Uint8Array(stored.length + 1);
    body.set(stored);
    body[stored.length] = type;
    write(body);
    write(new Bytes().fixed32(computeBlockChecksum(checksumType, body)).done());
    offset += body.length + 4;
    return { offset: at, size: stored.length };
  };
  const handleBytes = (h: { offset: number; size: number }) => new Bytes().varint(h.offset).varint(h.size).done();
  const indexBlock = (items: { key: Uint8Array; handle: { offset: number; size: number } }[]) => {
    let prev: { offset: number; size: number } | undefined;
    return buildBlock(
      items.map((it) => ({
        key: it.key,
        value: (restart: boolean) => {
          const v = !delta || restart || prev === undefined ? handleBytes(it.handle) : new Bytes().varint(zigzag(it.handle.size - prev.size)).done();
          prev = it.handle;
          return v;
        },
      })),
      1 + (delta ? 3 : 0),
      !delta,
    );
  };
  // data blocks (the properties count what was written, as RocksDB's table builder does)
  let numEntries = 0;
  let rawKeySize = 0;
  let rawValueSize = 0;
  let lastKey = encodeInternalKey({ userKey: new Uint8Array(0), sequence: 0, type: 0 });
  const index: { key: Uint8Array; handle: { offset: number; size: number } }[] = [];
  const sizes = typeof perBlock === 'number' ? undefined : perBlock;
  let chunk: { key: Uint8Array; value: () => Uint8Array }[] = [];
  const flush = () => {
    const handle = writeBlock(buildBlock(chunk, restartInterval, true), true);
    if (chunk.length > 0) lastKey = chunk[chunk.length - 1]!.key;
    index.push({ key: lastKey, handle });
    chunk = [];
  };
  const target = () => (sizes === undefined ? (perBlock as number) : (sizes[index.length] ?? Infinity));
  for (const e of entries) {
    while (target() === 0) flush();
    const key = encodeInternalKey(e);
    chunk.push({ key, value: () => e.value });
    numEntries++;
    rawKeySize += key.length;
    rawValueSize += e.value.length;
    if (chunk.length >= target()) flush();
  }
  if (chunk.length > 0) flush();
  while (sizes !== undefined && index.length < sizes.length) flush();
  // range deletions
  let rangeDel: { offset: number; size: number } | undefined;
  if (options.rangeDeletions?.length) {
    const items = options.rangeDeletions.map((t) => ({ key: encodeInternalKey({ userKey: t.start, sequence: t.sequence, type: 0xf }), value: () => t.end }));
    for (const it of items) {
      numEntries++;
      rawKeySize += it.key.length;
      rawValueSize += it.value().length;
    }
    rangeDel = writeBlock(buildBlock(items, 1, true), false);
  }
  // properties
  const props = new Map<string, Uint8Array>([
    ['rocksdb.block.based.table.index.type', new Bytes().fixed32(options.indexType ?? 0).done()],
    ['rocksdb.comparator', utf8('leveldb.BytewiseComparator')],
    ['rocksdb.index.value.is.delta.encoded', new Bytes().varint(delta ? 1 : 0).done()],
    ['rocksdb.num.data.blocks', new Bytes().varint(index.length).done()],
    ['rocksdb.num.entries', new Bytes().varint(numEntries).done()],
    ['rocksdb.num.range-deletions', new Bytes().varint(options.rangeDeletions?.length ?? 0).done()],
    ['rocksdb.raw.key.size', new Bytes().varint(rawKeySize).done()],
    ['rocksdb.raw.value.size', new Bytes().varint(rawValueSize).done()],
  ]);
  if (options.columnFamily)
    props
      .set('rocksdb.column.family.id', new Bytes().varint(options.columnFamily.id).done())
      .set('rocksdb.column.family.name', utf8(options.columnFamily.name));
  for (const [name, value] of Object.entries(options.properties ?? {})) {
    if (value === undefined) props.delete(name);
    else props.set(name, typeof value === 'number' ? new Bytes().varint(value).done() : value);
  }
  const sorted = [...props].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const properties = writeBlock(
    buildBlock(
      sorted.map(([k, v]) => ({ key: utf8(k), value: () => v })),
      1,
      true,
    ),
    false,
  );
  // index
  let indexHandle: { offset: number; size: number };
  if (options.indexType === 2) {
    const per = options.partitionEntries ?? 2;
    const top: typeof index = [];
    for (let i = 0; i < index.length; i += per) {
      const part = index.slice(i, i + per);
      top.push({ key: part[part.length - 1]!.key, handle: writeBlock(indexBlock(part), true) });
    }
    indexHandle = writeBlock(indexBlock(top), true);
  } else {
    indexHandle = writeBlock(indexBlock(options.emptyIndex ? [] : index), true);
  }
  const meta: [string, { offset: number; size: number }][] = [['rocksdb.properties', properties]];
  if (rangeDel) meta.push(['rocksdb.range_del', rangeDel]);
  const metaIndexOf = (entries: typeof meta) =>
    buildBlock(
      entries.map(([k, h]) => ({ key: utf8(k), value: () => handleBytes(h) })),
      1,
      true,
    );
  if (options.padTo !== undefined) {
    // a meta block no reader asks for, sized so that the file ends at padTo (the handle's varints depend on its size: settle it)
    let pad = 0;
    for (let i = 0; i < 8; i++) {
      const total = offset + pad + BLOCK_TRAILER + metaIndexOf([...meta, ['test.padding', { offset, size: pad }]]).length + BLOCK_TRAILER + FOOTER_SIZE;
      if (total === options.padTo) break;
      pad += options.padTo - total;
      if (pad < 0) throw new Error(`expected a table that fits in ${options.padTo} bytes, found one of ${total - pad} without padding`);
    }
    meta.push(['test.padding', writeBlock(new Uint8Array(pad), false)]);
  }
  const metaIndex = writeBlock(metaIndexOf(meta), false);
  // footer
  const footer = new Bytes().u8(checksumType).bytes(handleBytes(metaIndex)).bytes(handleBytes(indexHandle));
  while (footer.length < 41) footer.u8(0);
  footer.fixed32(formatVersion).fixed64(BLOCK_BASED_MAGIC);
  const tail = footer.done();
  write(tail);
  return offset + tail.length;
}

const BLOCK_TRAILER = 5;
/** the footer of format versions 1–5 as written here: checksum type, two handles padded to 41 bytes, version, magic */
const FOOTER_SIZE = 53;

function zigzag(n: number): bigint {
  const v = BigInt(n);
  return v >= 0n ? v << 1n : (-v << 1n) - 1n;
}

export type VersionEditField =
  | { kind: 'comparator'; name: string }
  | { kind: 'last-sequence'; value: number }
  | { kind: 'column-family'; id: number }
  | { kind: 'add-column-family'; name: string }
  | { kind: 'drop-column-family' }
  | {
      kind: 'new-file';
      level: number;
      number: number;
      size: number;
      smallest: Uint8Array;
      largest: Uint8Array;
      smallestSequence: number;
      largestSequence: number;
    }
  | { kind: 'deleted-file'; level: number; number: number }
  | { kind: 'ignorable'; tag: number; bytes: Uint8Array };

export function encodeVersionEdit(fields: readonly VersionEditField[]): Uint8Array {
  const b = new Bytes();
  for (const f of fields) {
    switch (f.kind) {
      case 'comparator':
        b.varint(1).slice(utf8(f.name));
        break;
      case 'last-sequence':
        b.varint(4).varint(f.value);
        break;
      case 'column-family':
        b.varint(200).varint(f.id);
        break;
      case 'add-column-family':
        b.varint(201).slice(utf8(f.name));
        break;
      case 'drop-column-family':
        b.varint(202);
        break;
      case 'new-file':
        b.varint(103).varint(f.level).varint(f.number).varint(f.size).slice(f.smallest).slice(f.largest).varint(f.smallestSequence).varint(f.largestSequence);
        b.varint(2).slice(Uint8Array.of(1)); // kNeedCompaction
        b.varint(1); // kTerminate
        break;
      case 'deleted-file':
        b.varint(6).varint(f.level).varint(f.number);
        break;
      case 'ignorable':
        b.varint(f.tag).slice(f.bytes);
        break;
    }
  }
  return b.done();
}

/** A log file of the records (db/log_writer.cc): 32 KiB blocks, 7-byte headers, fragments, zero trailers. */
export function writeLogFile(records: readonly Uint8Array[], blockSize = 32768): Uint8Array {
  const out = new Bytes();
  for (const r of records) {
    let left = r;
    let first = true;
    do {
      const blockLeft = blockSize - (out.length % blockSize);
      if (blockLeft < 7) {
        for (let i = 0; i < blockLeft; i++) out.u8(0);
        continue;
      }
      const avail = blockLeft - 7;
      const n = Math.min(avail, left.length);
      const end = n === left.length;
      const type = first && end ? 1 : first ? 2 : end ? 4 : 3;
      const payload = left.subarray(0, n);
      out
        .fixed32(computeMaskedCrc32c(Uint8Array.from([type, ...payload])))
        .u8(n & 0xff)
        .u8(n >>> 8)
        .u8(type)
        .bytes(payload);
      left = left.subarray(n);
      first = false;
    } while (left.length > 0);
  }
  return out.done();
}
