/**
 * Writers of RocksDB files for tests: block-based tables (data blocks with shared-prefix keys and
 * restarts, a one- or two-level index with plain or delta-encoded values, properties, range deletions,
 * footer of format version 1–5, CRC32C/xxHash/xxHash64/XXH3 checksums, no/Snappy/zlib compression)
 * and MANIFEST logs (VersionEdits in 32 KiB log blocks, records fragmented across blocks). They write
 * the layouts the readers here read, from RocksDB's table/block_based and db/log_writer.cc.
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
  /** entries per data block (default 16) */
  blockEntries?: number;
  restartInterval?: number;
  /** 0 none, 1 Snappy, 2 zlib */
  compression?: 0 | 1 | 2;
  checksumType?: 1 | 2 | 3 | 4;
  formatVersion?: number;
  /** 0 binary search, 2 two-level (partitions of `partitionEntries` index entries) */
  indexType?: 0 | 2;
  partitionEntries?: number;
  deltaIndex?: boolean;
  columnFamily?: { id: number; name: string };
  rangeDeletions?: { start: Uint8Array; end: Uint8Array; sequence: number }[];
}

class Bytes {
  private parts: number[] = [];
  get length(): number {
    return this.parts.length;
  }
  u8(b: number): this {
    this.parts.push(b & 0xff);
    return this;
  }
  varint(n: number | bigint): this {
    let v = BigInt(n);
    while (v >= 0x80n) {
      this.parts.push(Number((v & 0x7fn) | 0x80n));
      v >>= 7n;
    }
    this.parts.push(Number(v));
    return this;
  }
  fixed32(n: number): this {
    for (let i = 0; i < 4; i++) this.parts.push((n >>> (8 * i)) & 0xff);
    return this;
  }
  fixed64(n: bigint): this {
    for (let i = 0n; i < 8n; i++) this.parts.push(Number((n >> (8n * i)) & 0xffn));
    return this;
  }
  bytes(b: Uint8Array): this {
    for (const x of b) this.parts.push(x);
    return this;
  }
  slice(b: Uint8Array): this {
    return this.varint(b.length).bytes(b);
  }
  done(): Uint8Array {
    return Uint8Array.from(this.parts);
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

export function writeSstTable(entries: readonly WrittenEntry[], options: SstWriteOptions = {}): Uint8Array {
  const perBlock = options.blockEntries ?? 16;
  const restartInterval = options.restartInterval ?? 16;
  const compression = options.compression ?? 0;
  const checksumType = options.checksumType ?? 1;
  const formatVersion = options.formatVersion ?? 5;
  const delta = options.deltaIndex ?? formatVersion >= 4;
  const out = new Bytes();
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
    const offset = out.length;
    const body = Uint8Array.from([...stored, type]);
    out.bytes(body).fixed32(computeBlockChecksum(checksumType, body));
    return { offset, size: stored.length };
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
  // data blocks
  const index: { key: Uint8Array; handle: { offset: number; size: number } }[] = [];
  for (let i = 0; i < entries.length; i += perBlock) {
    const chunk = entries.slice(i, i + perBlock).map((e) => ({ key: encodeInternalKey(e), value: () => e.value }));
    const handle = writeBlock(buildBlock(chunk, restartInterval, true), true);
    index.push({ key: chunk[chunk.length - 1]!.key, handle });
  }
  // range deletions
  let rangeDel: { offset: number; size: number } | undefined;
  if (options.rangeDeletions?.length) {
    const items = options.rangeDeletions.map((t) => ({ key: encodeInternalKey({ userKey: t.start, sequence: t.sequence, type: 0xf }), value: () => t.end }));
    rangeDel = writeBlock(buildBlock(items, 1, true), false);
  }
  // properties
  const props: [string, Uint8Array][] = [
    ['rocksdb.block.based.table.index.type', new Bytes().fixed32(options.indexType ?? 0).done()],
    ['rocksdb.comparator', utf8('leveldb.BytewiseComparator')],
    ['rocksdb.index.value.is.delta.encoded', new Bytes().varint(delta ? 1 : 0).done()],
    ['rocksdb.num.entries', new Bytes().varint(entries.length).done()],
    ['rocksdb.num.range-deletions', new Bytes().varint(options.rangeDeletions?.length ?? 0).done()],
  ];
  if (options.columnFamily) props.push(['rocksdb.column.family.id', new Bytes().varint(options.columnFamily.id).done()], ['rocksdb.column.family.name', utf8(options.columnFamily.name)]);
  props.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const properties = writeBlock(buildBlock(props.map(([k, v]) => ({ key: utf8(k), value: () => v })), 1, true), false);
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
    indexHandle = writeBlock(indexBlock(index), true);
  }
  const meta: [string, { offset: number; size: number }][] = [['rocksdb.properties', properties]];
  if (rangeDel) meta.push(['rocksdb.range_del', rangeDel]);
  const metaIndex = writeBlock(buildBlock(meta.map(([k, h]) => ({ key: utf8(k), value: () => handleBytes(h) })), 1, true), false);
  // footer
  const footer = new Bytes().u8(checksumType).bytes(handleBytes(metaIndex)).bytes(handleBytes(indexHandle));
  while (footer.length < 41) footer.u8(0);
  footer.fixed32(formatVersion).fixed64(BLOCK_BASED_MAGIC);
  out.bytes(footer.done());
  return out.done();
}

function zigzag(n: number): bigint {
  const v = BigInt(n);
  return v >= 0n ? v << 1n : ((-v) << 1n) - 1n;
}

export type VersionEditField =
  | { kind: 'comparator'; name: string }
  | { kind: 'last-sequence'; value: number }
  | { kind: 'column-family'; id: number }
  | { kind: 'add-column-family'; name: string }
  | { kind: 'drop-column-family' }
  | { kind: 'new-file'; level: number; number: number; size: number; smallest: Uint8Array; largest: Uint8Array; smallestSequence: number; largestSequence: number }
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
      out.fixed32(computeMaskedCrc32c(Uint8Array.from([type, ...payload]))).u8(n & 0xff).u8(n >>> 8).u8(type).bytes(payload);
      left = left.subarray(n);
      first = false;
    } while (left.length > 0);
  }
  return out.done();
}
