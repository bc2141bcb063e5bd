import { deflateSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bytesSource, isDecodeError, readAll, type ByteSource } from './index';
import { computeCrc32 } from './compute-crc32';
import { openZipArchive } from './open-zip-archive';

/** Little-endian record builder for hand-made zips. */
class Le {
  private bytes: number[] = [];
  get length(): number {
    return this.bytes.length;
  }
  u16(v: number): this {
    this.bytes.push(v & 0xff, (v >>> 8) & 0xff);
    return this;
  }
  u32(v: number): this {
    this.bytes.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
    return this;
  }
  u64(v: number): this {
    return this.u32(v % 2 ** 32).u32(Math.floor(v / 2 ** 32));
  }
  raw(b: Uint8Array | number[]): this {
    this.bytes.push(...b);
    return this;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

interface HandEntry {
  name: string;
  data: Uint8Array;
  method?: number;
  flags?: number;
  /** declared uncompressed size (default: the real one) */
  uncompressedSize?: number;
  crc?: number;
}

/** Builds a zip by hand; with zip64 every size/offset goes through Zip64 extra fields and records. */
function buildZip(entries: HandEntry[], { zip64 = false } = {}): Uint8Array {
  const w = new Le();
  const offsets: number[] = [];
  const stored = entries.map((e) => (e.method === 8 ? deflateSync(e.data) : e.data));
  entries.forEach((e, i) => {
    offsets.push(w.length);
    const name = strToU8(e.name);
    w.u32(0x04034b50)
      .u16(45)
      .u16(e.flags ?? 0)
      .u16(e.method ?? 0)
      .u16(0)
      .u16(0)
      .u32(e.crc ?? computeCrc32(e.data));
    w.u32(stored[i]!.length)
      .u32(e.uncompressedSize ?? e.data.length)
      .u16(name.length)
      .u16(0)
      .raw(name)
      .raw(stored[i]!);
  });
  const cdOffset = w.length;
  entries.forEach((e, i) => {
    const name = strToU8(e.name);
    const extra = zip64
      ? new Le()
          .u16(1)
          .u16(24)
          .u64(e.uncompressedSize ?? e.data.length)
          .u64(stored[i]!.length)
          .u64(offsets[i]!)
          .finish()
      : new Uint8Array(0);
    w.u32(0x02014b50)
      .u16(45)
      .u16(45)
      .u16(e.flags ?? 0)
      .u16(e.method ?? 0)
      .u16(0)
      .u16(0)
      .u32(e.crc ?? computeCrc32(e.data));
    if (zip64) w.u32(0xffffffff).u32(0xffffffff);
    else w.u32(stored[i]!.length).u32(e.uncompressedSize ?? e.data.length);
    w.u16(name.length)
      .u16(extra.length)
      .u16(0)
      .u16(0)
      .u16(0)
      .u32(0)
      .u32(zip64 ? 0xffffffff : offsets[i]!)
      .raw(name)
      .raw(extra);
  });
  const cdSize = w.length - cdOffset;
  if (zip64) {
    const recOffset = w.length;
    w.u32(0x06064b50).u64(44).u16(45).u16(45).u32(0).u32(0).u64(entries.length).u64(entries.length).u64(cdSize).u64(cdOffset);
    w.u32(0x07064b50).u32(0).u64(recOffset).u32(1);
    w.u32(0x06054b50).u16(0).u16(0).u16(0xffff).u16(0xffff).u32(0xffffffff).u32(0xffffffff).u16(0);
  } else {
    w.u32(0x06054b50).u16(0).u16(0).u16(entries.length).u16(entries.length).u32(cdSize).u32(cdOffset).u16(0);
  }
  return w.finish();
}

async function errorOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

const text = (s: string): Uint8Array => strToU8(s);

describe('openZipArchive', () => {
  it('lists STORED and DEFLATE entries made by fflate and reads them back, dropping directories', async () => {
    const big = text('Here be dragons! '.repeat(5000));
    const zip = zipSync({ 'sp/_metadata': [text('meta'), { level: 0 }], 'sp/abc': [big, { level: 6 }], 'sp/sub/': new Uint8Array(0) });
    const listing = await openZipArchive(bytesSource('sp.zip', zip));
    expect(listing.files.map((f) => [f.path, f.source.name, f.source.size])).toEqual([
      ['sp/_metadata', 'sp.zip!/sp/_metadata', 4],
      ['sp/abc', 'sp.zip!/sp/abc', big.length],
    ]);
    expect(await readAll(listing.files[0]!.source)).toEqual(text('meta'));
    const abc = listing.files[1]!.source;
    expect(await abc.read(17 * 100, 17)).toEqual(text('Here be dragons! '));
    expect(await readAll(abc)).toEqual(big);
    expect(listing.warnings).toEqual([]);
  });

  it("a STORED entry's reads touch only the local header and the requested range", async () => {
    const payload = new Uint8Array(10_000).map((_, i) => i & 0xff);
    const zip = zipSync({ 'a/_metadata': [text('m'), { level: 0 }], 'a/state': [payload, { level: 0 }] });
    const inner = bytesSource('a.zip', zip);
    const reads: [number, number][] = [];
    const counting: ByteSource = { name: inner.name, size: inner.size, read: (o, l) => (reads.push([o, l]), inner.read(o, l)) };
    const listing = await openZipArchive(counting);
    const state = listing.files.find((f) => f.path === 'a/state')!.source;
    reads.length = 0;
    expect(await state.read(5000, 16)).toEqual(payload.subarray(5000, 5016));
    expect(await state.read(9990, 10)).toEqual(payload.subarray(9990, 10_000));
    // fflate writes no local extra fields: the second local header follows the first entry
    const dataStart = 30 + 'a/_metadata'.length + 1 + 30 + 'a/state'.length;
    expect(reads).toEqual([
      [30 + 'a/_metadata'.length + 1, 30],
      [dataStart + 5000, 16],
      [dataStart + 9990, 10],
    ]);
  });

  it('a DEFLATE entry inflates on demand: reading its first bytes fetches only the first compressed slice', async () => {
    let x = 1;
    // xorshift32: incompressible enough that the entry stays about 1 MB compressed
    const noisy = Uint8Array.from({ length: 1_000_000 }, () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x & 0xff));
    const zip = zipSync({ 'sp/state': [noisy, { level: 1 }] });
    const inner = bytesSource('n.zip', zip);
    let bytesRead = 0;
    const counting: ByteSource = { name: inner.name, size: inner.size, read: (o, l) => ((bytesRead += l), inner.read(o, l)) };
    const listing = await openZipArchive(counting);
    bytesRead = 0;
    expect(await listing.files[0]!.source.read(0, 100)).toEqual(noisy.subarray(0, 100));
    expect(zip.length).toBeGreaterThan(900_000);
    expect(bytesRead).toBe(30 + 64 * 1024); // the 30-byte local header, then one 64 KiB compressed slice
    expect(await listing.files[0]!.source.read(999_900, 100)).toEqual(noisy.subarray(999_900));
  });

  it('reads a Zip64 archive (Zip64 EOCD record + locator, sizes and offsets in Zip64 extra fields)', async () => {
    const zip = buildZip(
      [
        { name: 'sp/_metadata', data: text('hello') },
        { name: 'sp/x', data: text('dragons '.repeat(50)), method: 8 },
      ],
      { zip64: true },
    );
    const listing = await openZipArchive(bytesSource('z64.zip', zip));
    expect(listing.files.map((f) => f.path)).toEqual(['sp/_metadata', 'sp/x']);
    expect(await readAll(listing.files[0]!.source)).toEqual(text('hello'));
    expect(await readAll(listing.files[1]!.source)).toEqual(text('dragons '.repeat(50)));
  });

  it('reports a truncated end-of-central-directory record', async () => {
    const zip = buildZip([{ name: 'a', data: text('x') }]);
    const cut = zip.subarray(0, zip.length - 10);
    const e = await errorOf(openZipArchive(bytesSource('cut.zip', cut)));
    expect(isDecodeError(e) && e.code).toBe('truncated');
    expect(e.message).toBe(
      `expected 22 bytes for the zip end-of-central-directory record, found 12 — at cut.zip, offset ${cut.length - 12} (0x${(cut.length - 12).toString(16)})`,
    );
  });

  it('reports a zip without end-of-central-directory record', async () => {
    const e = await errorOf(openZipArchive(bytesSource('junk.zip', new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0, 0]))));
    expect(e.message).toBe(
      'expected a zip end-of-central-directory record (PK\\x05\\x06) in the last 8 bytes, found none: the zip is truncated or damaged — at junk.zip, offset 0 (0x0)',
    );
  });

