/**
 * The properties block of a block-based table (table/meta_blocks.cc, table/table_properties.cc): the column
 * family, comparator, compression, merge operator, entry and block counts, raw sizes and the index layout,
 * each property's value located (absolute file offset) so that what disagrees with it can be named.
 */
import { type ByteSource } from '../../io';
import { decodeUtf8, RocksDbCursor } from './rocksdb-cursor';
import { iterateBlockEntries } from './decode-sst-block-entries';
import { type BlockHandle, type SstFooter } from './read-sst-footer';
import { readSstBlock } from './read-sst-block';

export interface SstProperties {
  columnFamilyId?: number;
  columnFamilyName?: string;
  comparator?: string;
  compression?: string;
  mergeOperator?: string;
  /** rocksdb.num.entries: every entry the table builder added (values, deletions, merge operands and range deletions) */
  entries?: number;
  rangeDeletions?: number;
  /** rocksdb.num.data.blocks */
  dataBlocks?: number;
  /** rocksdb.raw.key.size / raw.value.size: the internal keys' and the values' bytes over every entry (range deletions included), before compression */
  rawKeySize?: number;
  rawValueSize?: number;
  /** where each property read here has its value (absolute file offsets), to locate what disagrees with it */
  at: Record<string, number>;
  indexKeyIsUserKey: boolean;
  indexValueIsDeltaEncoded: boolean;
  /** 0 binary search, 2 two-level (partitioned), 3 binary search with first key (the others are refused when the table is opened) */
  indexType: number;
  formatVersion?: number;
  /** a file made by SstFileWriter and ingested (version 2+: every key takes the file's global sequence number) */
  externalFileVersion?: number;
  externalGlobalSequence?: number;
}

export async function readSstProperties(source: ByteSource, file: string, footer: SstFooter, handle: BlockHandle): Promise<SstProperties> {
  const block = await readSstBlock(source, file, footer, handle, 'properties block');
  const out: SstProperties = { indexKeyIsUserKey: false, indexValueIsDeltaEncoded: false, indexType: 0, at: {} };
  for (const e of iterateBlockEntries(block.bytes, file, block.offset, 'properties block')) {
    const name = decodeUtf8(e.key);
    out.at[name] = block.stored ? block.offset + e.valueAt : block.offset;
    // the property's value, read where it stands in the block (errors located at its offset)
    const value = () => new RocksDbCursor(block.bytes, file, block.offset, e.valueAt, e.valueAt + e.value.length);
    const num = () => value().readVarint64(`property ${name}`);
    switch (name) {
      case 'rocksdb.column.family.id':
        out.columnFamilyId = num();
        break;
      case 'rocksdb.column.family.name':
        out.columnFamilyName = decodeUtf8(e.value);
        break;
      case 'rocksdb.comparator':
        out.comparator = decodeUtf8(e.value);
        break;
      case 'rocksdb.compression':
        out.compression = decodeUtf8(e.value);
        break;
      case 'rocksdb.merge.operator':
        out.mergeOperator = decodeUtf8(e.value);
        break;
      case 'rocksdb.num.entries':
        out.entries = num();
        break;
      case 'rocksdb.num.range-deletions':
        out.rangeDeletions = num();
        break;
      case 'rocksdb.num.data.blocks':
        out.dataBlocks = num();
        break;
      case 'rocksdb.raw.key.size':
        out.rawKeySize = num();
        break;
      case 'rocksdb.raw.value.size':
        out.rawValueSize = num();
        break;
      case 'rocksdb.index.key.is.user.key':
        out.indexKeyIsUserKey = num() !== 0;
        break;
      case 'rocksdb.index.value.is.delta.encoded':
        out.indexValueIsDeltaEncoded = num() !== 0;
        break;
      case 'rocksdb.format.version':
        out.formatVersion = num();
        break;
      case 'rocksdb.external_sst_file.version':
        out.externalFileVersion = value().readFixed32('external file version property');
        break;
      case 'rocksdb.external_sst_file.global_seqno':
        out.externalGlobalSequence = Number(value().readFixed64('external file global sequence number property'));
        break;
      case 'rocksdb.block.based.table.index.type':
        // a fixed32 in the value
        out.indexType = value().readFixed32('index type property');
        break;
    }
  }
  return out;
}
