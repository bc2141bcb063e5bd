/**
 * The footer of a RocksDB table file (table/format.cc): the last 48 bytes (legacy, format version 0)
 * or 53 bytes (format versions 1–5: checksum type, meta-index and index block handles, format
 * version, magic). Format versions 6 and 7 keep the 53 bytes but fill them differently: checksum type,
 * the extended magic 3e 00 7a 00, the footer's own checksum, the base context checksum, the meta-index
 * size (the meta-index lies right before the footer), zero padding; the index handle moves into the
 * meta-index (`rocksdb.index`). The magic number says the table format: block-based tables are read,
 * plain and cuckoo tables are recognised and refused.
 */
import { DecodeError } from '../../io';
import { CHECKSUM_NAMES, computeBlockChecksum } from './compute-block-checksum';
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
  /** null from format version 6 on: the meta-index names the index block */
  index: BlockHandle | null;
  /** format version 6+: mixed with each block's offset into its checksum (context checksums); 0 before */
  baseContextChecksum: number;
}

export const BLOCK_BASED_MAGIC = 0x88e241b785f4cff7n;
export const LEGACY_BLOCK_BASED_MAGIC = 0xdb4775248b80fb57n;
const PLAIN_MAGIC = 0x8242229663bf9564n;
const LEGACY_PLAIN_MAGIC = 0x4f3418eb7a8f13b8n;
const CUCKOO_MAGIC = 0x926789d0c5f17873n;
export const NEW_FOOTER_SIZE = 53;
const LEGACY_FOOTER_SIZE = 48;
/** the largest format version read here (RocksDB 10 writes up to 7) */
const MAX_FORMAT_VERSION = 7;
const EXTENDED_MAGIC = [0x3e, 0x00, 0x7a, 0x00];

export function readBlockHandle(c: RocksDbCursor, what: string): BlockHandle {
  const offset = c.readVarint64(`${what} offset`);
  const size = c.readVarint64(`${what} size`);
  return { offset, size };
}

/** Reads the footer from the file's last bytes (`tail`: up to its last 53 bytes). */
export function readSstFooter(tail: Uint8Array, file: string, fileSize: number): SstFooter {
  const base = fileSize - tail.length;
  if (tail.length < LEGACY_FOOTER_SIZE) {
    throw new DecodeError({
      code: 'truncated',
      detail: `expected a RocksDB table file of at least ${LEGACY_FOOTER_SIZE} bytes (its footer), found ${fileSize} bytes`,
      file,
      offset: 0,
    });
  }
  const magicCursor = new RocksDbCursor(tail, file, base, tail.length - 8);
  const magic = magicCursor.readFixed64('table magic number');
  const magicAt = fileSize - 8;
  if (magic === PLAIN_MAGIC || magic === LEGACY_PLAIN_MAGIC || magic === CUCKOO_MAGIC) {
    const kind = magic === CUCKOO_MAGIC ? 'cuckoo table' : 'plain table';
    throw new DecodeError({
      code: 'unsupported-format',
      detail: `expected a RocksDB block-based table, found a ${kind} (magic 0x${magic.toString(16)}): only block-based tables are read here`,
      file,
      offset: magicAt,
    });
  }
  if (magic === LEGACY_BLOCK_BASED_MAGIC) {
    const c = new RocksDbCursor(tail, file, base, tail.length - LEGACY_FOOTER_SIZE);
    const metaIndex = readBlockHandle(c, 'meta-index handle');
    const index = readBlockHandle(c, 'index handle');
    return { formatVersion: 0, checksumType: 1, metaIndex, index, baseContextChecksum: 0 };
  }
  if (magic !== BLOCK_BASED_MAGIC) {
    throw new DecodeError({
      code: 'bad-magic',
      detail: `expected the RocksDB block-based table magic 0x${BLOCK_BASED_MAGIC.toString(16)} at the end of an SST file, found 0x${magic.toString(16)}`,
      file,
      offset: magicAt,
    });
  }
  if (tail.length < NEW_FOOTER_SIZE) {
    throw new DecodeError({ code: 'truncated', detail: `expected a ${NEW_FOOTER_SIZE}-byte table footer, found a ${fileSize}-byte file`, file, offset: 0 });
  }
  const versionCursor = new RocksDbCursor(tail, file, base, tail.length - 12);
  const formatVersion = versionCursor.readFixed32('table format version');
  if (formatVersion < 1 || formatVersion > MAX_FORMAT_VERSION) {
    throw new DecodeError({
      code: 'unsupported-version',
      detail: `expected a block-based table format version 1–${MAX_FORMAT_VERSION}, found ${formatVersion}`,
      file,
      offset: fileSize - 12,
    });
  }
  const c = new RocksDbCursor(tail, file, base, tail.length - NEW_FOOTER_SIZE);
  const checksumType = c.readU8('checksum type');
  if (checksumType > 4) throw c.error('invalid-value', `expected a checksum type 0–4 (none, CRC32C, xxHash, xxHash64, XXH3), found ${checksumType}`, c.pos - 1);
  if (formatVersion >= 6) return readExtendedFooter(tail.subarray(tail.length - NEW_FOOTER_SIZE), file, fileSize, formatVersion, checksumType);
  const metaIndex = readBlockHandle(c, 'meta-index handle');
  const index = readBlockHandle(c, 'index handle');
  return { formatVersion, checksumType, metaIndex, index, baseContextChecksum: 0 };
}

