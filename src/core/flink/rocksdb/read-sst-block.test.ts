import { deflateSync } from 'fflate';
import { compress as compressSnappy } from 'snappyjs';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../io';
import { computeBlockChecksum } from './compute-block-checksum';
import { readSstBlock } from './read-sst-block';
import type { SstFooter } from './read-sst-footer';

const RAW = Uint8Array.from([...new TextEncoder().encode('flink state '.repeat(20)), ...Array.from({ length: 40 }, (_, i) => i)]);
// liblz4 1.9.4 LZ4_compress_default / LZ4_compress_HC (level 9), libzstd 1.5.4 ZSTD_compress (level 3) of RAW
const LZ4 = 'cf666c696e6b207374617465200c00d1f019000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627';
const ZSTD = '28b52ffd601800e501004403666c696e6b20737461746520000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223242526270100e1532509';

const hex = (h: string) => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));
const footer = (checksumType: number, formatVersion = 5): SstFooter => ({
  formatVersion,
  checksumType,
  metaIndex: { offset: 0, size: 0 },
  index: { offset: 0, size: 0 },
  baseContextChecksum: 0,
});

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

/** A block at offset 7 of a file: 7 filler bytes, the stored bytes, the type byte and the checksum. */
function blockFile(stored: Uint8Array, type: number, checksumType: number): { bytes: Uint8Array; size: number } {
  const body = Uint8Array.from([...stored, type]);
  const sum = checksumType === 0 ? 0 : computeBlockChecksum(checksumType, body);
  const bytes = new Uint8Array(7 + body.length + 4);
  bytes.set(body, 7);
  new DataView(bytes.buffer).setUint32(7 + body.length, sum, true);
  return { bytes, size: stored.length };
}

async function read(stored: Uint8Array, type: number, checksumType = 1, formatVersion = 5) {
  const f = blockFile(stored, type, checksumType);
  return readSstBlock(bytesSource('t.sst', f.bytes), 't.sst', footer(checksumType, formatVersion), { offset: 7, size: f.size }, 'data block');
}

const prefixed = (b: Uint8Array) => Uint8Array.from([...varint(RAW.length), ...b]);

describe('readSstBlock', () => {
  it.each([
    ['none', 0, RAW],
    ['Snappy', 1, compressSnappy(RAW)],
    ['zlib (raw deflate, size prefix)', 2, prefixed(deflateSync(RAW))],
    ['LZ4 (size prefix)', 4, prefixed(hex(LZ4))],
    ['LZ4HC (size prefix)', 5, prefixed(hex(LZ4))],
    ['ZSTD (size prefix)', 7, prefixed(hex(ZSTD))],
  ])('decompresses a %s block', async (_name, type, stored) => {
    const block = await read(stored as Uint8Array, type as number);
    expect(block.bytes).toEqual(RAW);
    expect([block.offset, block.stored]).toEqual([7, type === 0]);
  });

  it.each([1, 2, 3, 4])('verifies checksum type %i and names a mismatch with its offset', async (checksumType) => {
    expect((await read(RAW, 0, checksumType)).bytes.length).toBe(RAW.length);
    const f = blockFile(RAW, 0, checksumType);
    f.bytes[10] = f.bytes[10]! ^ 1;
    const names = ['', 'CRC32C', 'xxHash', 'xxHash64', 'XXH3'];
    await expect(readSstBlock(bytesSource('t.sst', f.bytes), 't.sst', footer(checksumType), { offset: 7, size: f.size }, 'data block')).rejects.toThrow(
      new RegExp(
        `^expected the data block's ${names[checksumType]} checksum 0x[0-9a-f]{8} \\(of its 280 bytes and type byte\\), found 0x[0-9a-f]{8}: the block is corrupt — at t\\.sst, offset 288 \\(0x120\\)$`,
      ),
    );
  });

  it('refuses a corrupt LZ4 block with what went wrong', async () => {
    const bad = hex(LZ4);
    bad[13] = 0xff; // the first match offset now points before the output
    bad[14] = 0x7f;
    await expect(read(prefixed(bad), 4)).rejects.toThrow(
      'expected a LZ4 compressed data block, found a match offset 32767 before the start of the output (at output byte 12) — at t.sst, offset 7 (0x7)',
    );
    await expect(read(Uint8Array.from([...varint(500), ...hex(LZ4)]), 4)).rejects.toThrow(
      'expected a LZ4 compressed data block, found 280 decompressed bytes where the block declares 500',
    );
  });

  it('refuses corrupt Snappy and ZSTD blocks, and a block past the end of the file', async () => {
    await expect(read(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2]), 1)).rejects.toThrow(
      /^expected a Snappy compressed data block, found bytes Snappy cannot decompress/,
    );
    await expect(read(prefixed(hex(ZSTD).subarray(0, 20)), 7)).rejects.toThrow(/^expected a ZSTD compressed data block, found bytes that do not decompress/);
    await expect(readSstBlock(bytesSource('t.sst', new Uint8Array(20)), 't.sst', footer(1), { offset: 7, size: 10 }, 'index block')).rejects.toThrow(
      'expected a index block of 10 bytes and its 5-byte trailer at offset 7, found a 20-byte file — at t.sst, offset 7 (0x7)',
    );
  });
});
