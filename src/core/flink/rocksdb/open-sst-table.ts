/**
 * Opens one block-based table (an SST file) through a byte source: footer, meta-index, properties
 * (column family, comparator, compression, entry count, index layout) and range deletions; then
 * `entries()` walks its data blocks in key order through the index (a two-level index through its
 * partitions), one block in memory at a time. Filter blocks are never read.
 */
import { DecodeError, type ByteSource } from '../../io';
import { compareBytes, decodeUtf8, RocksDbCursor } from './rocksdb-cursor';
import { iterateBlockEntries, iterateIndexEntries, type IndexSeek } from './decode-sst-block-entries';
import { readBlockHandle, readSstFooter, NEW_FOOTER_SIZE, type BlockHandle, type SstFooter } from './read-sst-footer';
import { BLOCK_TRAILER_SIZE, checkBlockHandle, decodeSstBlock, readSstBlock, type BlockScratch, type SstBlock } from './read-sst-block';
import { ENTRY, END, SstTableCursor, type CursorBlocks, type ReadTally } from './sst-table-cursor';
import { readSstProperties, type SstProperties } from './read-sst-properties';

/** Value types of internal keys (db/dbformat.h) read here. */
export const TYPE_DELETION = 0x0;
export const TYPE_VALUE = 0x1;
export const TYPE_MERGE = 0x2;
export const TYPE_SINGLE_DELETION = 0x7;
export const TYPE_RANGE_DELETION = 0xf;
export const TYPE_DELETION_WITH_TIMESTAMP = 0x14;
const VALUE_TYPE_NAMES: Record<number, string> = { 0x11: 'blob index', 0x16: 'wide-column entity', 0x18: 'value with preferred sequence number' };

export interface InternalEntry {
  userKey: Uint8Array;
  /** the sequence number (below 2^56) */
  sequence: number;
  type: number;
  value: Uint8Array;
  /** the value's absolute offset in `file` when the block is stored uncompressed, else the data block's offset */
  valueOffset: number;
  /** the user key's absolute offset likewise (uncompressed: where its unshared bytes start, less the prefix it shares with the key before) */
  keyOffset: number;
  file: string;
}

export interface RangeTombstone {
  start: Uint8Array;
  end: Uint8Array;
  sequence: number;
}

export interface UserKeyRange {
  from?: Uint8Array;
  to?: Uint8Array;
}

/** The footer with the index handle found (in the footer, or from format version 6 on in the meta-index). */
export type TableFooter = SstFooter & { index: BlockHandle };

export interface SstTable {
  file: string;
  footer: TableFooter;
  properties: SstProperties;
  rangeTombstones: RangeTombstone[];
  /** the table's internal entries in internal-key order; with a range, those whose user key is at least `from` and below `to` (the index is searched for the first block) */
  entries(range?: UserKeyRange): AsyncGenerator<InternalEntry>;
  /** the same entries, one array per data block (what the merge reads: no await per entry) */
  batches(range?: UserKeyRange): AsyncGenerator<InternalEntry[]>;
  /**
   * The batches as the live database sees them, given the file's largest sequence number in the
   * MANIFEST: an ingested (external, version 2+) file's keys all take its global sequence number (the
   * property, else that largest sequence number), as RocksDB's table reader assigns it.
   */
  liveBatches(largestSequence: number, range?: UserKeyRange): AsyncGenerator<InternalEntry[]>;
  /** a cursor over the entries (nothing allocated per entry: see SstTableCursor) */
  cursor(range?: UserKeyRange, options?: CursorOptions): SstTableCursor;
  /** the cursor as the live database sees the table (as liveBatches) */
  liveCursor(largestSequence: number, range?: UserKeyRange, options?: CursorOptions): SstTableCursor;
  /** the range tombstones as the live database sees them (an ingested file's take its global sequence number) */
  liveTombstones(largestSequence: number): RangeTombstone[];
}

const BYTEWISE = 'leveldb.BytewiseComparator';

/** Index types (BlockBasedTableOptions::IndexType, the property rocksdb.block.based.table.index.type) and whether they are read here. */
const INDEX_TYPES: Record<number, { name: string; read: boolean }> = {
  0: { name: 'binary search (kBinarySearch)', read: true },
  1: { name: 'hash search (kHashSearch)', read: false },
  2: { name: 'two-level partitioned (kTwoLevelIndexSearch)', read: true },
  3: { name: 'binary search with first key (kBinarySearchWithFirstKey)', read: true },
};

/** A size the table file must have, and who records it ("MANIFEST-000004", "_metadata's state handle"). */
export interface ExpectedTableSize {
  size: number;
  by: string;
}

export interface SstOpenOptions {
  /** checked once the table's footer, meta-index and properties are read (a table that does not open says why first) */
  expectedSizes?: readonly ExpectedTableSize[];
}