  it('reports a bad local header signature when the entry is read', async () => {
    const zip = buildZip([{ name: 'a.txt', data: text('abc') }]);
    zip[0] = 0x51;
    const listing = await openZipArchive(bytesSource('bad.zip', zip));
    const e = await errorOf(listing.files[0]!.source.read(0, 3));
    expect(isDecodeError(e) && e.code).toBe('bad-magic');
    expect(e.message).toBe("expected the local header of zip entry 'a.txt' (signature PK\\x03\\x04), found 0x04034b51 — at bad.zip, offset 0 (0x0)");
  });

  it('reports an entry that runs past the end of the zip', async () => {
    const zip = buildZip([{ name: 'a.txt', data: text('abc') }]);
    // central record: compressed size field at cd + 20, uncompressed at cd + 24
    const cd = 30 + 5 + 3;
    zip.set([0xe8, 0x03, 0, 0], cd + 20);
    zip.set([0xe8, 0x03, 0, 0], cd + 24);
    const e = await errorOf(openZipArchive(bytesSource('short.zip', zip)));
    expect(e.message).toBe(
      `expected zip entry 'a.txt' (1000 bytes after a local header at offset 0) inside the ${zip.length}-byte zip, found it runs past the end — at short.zip, offset ${cd} (0x${cd.toString(16)})`,
    );
  });