/** Format versions 6–7: `footer` is the 53-byte footer. */
function readExtendedFooter(footer: Uint8Array, file: string, fileSize: number, formatVersion: number, checksumType: number): SstFooter {
  const at = fileSize - NEW_FOOTER_SIZE;
  const c = new RocksDbCursor(footer, file, at, 1);
  const magic = c.readBytes(4, 'extended magic number');
  if (magic.some((b, i) => b !== EXTENDED_MAGIC[i])) {
    throw new DecodeError({
      code: 'bad-magic',
      detail: `expected the extended magic number 3e007a00 of a format version ${formatVersion} table footer, found ${hex(magic)}`,
      file,
      offset: at + 1,
    });
  }
  const stored = c.readFixed32('footer checksum');
  const baseContextChecksum = c.readFixed32('base context checksum');
  if (baseContextChecksum === 0) {
    throw new DecodeError({
      code: 'invalid-value',
      detail: `expected a non-zero base context checksum in a format version ${formatVersion} table footer, found 0`,
      file,
      offset: at + 9,
    });
  }
  if (checksumType !== 0) {
    // the footer's checksum: of its 53 bytes with the checksum field zeroed, plus the context of its offset
    const copy = footer.slice();
    copy.fill(0, 5, 9);
    const computed = (computeBlockChecksum(checksumType, copy) + computeContextModifier(baseContextChecksum, at)) >>> 0;
    if (computed !== stored) {
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected the table footer's ${CHECKSUM_NAMES[checksumType]} checksum 0x${hex32(computed)}, found 0x${hex32(stored)}: the footer is corrupt`,
        file,
        offset: at + 5,
      });
    }
  }
  const metaIndexSize = c.readFixed32('meta-index size');
  // 16 bytes of unchecked padding, then 8 reserved bytes that must be zero
  const reserved = footer.subarray(33, 41);
  if (reserved.some((b) => b !== 0)) {
    throw new DecodeError({
      code: 'unsupported-format',
      detail: `expected zero reserved bytes in a format version ${formatVersion} table footer, found ${hex(reserved)}: the file uses a RocksDB feature newer than this reader`,
      file,
      offset: at + 33,
    });
  }
  const metaIndexOffset = at - 5 - metaIndexSize;
  if (metaIndexOffset < 0) {
    throw new DecodeError({
      code: 'truncated',
      detail: `expected a ${metaIndexSize}-byte meta-index block and its trailer before the footer, found a ${fileSize}-byte file`,
      file,
      offset: at + 13,
    });
  }
  return { formatVersion, checksumType, metaIndex: { offset: metaIndexOffset, size: metaIndexSize }, index: null, baseContextChecksum };
}

/** RocksDB's ChecksumModifierForContext: the base context checksum xor the sum of the offset's 32-bit halves (0 without a base). */
export function computeContextModifier(baseContextChecksum: number, offset: number): number {
  if (baseContextChecksum === 0) return 0;
  return (baseContextChecksum ^ ((offset >>> 0) + Math.floor(offset / 2 ** 32))) >>> 0;
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function hex32(n: number): string {
  return n.toString(16).padStart(8, '0');
}