export async function openSstTable(source: ByteSource, file: string, options: SstOpenOptions = {}): Promise<SstTable> {
  const tailLength = Math.min(NEW_FOOTER_SIZE, source.size);
  const read = readSstFooter(await source.read(source.size - tailLength, tailLength), file, source.size);
  const metaIndex = await readSstBlock(source, file, read, read.metaIndex, 'meta-index block');
  const meta = new Map<string, BlockHandle>();
  for (const e of iterateBlockEntries(metaIndex.bytes, file, metaIndex.offset, 'meta-index block')) {
    const v = new RocksDbCursor(metaIndex.bytes, file, metaIndex.offset, e.valueAt, e.valueAt + e.value.length);
    meta.set(decodeUtf8(e.key), readBlockHandle(v, 'meta block handle'));
  }
  // format version 6+: the meta-index names the index block
  const index = read.index ?? meta.get('rocksdb.index');
  if (!index) {
    throw new DecodeError({
      code: 'invalid-value',
      detail: `expected the meta-index of a format version ${read.formatVersion} table to name its index block (rocksdb.index), found ${meta.size === 0 ? 'no entries' : [...meta.keys()].join(', ')}`,
      file,
      offset: read.metaIndex.offset,
    });
  }
  const footer: TableFooter = { ...read, index };
  const propsHandle = meta.get('rocksdb.properties');
  const properties = propsHandle
    ? await readSstProperties(source, file, footer, propsHandle)
    : { indexKeyIsUserKey: false, indexValueIsDeltaEncoded: false, indexType: 0, at: {} };
  const indexType = INDEX_TYPES[properties.indexType];
  if (indexType === undefined || !indexType.read) {
    const found =
      indexType === undefined
        ? `index type ${properties.indexType}, which RocksDB does not know either (its reader fails with "Unrecognized index type: ${properties.indexType}")`
        : `index type ${properties.indexType}, a ${indexType.name} index, which is not read here`;
    throw new DecodeError({
      code: indexType === undefined ? 'invalid-value' : 'unsupported-format',
      detail: `expected a table with a binary search (0), two-level partitioned (2) or binary search with first key (3) index (its property rocksdb.block.based.table.index.type), found ${found}`,
      file,
      offset: properties.at['rocksdb.block.based.table.index.type'] ?? propsHandle?.offset,
    });
  }
  if (properties.comparator !== undefined && properties.comparator !== BYTEWISE) {
    throw new DecodeError({
      code: 'unsupported-format',
      detail: `expected an SST file ordered by ${BYTEWISE} (as Flink writes them), found comparator ${properties.comparator}`,
      file,
      offset: propsHandle?.offset,
    });
  }
  const dict = meta.get('rocksdb.compression_dict');
  if (dict && dict.size > 0) {
    throw new DecodeError({
      code: 'unsupported-format',
      detail: `expected blocks compressed without a dictionary, found a ${dict.size}-byte compression dictionary: dictionary compression is not read here`,
      file,
      offset: dict.offset,
    });
  }
  const rangeDel = meta.get('rocksdb.range_del');
  const rangeTombstones: RangeTombstone[] = [];
  const rangeDeletionBytes = { keys: 0, values: 0 };
  if (rangeDel) {
    const block = await readSstBlock(source, file, footer, rangeDel, 'range deletion block');
    for (const e of iterateBlockEntries(block.bytes, file, block.offset, 'range deletion block')) {
      const k = splitInternalKey(e.key, file, block.offset, 'range deletion');
      rangeTombstones.push({ start: k.userKey, end: e.value.slice(), sequence: k.sequence });
      rangeDeletionBytes.keys += e.key.length;
      rangeDeletionBytes.values += e.value.length;
    }
  }
  checkTableSize(source, file, options.expectedSizes ?? []);
  const table: TableRead = { source, file, footer, props: properties, rangeDeletions: rangeTombstones.length, rangeDeletionBytes };
  return {
    file,
    footer,
    properties,
    rangeTombstones,
    entries: (range?: UserKeyRange) => flattenBatches(cursorBatches(tableCursor(table, range, undefined))),
    batches: (range?: UserKeyRange) => cursorBatches(tableCursor(table, range, undefined)),
    liveBatches: (largestSequence: number, range?: UserKeyRange) => cursorBatches(tableCursor(table, range, globalSequenceOf(properties, largestSequence))),
    cursor: (range?: UserKeyRange, options?: CursorOptions) => tableCursor(table, range, undefined, options),
    liveCursor: (largestSequence: number, range?: UserKeyRange, options?: CursorOptions) =>
      tableCursor(table, range, globalSequenceOf(properties, largestSequence), options),
    liveTombstones(largestSequence: number) {
      const global = globalSequenceOf(properties, largestSequence);
      return global === undefined ? rangeTombstones : rangeTombstones.map((t) => ({ ...t, sequence: global }));
    },
  };
}

