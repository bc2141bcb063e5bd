import { compress } from 'snappyjs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesSource, decodeSnappyFramed, isDecodeError, SnappyFramedReader, type ByteSource } from './index';
import { computeMaskedCrc32c } from './compute-crc32';
import { writeSnappyFramed, writeSnappyFramedSegments } from './write-snappy-framed';

function pseudoRandom(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
function compressible(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = 'Here be dragons! '.charCodeAt(i % 17);
  return out;
}
/** A data chunk built by hand: type, 3-byte LE length, masked CRC of `crcOf`, payload. */
function chunk(type: number, payload: Uint8Array, crcOf: Uint8Array): Uint8Array {
  const c = new Uint8Array(8 + payload.length);
  const len = 4 + payload.length;
  c.set([type, len & 0xff, (len >> 8) & 0xff, len >> 16], 0);
  const crc = computeMaskedCrc32c(crcOf);
  c.set([crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24], 4);
  c.set(payload, 8);
  return c;
}
const ID = [0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59];
function cat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let q = 0;
  for (const p of parts) {
    out.set(p, q);
    q += p.length;
  }
  return out;
}
function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('Snappy framing: round trips', () => {
  it.each(['auto', 'compressed', 'uncompressed'] as const)('writes and reads back %s chunks across several 64 KiB chunks', (mode) => {
    const data = cat(compressible(100_000), pseudoRandom(70_000));
    const framed = writeSnappyFramed(data, { chunks: mode });
    expect([...framed.subarray(0, 10)]).toEqual(ID);
    const { data: back, warnings } = decodeSnappyFramed(framed, { identifier: 'required', checksums: 'verify' });
    expect(back).toEqual(data);
    expect(warnings).toEqual([]);
  });

  it('round-trips arbitrary data with any chunk size and mode (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 3000 }),
        fc.integer({ min: 1, max: 700 }),
        fc.constantFrom('auto', 'compressed', 'uncompressed'),
        (data, chunkSize, chunks) => {
          const framed = writeSnappyFramed(data, { chunkSize, chunks });
          expect(decodeSnappyFramed(framed, { identifier: 'required', checksums: 'verify' }).data).toEqual(data);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("'auto' compresses compressible data and stores random data uncompressed (xerial's 0.85 rule)", () => {
    const c = writeSnappyFramed(compressible(1000));
    expect(c[10]).toBe(0x00);
    expect(c.length).toBeLessThan(200);
    const r = writeSnappyFramed(pseudoRandom(1000));
    expect(r[10]).toBe(0x01);
    expect(r.length).toBe(10 + 8 + 1000);
  });

  it('incremental reader hands out exact byte counts across chunk boundaries and reports the end', async () => {
    const data = cat(compressible(65_536 + 10), new Uint8Array([0, 0, 0, 42, 0xff, 0xff]));
    const framed = writeSnappyFramed(data, { chunkSize: 1000 });
    const r = new SnappyFramedReader(bytesSource('kg', cat(new Uint8Array(5), framed)), { offset: 5, identifier: 'required' });
    expect(await r.readBytes(999)).toEqual(data.subarray(0, 999));
    expect(await r.readBytes(2)).toEqual(data.subarray(999, 1001)); // spans two chunks
    await r.readBytes(65_536 + 10 - 1001);
    expect(await r.readI32('length')).toBe(42);
    expect(await r.readU16('end mark')).toBe(0xffff);
    expect(r.position).toBe(data.length);
    expect(await r.atEnd()).toBe(true);
    await expect(r.readBytes(1, 'state id')).rejects.toThrow(
      'expected 1 bytes for state id in the Snappy stream, found it ends after 0 — at kg, offset ' + (5 + framed.length),
    );
  });

  it('operator-state layout: segments start on fresh chunks; reading at a segment offset needs no identifier', async () => {
    const a = compressible(300);
    const b = pseudoRandom(200);
    const header = new Uint8Array([1, 2, 3]);
    const { bytes, segmentOffsets } = writeSnappyFramedSegments([a, b], { chunkSize: 128 });
    expect(segmentOffsets[0]).toBe(10);
    const file = cat(header, bytes);
    const r = new SnappyFramedReader(bytesSource('op', file), { offset: header.length + segmentOffsets[1]! });
    expect(await r.readBytes(200)).toEqual(b);
    expect(r.chunkOffset).toBeGreaterThanOrEqual(header.length + segmentOffsets[1]!);
    await expect(
      new SnappyFramedReader(bytesSource('op', file), { offset: header.length + segmentOffsets[1]!, identifier: 'required' }).readBytes(1),
    ).rejects.toThrow(
      `expected a Snappy framed stream starting with the stream identifier chunk (type 0xff), found a chunk of type 0x01 — at op, offset ${header.length + segmentOffsets[1]!}`,
    );
  });

  it('skips padding (0xfe) and skippable (0x80–0xfd) chunks, and a repeated identifier', () => {
    const data = compressible(50);
    const framed = cat(ID, [0xfe, 2, 0, 0, 0, 0], [0x80, 1, 0, 0, 9], chunk(0x01, data, data), ID, chunk(0x00, compress(data), data));
    expect(decodeSnappyFramed(framed).data).toEqual(cat(data, data));
  });
});

describe('Snappy framing: corrupt input', () => {
  it('rejects a wrong stream identifier with its bytes', () => {
    const bad = cat([0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x58]);
    const e = catchError(() => decodeSnappyFramed(bad, { file: 'kg' }));
    expect(e.message).toBe(
      'expected the Snappy stream identifier chunk ff 06 00 00 73 4e 61 50 70 59, found ff 06 00 00 73 4e 61 50 70 58 — at kg, offset 0 (0x0)',
    );
  });

  it('rejects a compressed chunk that declares more than 64 KiB before decompressing', () => {
    // varint 70000 = f0 a2 04, then a 1-byte literal
    const block = new Uint8Array([0xf0, 0xa2, 0x04, 0x00, 0x41]);
    const framed = cat(ID, chunk(0x00, block, new Uint8Array([0x41])));
    const e = catchError(() => decodeSnappyFramed(framed, { file: 'kg' }));
    expect(isDecodeError(e) && e.code).toBe('limit-exceeded');
    expect(e.message).toBe('expected a Snappy chunk to decompress to at most 65536 bytes, found a declared length of 70000 — at kg, offset 18 (0x12)');
  });

  it('rejects a chunk whose length field is longer than any 64 KiB chunk can be', () => {
    const framed = cat(ID, [0x01, 0x10, 0x00, 0x02]); // length 0x020010 = 131088
    expect(() => decodeSnappyFramed(framed, { file: 'kg' })).toThrow(
      'expected a Snappy uncompressed chunk of at most 65540 bytes, found length 131088 — at kg, offset 10 (0xa)',
    );
  });

  it('rejects a block that expands past its declared size', () => {
    // declares 3 bytes, holds a 5-byte literal
    const block = new Uint8Array([0x03, 0x10, 1, 2, 3, 4, 5]);
    const framed = cat(ID, chunk(0x00, block, new Uint8Array([1, 2, 3])));
    expect(() => decodeSnappyFramed(framed, { file: 'kg' })).toThrow(
      'expected the Snappy block to expand to its declared 3 bytes, found it expands past that — at kg, offset 19 (0x13)',
    );
  });

  it('rejects a block that ends short of its declared size, and a copy reaching before the start', () => {
    const short = cat(ID, chunk(0x00, new Uint8Array([0x05, 0x04, 1, 2]), new Uint8Array([1, 2])));
    expect(() => decodeSnappyFramed(short, { file: 'kg' })).toThrow(
      'expected the Snappy block to expand to its declared 5 bytes, found 2 — at kg, offset 22 (0x16)',
    );
    const back = cat(ID, chunk(0x00, new Uint8Array([0x08, 0x00, 0x41, 0x11, 0x05]), new Uint8Array(8)));
    expect(() => decodeSnappyFramed(back, { file: 'kg' })).toThrow(
      'expected a Snappy copy offset within the 1 bytes decoded so far, found 5 — at kg, offset 21 (0x15)',
    );
  });

  it('rejects reserved unskippable chunk types', () => {
    const framed = cat(ID, [0x05, 0x00, 0x00, 0x00]);
    expect(() => decodeSnappyFramed(framed, { file: 'kg' })).toThrow(
      'expected a Snappy chunk of type 0x00 (compressed), 0x01 (uncompressed), 0x80–0xfe (skippable) or 0xff (identifier), found reserved unskippable type 0x05 — at kg, offset 10 (0xa)',
    );
  });

  it('reports a truncated chunk', async () => {
    const framed = writeSnappyFramed(pseudoRandom(100)).subarray(0, 60);
    expect(() => decodeSnappyFramed(framed, { file: 'kg' })).toThrow('expected 108 bytes for a Snappy chunk of type 0x01, found 50 — at kg, offset 10 (0xa)');
    await expect(new SnappyFramedReader(bytesSource('kg', framed)).readBytes(10)).rejects.toThrow(
      'expected 108 bytes for a Snappy chunk of type 0x01, found 50 — at kg, offset 10 (0xa)',
    );
  });

  it("CRC-32C mismatches are warnings by default (Flink doesn't verify) and errors with checksums: 'verify'", async () => {
    const data = compressible(40);
    const framed = cat(ID, chunk(0x01, data, new Uint8Array([9])));
    const { data: back, warnings } = decodeSnappyFramed(framed, { file: 'kg' });
    expect(back).toEqual(data);
    expect(warnings.map((w) => w.message)).toEqual([
      `expected masked CRC-32C 0x${computeMaskedCrc32c(new Uint8Array([9]))
        .toString(16)
        .padStart(8, '0')} for the chunk's 40 uncompressed bytes, found 0x${computeMaskedCrc32c(data).toString(16).padStart(8, '0')} — at kg, offset 14 (0xe)`,
    ]);
    expect(() => decodeSnappyFramed(framed, { file: 'kg', checksums: 'verify' })).toThrow(/^expected masked CRC-32C/);
    expect(decodeSnappyFramed(framed, { checksums: 'ignore' }).warnings).toEqual([]);
    const r = new SnappyFramedReader(bytesSource('kg', framed));
    await r.readBytes(40);
    expect(r.warnings).toHaveLength(1);
  });

  it('enforces the total output limit', () => {
    const framed = writeSnappyFramed(compressible(5000));
    expect(() => decodeSnappyFramed(framed, { file: 'kg', maxOutputBytes: 4096 })).toThrow(
      'expected a Snappy stream of at most 4096 decompressed bytes, found more — at kg, offset 10 (0xa)',
    );
  });

  it('the incremental reader reads the source in windows, not all at once', async () => {
    const framed = writeSnappyFramed(pseudoRandom(600_000));
    const inner = bytesSource('big', framed);
    let bytesRead = 0;
    const counting: ByteSource = { name: inner.name, size: inner.size, read: (o, l) => ((bytesRead += l), inner.read(o, l)) };
    const r = new SnappyFramedReader(counting);
    await r.readBytes(100);
    expect(bytesRead).toBeLessThanOrEqual(128 * 1024 + 65_540);
  });
});
