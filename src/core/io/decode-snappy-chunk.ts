import { uncompress } from 'snappyjs';
import { computeMaskedCrc32c } from './compute-crc32';
import { DecodeError } from './decode-error';
import { readU24LE, readU32LE } from './little-endian';
import { readVarintAt, varintCursor } from './varint';
import { formatHex } from './format-hex';

/** The Snappy framing format's stream identifier chunk: FF 06 00 00 "sNaPpY". */
export const SNAPPY_STREAM_IDENTIFIER: readonly number[] = [0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59];
/** Largest uncompressed payload of one data chunk. */
export const SNAPPY_MAX_CHUNK_DATA = 65536;
/** Largest raw block that can encode 64 KiB (32 + n + n/6), plus the 4-byte checksum. */
export const SNAPPY_MAX_COMPRESSED_CHUNK = 32 + SNAPPY_MAX_CHUNK_DATA + Math.floor(SNAPPY_MAX_CHUNK_DATA / 6) + 4;

export type SnappyChecksumMode = 'verify' | 'warn' | 'ignore';

export interface SnappyChunkContext {
  readonly file: string;
  readonly checksums: SnappyChecksumMode;
  readonly warnings: DecodeError[];
}

/** Decoded chunk: `data` for data chunks, undefined for identifier/padding/skippable chunks. */
export interface SnappyChunk {
  readonly type: number;
  /** header + body bytes */
  readonly length: number;
  readonly data?: Uint8Array;
}

/**
 * Length (4-byte header + body) of the chunk at `at`, checked: the header and the whole body must
 * lie before `end`, and a data chunk may not be longer than 64 KiB of data can need.
 */
export function readSnappyChunkLength(bytes: Uint8Array, at: number, end: number, offset: number, file: string): number {
  if (end - at < 4) throw new DecodeError({ code: 'truncated', detail: `expected a 4-byte Snappy chunk header, found ${end - at} bytes`, file, offset });
  const type = bytes[at]!;
  const body = readU24LE(bytes, at + 1);
  if (type === 0x00 || type === 0x01) {
    const maxLen = type === 0x00 ? SNAPPY_MAX_COMPRESSED_CHUNK : SNAPPY_MAX_CHUNK_DATA + 4;
    if (body > maxLen) {
      throw new DecodeError({
        code: 'limit-exceeded',
        detail: `expected a Snappy ${type === 0 ? 'compressed' : 'uncompressed'} chunk of at most ${maxLen} bytes, found length ${body}`,
        file,
        offset,
      });
    }
  }
  if (4 + body > end - at) {
    throw new DecodeError({
      code: 'truncated',
      detail: `expected ${4 + body} bytes for a Snappy chunk of type 0x${formatHex([type])}, found ${end - at}`,
      file,
      offset,
    });
  }
  return 4 + body;
}

/**
 * Decodes the chunk whose 4-byte header starts at `at` in `bytes`; the caller has checked the
 * chunk with readSnappyChunkLength. `offset` is the
 * chunk's absolute offset in the file, for errors.
 */