function globalSequenceOf(props: SstProperties, largestSequence: number): number | undefined {
  return (props.externalFileVersion ?? 0) < 2 ? undefined : props.externalGlobalSequence || largestSequence;
}

async function* flattenBatches(batches: AsyncGenerator<InternalEntry[]>): AsyncGenerator<InternalEntry> {
  for await (const b of batches) yield* b;
}

/** Consecutive data blocks are read together, in windows that grow from 64 KiB to 1 MiB (few reads, HTTP ranges included; memory bounded per file). */
const FIRST_WINDOW = 64 * 1024;
const MAX_WINDOW = 1024 * 1024;

/** What a read of the table needs, and what it checks its count against when it ends. */
interface TableRead {
  source: ByteSource;
  file: string;
  footer: TableFooter;
  props: SstProperties;
  rangeDeletions: number;
  rangeDeletionBytes: { keys: number; values: number };
}

/** How a cursor reads: blocks decompressed into one reused buffer (values then valid only until the cursor moves to the next block), an ingested file's global sequence number. */
export interface CursorOptions {
  reuseBlocks?: boolean;
}

/** The table's data blocks in index order (from the first that may hold `from`), read in windows of consecutive blocks. */
function tableBlocks(table: TableRead, range: UserKeyRange | undefined, reuse: boolean): CursorBlocks {
  const { source, file, footer, props } = table;
  const delta = props.indexValueIsDeltaEncoded && footer.formatVersion >= 4;
  const firstKey = props.indexType === 3;
  const from = range?.from;
  // index keys are internal keys, or user keys when the table says so (format version 3+)
  const seek: IndexSeek | undefined =
    from === undefined
      ? undefined
      : { compare: (k: Uint8Array) => compareBytes(props.indexKeyIsUserKey || k.length < 8 ? k : k.subarray(0, k.length - 8), from) };
  const scratch: BlockScratch | undefined = reuse ? { buffer: new Uint8Array(0) } : undefined;
  let indexOffset = footer.index.offset;
  const blocks = async function* (): AsyncGenerator<SstBlock> {
    const index = await readSstBlock(source, file, footer, footer.index, 'index block');
    indexOffset = index.offset;
    let window = FIRST_WINDOW;
    const run = async function* (entries: Iterator<{ handle: BlockHandle }>): AsyncGenerator<SstBlock> {
      let next = entries.next();
      while (!next.done) {
        // the blocks that follow each other in the file, up to the window
        const group: BlockHandle[] = [next.value.handle];
        checkBlockHandle(source, file, next.value.handle, 'data block');
        let end = next.value.handle.offset + next.value.handle.size + BLOCK_TRAILER_SIZE;
        next = entries.next();
        while (!next.done && next.value.handle.offset === end && end + next.value.handle.size + BLOCK_TRAILER_SIZE - group[0]!.offset <= window) {
          checkBlockHandle(source, file, next.value.handle, 'data block');
          group.push(next.value.handle);
          end += next.value.handle.size + BLOCK_TRAILER_SIZE;
          next = entries.next();
        }
        window = Math.min(MAX_WINDOW, window * 2);
        const start = group[0]!.offset;
        const bytes = await source.read(start, end - start);
        for (const h of group)
          yield decodeSstBlock(bytes.subarray(h.offset - start, h.offset - start + h.size + BLOCK_TRAILER_SIZE), file, footer, h, 'data block', scratch);
      }
    };
    if (props.indexType !== 2) {
      yield* run(iterateIndexEntries(index.bytes, file, index.offset, 'index block', delta, firstKey, seek));
    } else {
      for (const top of iterateIndexEntries(index.bytes, file, index.offset, 'index block', delta, firstKey, seek)) {
        const partition = await readSstBlock(source, file, footer, top.handle, 'index partition');
        yield* run(iterateIndexEntries(partition.bytes, file, partition.offset, 'index partition', delta, firstKey, seek));
      }
    }
  };
  const it = blocks();
  return {
    next: async () => {
      const n = await it.next();
      return n.done ? undefined : n.value;
    },
    finished(tally: ReadTally, stoppedEarly: boolean) {
      if (stoppedEarly) void it.return(undefined);
      // a read of the whole table (no block passed over, none left): what it went through is what the properties count
      else if (seek?.skipped !== true) checkTableTally(table, tally, indexOffset);
    },
  };
}

function tableCursor(table: TableRead, range: UserKeyRange | undefined, globalSequence: number | undefined, options: CursorOptions = {}): SstTableCursor {
  return new SstTableCursor(table.file, tableBlocks(table, range, options.reuseBlocks === true), range?.from, range?.to, globalSequence);
}

