/**
 * A RocksDB MANIFEST (db/log_reader.cc, db/version_edit.cc): a log of 32 KiB blocks holding records
 * (masked CRC32C, 16-bit length, type: full, first, middle, last; recyclable types add a 4-byte log
 * number), each record a VersionEdit. Replaying the edits gives each column family (added, dropped)
 * and its live table files per level, with their sequence number ranges.
 */
import { computeMaskedCrc32c, DecodeError } from '../../io';
import { decodeUtf8, RocksDbCursor } from './rocksdb-cursor';

export interface LiveTableFile {
  number: number;
  level: number;
  size: number;
  /** where the VersionEdit that added the file records its number (absolute in the MANIFEST when the record is not fragmented, else the record's start) */
  at: number;
  smallestSequence: number;
  largestSequence: number;
  /** the first (up to) 2 bytes of the file's smallest and largest user keys: their key-group prefix, for passing over a file outside a key-group shard */
  smallestKeyPrefix?: Uint8Array;
  largestKeyPrefix?: Uint8Array;
}

export interface ColumnFamilyVersion {
  id: number;
  name: string;
  /** live table files by file number */
  files: Map<number, LiveTableFile>;
}

export interface RocksDbVersion {
  comparator?: string;
  lastSequence?: number;
  /** live column families by id */
  columnFamilies: Map<number, ColumnFamilyVersion>;
}

const BLOCK_SIZE = 32768;
const HEADER = 7;
const RECYCLABLE_HEADER = 11;
/** a record assembled from fragments larger than this is refused (MANIFEST records are KiB) */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** Assembles the log's records; each with the offset of its first fragment. */
export function* readLogRecords(bytes: Uint8Array, file: string): Generator<{ data: Uint8Array; offset: number }> {
  let pos = 0;
  let parts: Uint8Array[] | undefined;
  let partsBytes = 0;
  let start = 0;
  while (pos < bytes.length) {
    const blockLeft = BLOCK_SIZE - (pos % BLOCK_SIZE);
    if (blockLeft < HEADER) {
      pos += blockLeft; // the block's trailer (zeros)
      continue;
    }
    if (bytes.length - pos < HEADER) {
      throw new DecodeError({
        code: 'truncated',
        detail: `expected a ${HEADER}-byte log record header, found ${bytes.length - pos} bytes at the end of the MANIFEST`,
        file,
        offset: pos,
      });
    }
    const c = new RocksDbCursor(bytes, file, 0, pos);
    const crc = c.readFixed32('log record checksum');
    const length = bytes[pos + 4]! | (bytes[pos + 5]! << 8);
    const type = bytes[pos + 6]!;
    if (type === 0 && length === 0 && crc === 0) {
      // preallocated zeros: the rest of the block holds nothing
      pos += blockLeft;
      continue;
    }
    const recyclable = type >= 5 && type <= 8;
    const header = recyclable ? RECYCLABLE_HEADER : HEADER;
    if (type < 1 || type > 8)
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected a log record type 1–8 (full, first, middle, last), found ${type}`,
        file,
        offset: pos + 6,
      });
    if (pos + header + length > bytes.length || header + length > blockLeft) {
      throw new DecodeError({
        code: 'truncated',
        detail: `expected a ${length}-byte log record fragment within its 32 KiB block, found it running past ${pos + header + length > bytes.length ? 'the end of the file' : 'the block'}`,
        file,
        offset: pos,
      });
    }
    const computed = computeMaskedCrc32c(bytes.subarray(pos + 6, pos + header + length));
    if (computed !== crc) {
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected the log record checksum 0x${computed.toString(16).padStart(8, '0')}, found 0x${crc.toString(16).padStart(8, '0')}: the MANIFEST is corrupt`,
        file,
        offset: pos,
      });
    }
    const payload = bytes.subarray(pos + header, pos + header + length);
    const kind = recyclable ? type - 4 : type;
    if (kind === 1) {
      if (parts)
        throw new DecodeError({ code: 'invalid-value', detail: 'expected a middle or last log record fragment, found a full record', file, offset: pos });
      yield { data: payload, offset: pos + header };
    } else if (kind === 2) {
      if (parts)
        throw new DecodeError({ code: 'invalid-value', detail: 'expected a middle or last log record fragment, found a first one', file, offset: pos });
      parts = [payload];
      partsBytes = payload.length;
      start = pos + header;
    } else {
      if (!parts)
        throw new DecodeError({
          code: 'invalid-value',
          detail: `expected a full or first log record fragment, found a ${kind === 3 ? 'middle' : 'last'} one`,
          file,
          offset: pos,
        });
      parts.push(payload);
      partsBytes += payload.length;
      if (partsBytes > MAX_RECORD_BYTES)
        throw new DecodeError({
          code: 'limit-exceeded',
          detail: `expected a MANIFEST record of at most ${MAX_RECORD_BYTES} bytes, found more`,
          file,
          offset: start,
        });
      if (kind === 4) {
        const data = new Uint8Array(partsBytes);
        let o = 0;
        for (const p of parts) {
          data.set(p, o);
          o += p.length;
        }
        parts = undefined;
        yield { data, offset: start };
      }
    }
    pos += header + length;
  }
  if (parts)
    throw new DecodeError({ code: 'truncated', detail: 'expected the last fragment of a log record, found the end of the MANIFEST', file, offset: start });
}