  it('refuses a zip bomb by its declared ratio, and output past the declared size', async () => {
    const zeros = new Uint8Array(3 * 1024 * 1024);
    const bomb = buildZip([{ name: 'bomb', data: zeros, method: 8 }]);
    const e = await errorOf(openZipArchive(bytesSource('bomb.zip', bomb)));
    expect(isDecodeError(e) && e.code).toBe('limit-exceeded');
    const compressed = deflateSync(zeros).length;
    expect(e.message).toBe(
      `zip entry 'bomb' declares 3145728 bytes from ${compressed} compressed bytes (ratio ${Math.floor(3145728 / compressed)}:1), above the limit of 200:1: refusing a possible zip bomb — at bomb.zip, offset ${30 + 4 + compressed} (0x${(30 + 4 + compressed).toString(16)})`,
    );

    const liar = buildZip([{ name: 'liar', data: new Uint8Array(5000), method: 8, uncompressedSize: 100 }]);
    const listing = await openZipArchive(bytesSource('liar.zip', liar));
    const e2 = await errorOf(listing.files[0]!.source.read(0, 10));
    expect(isDecodeError(e2) && e2.code).toBe('limit-exceeded');
    expect(e2.message).toMatch(
      /^expected 'liar\.zip!\/liar' to inflate to its declared 100 bytes, found it expands past that \(at least \d+ bytes\): refusing a possible zip bomb — at liar\.zip, offset \d+/,
    );
  });

  it('enforces the per-entry size limit on the declared size', async () => {
    const zip = buildZip([{ name: 'big', data: text('x'.repeat(100)) }]);
    const e = await errorOf(openZipArchive(bytesSource('big.zip', zip), { maxEntryBytes: 50 }));
    expect(e.message).toBe(
      "zip entry 'big' declares 100 bytes, above the limit of 50 bytes per entry: refusing a possible zip bomb — at big.zip, offset 133 (0x85)",
    );
  });

  it('finds the end record even when the zip comment contains its signature', async () => {
    const zip = buildZip([{ name: 'a', data: text('x') }]);
    const comment = Uint8Array.from([0x50, 0x4b, 0x05, 0x06, 1, 2, 3]);
    const withComment = new Uint8Array(zip.length + comment.length);
    withComment.set(zip);
    withComment.set([comment.length, 0], zip.length - 2);
    withComment.set(comment, zip.length);
    const listing = await openZipArchive(bytesSource('c.zip', withComment));
    expect(listing.files.map((f) => f.path)).toEqual(['a']);
  });

  it('enforces the overall expansion ratio of the archive', async () => {
    const zip = buildZip([
      { name: 'a', data: new Uint8Array(3000), method: 8 },
      { name: 'b', data: new Uint8Array(3000), method: 8 },
    ]);
    await expect(openZipArchive(bytesSource('r.zip', zip), { ratioFloor: 1000, maxRatio: 20 })).rejects.toThrow(
      /^zip entry 'a' declares 3000 bytes from \d+ compressed bytes/,
    );
    await expect(openZipArchive(bytesSource('r.zip', zip), { ratioFloor: 4000, maxRatio: 20 })).rejects.toThrow(
      `expected the zip to expand at most 20:1, found 6000 declared bytes in a ${zip.length}-byte zip: refusing a possible zip bomb — at r.zip`,
    );
  });