/** The cursor's entries as objects, one array per data block (keys and values copied: what the tests and the tools read). */
async function* cursorBatches(cursor: SstTableCursor): AsyncGenerator<InternalEntry[]> {
  let out: InternalEntry[] = [];
  for (;;) {
    const r = cursor.next();
    if (r === ENTRY) {
      out.push({
        userKey: cursor.userKey().slice(),
        sequence: cursor.sequence,
        type: cursor.type,
        value: cursor.value(),
        valueOffset: cursor.valueOffset,
        keyOffset: cursor.keyOffset,
        file: cursor.file,
      });
      continue;
    }
    if (out.length > 0) yield out;
    out = [];
    if (r === END || !(await cursor.loadBlock())) return;
  }
}

/** The file's size against the sizes the MANIFEST and the savepoint's handle record for it. */
function checkTableSize(source: ByteSource, file: string, expectedSizes: readonly ExpectedTableSize[]): void {
  const size = source.size;
  for (const e of expectedSizes) {
    if (e.size === size) continue;
    throw new DecodeError({
      code: e.size > size ? 'truncated' : 'invalid-value',
      detail: `expected a table file of ${e.size} bytes (as ${e.by} records it), found ${size} bytes: the file is ${e.size > size ? 'cut short' : 'longer than the one written'} or not the table ${e.by} names`,
      file,
      offset: Math.min(size, e.size),
    });
  }
}

/**
 * A whole read's data blocks, entries and their bytes against the table's properties (RocksDB's table
 * builder counts every entry it adds in rocksdb.num.entries, range deletions included, and their
 * internal keys and values in raw.key.size and raw.value.size): a difference means blocks or entries
 * the index or a block lost, though every checksum held.
 */
function checkTableTally(table: TableRead, tally: ReadTally, indexOffset: number): void {
  const { props, file, rangeDeletions, rangeDeletionBytes } = table;
  const where = (name: string, fallback: number) => props.at[name] ?? fallback;
  if (props.dataBlocks !== undefined && props.dataBlocks !== tally.blocks) {
    throw new DecodeError({
      code: 'invalid-value',
      detail: `expected the ${props.dataBlocks} data blocks the table's properties count (rocksdb.num.data.blocks), found ${tally.blocks} through its index: the index has lost entries or names blocks that were never written`,
      file,
      offset: indexOffset,
    });
  }
  const rangeNote = rangeDeletions === 0 ? '' : `, ${rangeDeletions} of them range deletions`;
  if (props.entries !== undefined && props.entries !== tally.entries + rangeDeletions) {
    throw new DecodeError({
      code: 'invalid-value',
      detail: `expected the ${props.entries} entries the table's properties count (rocksdb.num.entries${rangeNote}), found ${tally.entries + rangeDeletions} in its ${tally.blocks} data block${tally.blocks === 1 ? '' : 's'}${rangeDeletions === 0 ? '' : ' and its range deletions'}: entries were lost from the blocks or the properties are not this table's`,
      file,
      offset: where('rocksdb.num.entries', indexOffset),
    });
  }
  for (const [name, expected, found, what] of [
    ['rocksdb.raw.key.size', props.rawKeySize, tally.keyBytes + rangeDeletionBytes.keys, 'internal keys'],
    ['rocksdb.raw.value.size', props.rawValueSize, tally.valueBytes + rangeDeletionBytes.values, 'values'],
  ] as const) {
    if (expected === undefined || expected === found) continue;
    throw new DecodeError({
      code: 'invalid-value',
      detail: `expected ${expected} bytes of ${what} over the table's entries (${name}), found ${found}: entries were changed or lost though every checksum held, or the properties are not this table's`,
      file,
      offset: where(name, indexOffset),
    });
  }
}

/** User key and the 8-byte little-endian trailer: sequence number << 8 | value type. */
export function splitInternalKey(key: Uint8Array, file: string, offset: number, what: string): { userKey: Uint8Array; sequence: number; type: number } {
  if (key.length < 8)
    throw new DecodeError({
      code: 'invalid-value',
      detail: `expected a ${what} key of at least 8 bytes (user key, sequence number and type), found ${key.length} bytes`,
      file,
      offset,
    });
  const n = key.length - 8;
  const type = key[n]!;
  const lo = (key[n + 1]! | (key[n + 2]! << 8) | (key[n + 3]! << 16)) >>> 0;
  const hi = (key[n + 4]! | (key[n + 5]! << 8) | (key[n + 6]! << 16) | (key[n + 7]! << 24)) >>> 0;
  return { userKey: key.subarray(0, n), sequence: hi * 2 ** 24 + lo, type };
}

export function describeValueType(type: number): string {
  return VALUE_TYPE_NAMES[type] ?? `value type 0x${type.toString(16)}`;
}
