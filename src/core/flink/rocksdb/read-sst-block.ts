/**
 * One block of a block-based table (table/format.cc, block_based/reader_common.cc): the block's bytes,
 * then a 5-byte trailer (compression type, checksum of the bytes and the type byte). The checksum is
 * verified as the footer says (from format version 6 on with the context of the block's offset), then
 * the block is decompressed: Snappy (decompress-snappy.ts: WebAssembly where the platform installed it, else snappyjs), zlib (raw deflate,
 * fflate), LZ4 and LZ4HC (decode-lz4-block.ts), ZSTD (fzstd). From format version 2 on, every codec
 * but Snappy prefixes its output's size as a varint32.
 */
import { inflateSync } from 'fflate';
import { decompress as decompressZstd } from 'fzstd';
import { DecodeError, type ByteSource } from '../../io';
import { computeBlockChecksum, CHECKSUM_NAMES } from './compute-block-checksum';
import { decodeLz4Block } from './decode-lz4-block';
import { decompressSnappy, type BlockScratch } from './decompress-snappy';
import { RocksDbCursor } from './rocksdb-cursor';
import { computeContextModifier, type BlockHandle, type SstFooter } from './read-sst-footer';

export const BLOCK_TRAILER_SIZE = 5;
/** a block larger than this is refused before it is read (RocksDB's blocks are KiB; partitions and properties stay far below) */
export const MAX_BLOCK_BYTES = 64 * 1024 * 1024;

const COMPRESSION_NAMES: Record<number, string> = {
  0: 'none',
  1: 'Snappy',
  2: 'zlib',
  3: 'BZip2',
  4: 'LZ4',
  5: 'LZ4HC',
  6: 'XPRESS',
  7: 'ZSTD',
  0x40: 'ZSTD (not final)',
};

export interface SstBlock {
  /** the decompressed contents */
  bytes: Uint8Array;
  /** where the block's stored bytes start in the file */
  offset: number;
  /** whether `bytes` are the stored bytes (uncompressed), so offsets inside them are file offsets */
  stored: boolean;
}

/** Reads, verifies and decompresses the block at `handle`; `what` names it in errors ("data block", "index block"). */
export async function readSstBlock(source: ByteSource, file: string, footer: SstFooter, handle: BlockHandle, what: string): Promise<SstBlock> {
  checkBlockHandle(source, file, handle, what);
  return decodeSstBlock(await source.read(handle.offset, handle.size + BLOCK_TRAILER_SIZE), file, footer, handle, what);
}

/** Refuses a handle over the size limit or past the end of the file, before anything is read. */
export function checkBlockHandle(source: ByteSource, file: string, handle: BlockHandle, what: string): void {
  if (handle.size > MAX_BLOCK_BYTES) {
    throw new DecodeError({
      code: 'limit-exceeded',
      detail: `expected a ${what} of at most ${MAX_BLOCK_BYTES} bytes, found a handle of ${handle.size} bytes`,
      file,
      offset: handle.offset,
    });
  }
  if (handle.offset + handle.size + BLOCK_TRAILER_SIZE > source.size) {
    throw new DecodeError({
      code: 'truncated',
      detail: `expected a ${what} of ${handle.size} bytes and its 5-byte trailer at offset ${handle.offset}, found a ${source.size}-byte file`,
      file,
      offset: handle.offset,
    });
  }
}

export type { BlockScratch };

/**
 * Verifies and decompresses a block from its stored bytes and trailer (`raw`: handle.size + 5 bytes).
 * With `scratch`, a Snappy block is decompressed into it: the block's bytes are then valid until the
 * next block decoded with the same scratch.
 */
export function decodeSstBlock(raw: Uint8Array, file: string, footer: SstFooter, handle: BlockHandle, what: string, scratch?: BlockScratch): SstBlock {
  const type = raw[handle.size]!;
  const stored = new RocksDbCursor(raw, file, handle.offset, handle.size + 1).readFixed32('block checksum');
  if (footer.checksumType !== 0) {
    // format version 6+: plus the context of the block's offset (a block moved or copied from another file fails)
    const computed =
      (computeBlockChecksum(footer.checksumType, raw.subarray(0, handle.size + 1)) + computeContextModifier(footer.baseContextChecksum, handle.offset)) >>> 0;
    if (computed !== stored) {
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected the ${what}'s ${CHECKSUM_NAMES[footer.checksumType]} checksum 0x${hex32(computed)} (of its ${handle.size} bytes and type byte), found 0x${hex32(stored)}: the block is corrupt`,
        file,
        offset: handle.offset + handle.size + 1,
      });
    }
  }
  const body = raw.subarray(0, handle.size);
  if (type === 0) return { bytes: body, offset: handle.offset, stored: true };
  return { bytes: decompressBlock(type, body, footer, file, handle, what, scratch), offset: handle.offset, stored: false };
}

function decompressBlock(
  type: number,
  body: Uint8Array,
  footer: SstFooter,
  file: string,
  handle: BlockHandle,
  what: string,
  scratch: BlockScratch | undefined,
): Uint8Array {
  const name = COMPRESSION_NAMES[type];
  const fail = (detail: string) =>
    new DecodeError({ code: 'corrupt-compression', detail: `expected a ${name} compressed ${what}, found ${detail}`, file, offset: handle.offset });
  if (type === 1) {
    return decompressSnappy(body, scratch, MAX_BLOCK_BYTES, fail);
  }
  if (type !== 2 && type !== 4 && type !== 5 && type !== 7 && type !== 0x40) {
    const known = name === undefined ? `unknown compression type ${type}` : `compression type ${type} (${name}), which is not read here`;
    throw new DecodeError({
      code: name === undefined ? 'invalid-value' : 'unsupported-format',
      detail: `expected a ${what} compressed with none, Snappy, zlib, LZ4, LZ4HC or ZSTD, found ${known}`,
      file,
      offset: handle.offset + handle.size,
    });
  }
  // format version 2+: the decompressed size as a varint32 prefix
  let input = body;
  let size: number | undefined;
  if (footer.formatVersion >= 2) {
    const c = new RocksDbCursor(body, file, handle.offset);
    size = c.readVarint32(`decompressed size of the ${what}`);
    if (size > MAX_BLOCK_BYTES)
      throw new DecodeError({
        code: 'limit-exceeded',
        detail: `expected a ${what} of at most ${MAX_BLOCK_BYTES} decompressed bytes, found ${size}`,
        file,
        offset: handle.offset,
      });
    input = body.subarray(c.pos);
  }
  let out: Uint8Array;
  if (type === 4 || type === 5) {
    if (size === undefined)
      throw new DecodeError({
        code: 'unsupported-format',
        detail: `expected an LZ4 ${what} with its size prefix (format version 2+), found format version ${footer.formatVersion}`,
        file,
        offset: handle.offset,
      });
    const decoded = decodeLz4Block(input, size);
    if (typeof decoded === 'string') throw fail(decoded);
    return decoded;
  }
  try {
    out = type === 2 ? inflateSync(input) : decompressZstd(input);
  } catch (e) {
    throw fail(`bytes that do not decompress (${(e as Error).message})`);
  }
  if (size !== undefined && out.length !== size) throw fail(`${out.length} decompressed bytes where the block declares ${size}`);
  return out;
}

/** A raw Snappy block (its varint length first), into the scratch buffer when one is given (snappyjs's messages, as its uncompress gives them). */
function hex32(n: number): string {
  return n.toString(16).padStart(8, '0');
}