  it('drops entries with .. or absolute paths with a warning', async () => {
    const zip = buildZip([
      { name: 'sp/_metadata', data: text('m') },
      { name: '../evil', data: text('x') },
      { name: '/etc/passwd', data: text('y') },
      { name: 'sp/./ok', data: text('z') },
    ]);
    const listing = await openZipArchive(bytesSource('t.zip', zip));
    expect(listing.files.map((f) => f.path)).toEqual(['sp/_metadata', 'sp/ok']);
    expect(listing.warnings).toEqual(["ignored zip entry '../evil': it contains a '..' segment", "ignored zip entry '/etc/passwd': it is an absolute path"]);
  });

  it('refuses encrypted entries and unsupported methods', async () => {
    const enc = buildZip([{ name: 'secret', data: text('x'), flags: 1 }]);
    const e = await errorOf(openZipArchive(bytesSource('enc.zip', enc)));
    expect(isDecodeError(e) && e.code).toBe('unsupported-format');
    expect(e.message).toBe(
      "zip entry 'secret' is encrypted; encrypted zips are not supported: extract it or re-zip without a password — at enc.zip, offset 37 (0x25)",
    );
    const bz = buildZip([{ name: 'b', data: text('x'), method: 12 }]);
    await expect(openZipArchive(bytesSource('bz.zip', bz))).rejects.toThrow(
      "zip entry 'b' uses compression method 12 (bzip2); only STORED (0) and DEFLATE (8) are supported — at bz.zip, offset 32 (0x20)",
    );
  });

  it('reports a CRC-32 mismatch of a deflated entry once it is fully inflated', async () => {
    const zip = buildZip([{ name: 'c', data: text('abcdef'), method: 8, crc: 1234 }]);
    const listing = await openZipArchive(bytesSource('crc.zip', zip));
    await expect(readAll(listing.files[0]!.source)).rejects.toThrow(
      `expected CRC-32 0x000004d2 for 'crc.zip!/c', found 0x${computeCrc32(text('abcdef')).toString(16).padStart(8, '0')}: the entry is damaged — at crc.zip, offset 31 (0x1f)`,
    );
  });

  it('checks the CRC-32 of a STORED entry as it is read from its start on; a read past a gap is not checked', async () => {
    const data = text('0123456789'.repeat(20));
    const zip = buildZip([{ name: 's', data, method: 0, crc: computeCrc32(data) ^ 1 }]);
    const listing = await openZipArchive(bytesSource('stored.zip', zip));
    const source = listing.files[0]!.source;
    // random access in the middle: nothing to check against
    expect(await source.read(50, 10)).toEqual(data.subarray(50, 60));
    expect(await source.read(0, 120)).toEqual(data.subarray(0, 120));
    const damaged = `expected CRC-32 0x${(computeCrc32(data) ^ 1).toString(16).padStart(8, '0')} for 'stored.zip!/s', found 0x${computeCrc32(data).toString(16).padStart(8, '0')}: the entry is damaged — at stored.zip, offset 31 (0x1f)`;
    // the read that completes the entry (from where the check stands) finds the damage, and every later read reports it
    await expect(source.read(100, 100)).rejects.toThrow(damaged);
    await expect(source.read(0, 1)).rejects.toThrow(damaged);
    const intact = await openZipArchive(bytesSource('ok.zip', buildZip([{ name: 's', data, method: 0 }])));
    expect(await readAll(intact.files[0]!.source)).toEqual(data);
  });

  it('reports corrupt DEFLATE data', async () => {
    const zip = buildZip([{ name: 'd', data: text('abcdef'.repeat(10)), method: 8 }]);
    zip.fill(0xff, 31, 36);
    const listing = await openZipArchive(bytesSource('bad.zip', zip));
    const e = await errorOf(readAll(listing.files[0]!.source));
    expect(isDecodeError(e) && e.code).toBe('corrupt-compression');
    expect(e.message).toMatch(/^expected a valid DEFLATE stream for 'bad\.zip!\/d', found corrupt data \(.+\) — at bad\.zip, offset 31 \(0x1f\)$/);
  });
});