export function decodeSnappyChunk(bytes: Uint8Array, at: number, offset: number, ctx: SnappyChunkContext): SnappyChunk {
  const type = bytes[at]!;
  const len = readU24LE(bytes, at + 1);
  const body = bytes.subarray(at + 4, at + 4 + len);
  const fail = (code: 'corrupt-compression' | 'bad-magic' | 'limit-exceeded', detail: string, rel = 0): DecodeError =>
    new DecodeError({ code, detail, file: ctx.file, offset: offset + rel });
  if (type === 0xff) {
    const want = SNAPPY_STREAM_IDENTIFIER.slice(4);
    if (len !== 6 || want.some((b, i) => body[i] !== b)) {
      throw fail(
        'bad-magic',
        `expected the Snappy stream identifier chunk ${formatHex(SNAPPY_STREAM_IDENTIFIER, ' ')}, found ${formatHex(bytes.subarray(at, at + Math.min(4 + len, 10)), ' ')}`,
      );
    }
    return { type, length: 4 + len };
  }
  if (type === 0xfe || (type >= 0x80 && type <= 0xfd)) return { type, length: 4 + len };
  if (type !== 0x00 && type !== 0x01) {
    throw fail(
      'corrupt-compression',
      `expected a Snappy chunk of type 0x00 (compressed), 0x01 (uncompressed), 0x80–0xfe (skippable) or 0xff (identifier), found reserved unskippable type 0x${formatHex([type])}`,
    );
  }
  if (len < 4) throw fail('corrupt-compression', `expected a Snappy data chunk of at least 4 bytes (its checksum), found length ${len}`);
  const expectedCrc = readU32LE(body, 0);
  const payload = body.subarray(4);
  const data = type === 0x01 ? payload : decodeSnappyBlock(payload, offset + 8, ctx.file);
  if (ctx.checksums !== 'ignore') {
    const crc = computeMaskedCrc32c(data);
    if (crc !== expectedCrc) {
      const err = fail(
        'corrupt-compression',
        `expected masked CRC-32C 0x${hex8(expectedCrc)} for the chunk's ${data.length} uncompressed bytes, found 0x${hex8(crc)}`,
        4,
      );
      if (ctx.checksums === 'verify') throw err;
      ctx.warnings.push(err);
    }
  }
  return { type, length: 4 + len, data };
}

/**
 * Decodes one raw Snappy block. The varint preamble must declare at most 64 KiB, and the block's
 * elements are measured before decompressing: output past (or short of) the declared length and
 * back-references before the start are errors (snappyjs alone would silently clip or zero-fill).
 */
export function decodeSnappyBlock(block: Uint8Array, offset: number, file: string): Uint8Array {
  const fail = (detail: string, rel: number, code: 'corrupt-compression' | 'limit-exceeded' = 'corrupt-compression'): DecodeError =>
    new DecodeError({ code, detail, file, offset: offset + rel });
  const declared = readVarintAt(block, 0, block.length, 5);
  if (declared < 0) throw fail('expected a varint uncompressed length at the start of the Snappy block, found a truncated or over-long one', 0);
  let p = varintCursor.next;
  if (declared > SNAPPY_MAX_CHUNK_DATA) {
    throw fail(`expected a Snappy chunk to decompress to at most ${SNAPPY_MAX_CHUNK_DATA} bytes, found a declared length of ${declared}`, 0, 'limit-exceeded');
  }
  let produced = 0;
  while (p < block.length) {
    const tagAt = p;
    const tag = block[p++]!;
    let len: number;
    if ((tag & 3) === 0) {
      len = (tag >>> 2) + 1;
      if (len > 60) {
        const extra = len - 60;
        if (p + extra > block.length) throw fail('expected a literal length in the Snappy block, found the block ends', tagAt);
        len = 1;
        for (let i = 0; i < extra; i++) len += block[p + i]! * 256 ** i;
        p += extra;
      }
      if (p + len > block.length) throw fail(`expected ${len} literal bytes in the Snappy block, found ${block.length - p}`, tagAt);
      p += len;
    } else {
      const offBytes = (tag & 3) === 1 ? 1 : (tag & 3) === 2 ? 2 : 4;
      if (p + offBytes > block.length) throw fail('expected a copy offset in the Snappy block, found the block ends', tagAt);
      let back: number;
      if (offBytes === 1) {
        len = ((tag >>> 2) & 7) + 4;
        back = ((tag >>> 5) << 8) | block[p]!;
      } else {
        len = (tag >>> 2) + 1;
        back = offBytes === 2 ? block[p]! | (block[p + 1]! << 8) : readU32LE(block, p);
      }
      p += offBytes;
      if (back === 0 || back > produced) throw fail(`expected a Snappy copy offset within the ${produced} bytes decoded so far, found ${back}`, tagAt);
    }
    produced += len;
    if (produced > declared) throw fail(`expected the Snappy block to expand to its declared ${declared} bytes, found it expands past that`, tagAt);
  }
  if (produced !== declared) throw fail(`expected the Snappy block to expand to its declared ${declared} bytes, found ${produced}`, block.length);
  return uncompress(block, SNAPPY_MAX_CHUNK_DATA);
}

function hex8(v: number): string {
  return v.toString(16).padStart(8, '0');
}