const TAG_SAFE_IGNORE = 1 << 13;

/** Replays the MANIFEST's VersionEdits. */
export function readRocksDbManifest(bytes: Uint8Array, file: string): RocksDbVersion {
  const version: RocksDbVersion = { columnFamilies: new Map([[0, { id: 0, name: 'default', files: new Map() }]]) };
  for (const record of readLogRecords(bytes, file)) applyVersionEdit(version, record.data, file, record.offset);
  return version;
}

function applyVersionEdit(version: RocksDbVersion, data: Uint8Array, file: string, offset: number): void {
  // a record shows absolute offsets only when unfragmented; fragmented ones are located at their start
  const c = new RocksDbCursor(data, file, offset);
  let cf = 0;
  let addName: string | undefined;
  let drop = false;
  const added: LiveTableFile[] = [];
  const deleted: { level: number; number: number }[] = [];
  while (c.remaining > 0) {
    const tagAt = c.pos;
    const tag = c.readVarint32('VersionEdit tag');
    switch (tag) {
      case 1:
        version.comparator = decodeUtf8(c.readSlice('comparator name'));
        break;
      case 2:
      case 3:
      case 9:
      case 10:
        c.readVarint64Big('log or file number');
        break;
      case 4:
        version.lastSequence = Number(c.readVarint64Big('last sequence number'));
        break;
      case 5:
        c.readVarint32('compact cursor level');
        c.readSlice('compact cursor key');
        break;
      case 6: {
        const level = c.readVarint32('deleted file level');
        const number = readFileNumber(c, 'deleted file number');
        deleted.push({ level, number });
        break;
      }
      case 7:
      case 100:
      case 102:
      case 103:
        added.push(readNewFile(c, tag));
        break;
      case 200:
        cf = c.readVarint32('column family id');
        break;
      case 201:
        addName = decodeUtf8(c.readSlice('column family name'));
        break;
      case 202:
        drop = true;
        break;
      case 203:
        c.readVarint32('max column family');
        break;
      case 300:
        c.readVarint32('atomic group remaining entries');
        break;
      default:
        if ((tag & TAG_SAFE_IGNORE) !== 0) {
          c.readSlice(`VersionEdit field ${tag}`);
          break;
        }
        throw c.error(
          'unsupported-format',
          `expected a VersionEdit tag Flink's RocksDB writes (comparator, log and file numbers, sequence numbers, files, column families), found tag ${tag}${tag === 400 || tag === 401 ? ' (blob files: BlobDB is not read here)' : ''}`,
          tagAt,
        );
    }
  }
  if (addName !== undefined) {
    version.columnFamilies.set(cf, { id: cf, name: addName, files: new Map() });
    return;
  }
  if (drop) {
    version.columnFamilies.delete(cf);
    return;
  }
  const family = version.columnFamilies.get(cf);
  if (!family) {
    if (added.length === 0 && deleted.length === 0) return;
    throw new DecodeError({
      code: 'invalid-value',
      detail: `expected a VersionEdit of a live column family, found one of column family ${cf}, which is not added or was dropped`,
      file,
      offset,
    });
  }
  for (const d of deleted) family.files.delete(d.number);
  for (const a of added) family.files.set(a.number, a);
}

function readFileNumber(c: RocksDbCursor, what: string): number {
  // the low 62 bits are the number (the top ones a path id in kNewFile)
  return Number(c.readVarint64Big(what) & 0x3fffffffffffffffn);
}

function readNewFile(c: RocksDbCursor, tag: number): LiveTableFile {
  const level = c.readVarint32('new file level');
  const at = c.base + c.pos;
  const number = readFileNumber(c, 'new file number');
  if (tag === 102) c.readVarint32('new file path id');
  const size = c.readVarint64('new file size');
  const smallestKeyPrefix = userKeyPrefix(c.readSlice('smallest key'));
  const largestKeyPrefix = userKeyPrefix(c.readSlice('largest key'));
  let smallestSequence = 0;
  let largestSequence = 0;
  if (tag !== 7) {
    smallestSequence = Number(c.readVarint64Big('smallest sequence number'));
    largestSequence = Number(c.readVarint64Big('largest sequence number'));
  }
  if (tag === 103) {
    // custom fields up to kTerminate (1)
    for (;;) {
      const field = c.readVarint32('new file custom field tag');
      if (field === 1) break;
      c.readSlice(`new file custom field ${field}`);
    }
  }
  return { number, level, size, at, smallestSequence, largestSequence, smallestKeyPrefix, largestKeyPrefix };
}

/** The first (up to) 2 bytes of an internal key's user key (the key without its 8-byte sequence and type trailer), copied. */
function userKeyPrefix(internalKey: Uint8Array): Uint8Array {
  return internalKey.slice(0, Math.max(0, Math.min(2, internalKey.length - 8)));
}
