/**
 * The footer of a RocksDB table file (table/format.cc): the last 48 bytes (legacy, format version 0)
 * or 53 bytes (format versions 1–5: checksum type, meta-index and index block handles, format
 * version, magic). The magic number says the table format: block-based tables are read, plain and
 * cuckoo tables are recognised and refused.
 */
import { DecodeError } from '../../io';
import { RocksDbCursor } from './rocksdb-cursor';

export interface BlockHandle {
  offset: number;
  size: number;
}

export interface SstFooter {
  formatVersion: number;
  /** 0 none, 1 CRC32C, 2 xxHash, 3 xxHash64, 4 XXH3 */
  checksumType: number;
  metaIndex: BlockHandle;
  index: BlockHandle;
}

export const BLOCK_BASED_MAGIC = 0x88e241b785f4cff7n;
export const LEGACY_BLOCK_BASED_MAGIC = 0xdb4775248b80fb57n;
const PLAIN_MAGIC = 0x8242229663bf9564n;
const LEGACY_PLAIN_MAGIC = 0x4f3418eb7a8f13b8n;
const CUCKOO_MAGIC = 0x926789d0c5f17873n;
export const NEW_FOOTER_SIZE = 53;
const LEGACY_FOOTER_SIZE = 48;
/** the largest format version read here (6 and 7 move the index handle into the meta-index and checksum the footer) */
const MAX_FORMAT_VERSION = 5;

export function readBlockHandle(c: RocksDbCursor, what: string): BlockHandle {
  const offset = c.readVarint64(`${what} offset`);
  const size = c.readVarint64(`${what} size`);
  return { offset, size };
}

/** Reads the footer from the file's last bytes (`tail`: up to its last 53 bytes). */
export function readSstFooter(tail: Uint8Array, file: string, fileSize: number): SstFooter {
  const base = fileSize - tail.length;
  if (tail.length < LEGACY_FOOTER_SIZE) {
    throw new DecodeError({ code: 'truncated', detail: `expected a RocksDB table file of at least ${LEGACY_FOOTER_SIZE} bytes (its footer), found ${fileSize} bytes`, file, offset: 0 });
  }
  const magicCursor = new RocksDbCursor(tail, file, base, tail.length - 8);
  const magic = magicCursor.readFixed64('table magic number');
  const magicAt = fileSize - 8;
  if (magic === PLAIN_MAGIC || magic === LEGACY_PLAIN_MAGIC || magic === CUCKOO_MAGIC) {
    const kind = magic === CUCKOO_MAGIC ? 'cuckoo table' : 'plain table';
    throw new DecodeError({ code: 'unsupported-format', detail: `expected a RocksDB block-based table, found a ${kind} (magic 0x${magic.toString(16)}): only block-based tables are read here`, file, offset: magicAt });
  }
  if (magic === LEGACY_BLOCK_BASED_MAGIC) {
    const c = new RocksDbCursor(tail, file, base, tail.length - LEGACY_FOOTER_SIZE);
    const metaIndex = readBlockHandle(c, 'meta-index handle');
    const index = readBlockHandle(c, 'index handle');
    return { formatVersion: 0, checksumType: 1, metaIndex, index };
  }
  if (magic !== BLOCK_BASED_MAGIC) {
    throw new DecodeError({ code: 'bad-magic', detail: `expected the RocksDB block-based table magic 0x${BLOCK_BASED_MAGIC.toString(16)} at the end of an SST file, found 0x${magic.toString(16)}`, file, offset: magicAt });
  }
  if (tail.length < NEW_FOOTER_SIZE) {
    throw new DecodeError({ code: 'truncated', detail: `expected a ${NEW_FOOTER_SIZE}-byte table footer, found a ${fileSize}-byte file`, file, offset: 0 });
  }
  const versionCursor = new RocksDbCursor(tail, file, base, tail.length - 12);
  const formatVersion = versionCursor.readFixed32('table format version');
  if (formatVersion < 1 || formatVersion > MAX_FORMAT_VERSION) {
    throw new DecodeError({ code: 'unsupported-version', detail: `expected a block-based table format version 1–${MAX_FORMAT_VERSION}, found ${formatVersion}`, file, offset: fileSize - 12 });
  }
  const c = new RocksDbCursor(tail, file, base, tail.length - NEW_FOOTER_SIZE);
  const checksumType = c.readU8('checksum type');
  if (checksumType > 4) throw c.error('invalid-value', `expected a checksum type 0–4 (none, CRC32C, xxHash, xxHash64, XXH3), found ${checksumType}`, c.pos - 1);
  const metaIndex = readBlockHandle(c, 'meta-index handle');
  const index = readBlockHandle(c, 'index handle');
  return { formatVersion, checksumType, metaIndex, index };
}
