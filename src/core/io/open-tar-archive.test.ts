import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bytesSource, isDecodeError, openSavepointInput, readAll, type ByteSource } from './index';
import { openTarArchive } from './open-tar-archive';
import { openTarGzArchive } from './open-tar-gz-archive';

interface Member {
  name: string;
  data?: Uint8Array;
  type?: string;
  prefix?: string;
  /** GNU magic ("ustar  \0") instead of POSIX ("ustar\0" "00") */
  gnu?: boolean;
  /** the size written in the header, when it is not the data's (a pax size record gives the real one) */
  headerSize?: number;
}

function header(m: Member, size: number): Uint8Array {
  const h = new Uint8Array(512);
  const put = (s: string, at: number): void => h.set(strToU8(s).subarray(0, Math.min(s.length, 512 - at)), at);
  put(m.name, 0);
  put('0000644\0', 100);
  put('0000000\0', 108);
  put('0000000\0', 116);
  put(size.toString(8).padStart(11, '0') + '\0', 124);
  put('00000000000\0', 136);
  h[156] = (m.type ?? '0').charCodeAt(0);
  if (m.gnu) put('ustar  \0', 257);
  else {
    put('ustar\0', 257);
    put('00', 263);
  }
  if (m.prefix) put(m.prefix, 345);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  put(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

function buildTar(members: Member[], { end = true } = {}): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const m of members) {
    const data = m.data ?? new Uint8Array(0);
    parts.push(header(m, m.headerSize ?? data.length), data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  if (end) parts.push(new Uint8Array(1024));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let q = 0;
  for (const p of parts) {
    out.set(p, q);
    q += p.length;
  }
  return out;
}
const text = (s: string): Uint8Array => strToU8(s);
function pax(records: Record<string, string>): Uint8Array {
  let s = '';
  for (const [k, v] of Object.entries(records)) {
    const body = ` ${k}=${v}\n`;
    const n = strToU8(body).length; // the length counts bytes, not characters
    let len = n + 1;
    while (String(len).length + n !== len) len = String(len).length + n;
    s += `${len}${body}`;
  }
  return text(s);
}

describe('openTarArchive', () => {
  it('lists ustar members (with prefix), GNU long names and pax paths; skips directories and links', async () => {
    const longName = `sp/${'x'.repeat(150)}`;
    const tar = buildTar([
      { name: 'sp/', type: '5' },
      { name: '_metadata', prefix: 'sp', data: text('meta') },
      { name: '././@LongLink', type: 'L', data: text(`${longName}\0`), gnu: true },
      { name: 'truncated-name', data: text('long'), gnu: true },
      { name: 'PaxHeaders/x', type: 'x', data: pax({ path: 'sp/päx-name', mtime: '1' }) },
      { name: 'short', data: text('pax') },
      { name: 'sp/link', type: '2' },
    ]);
    const listing = await openTarArchive(bytesSource('sp.tar', tar));
    expect(listing.files.map((f) => [f.path, f.source.name, f.source.size])).toEqual([
      ['sp/_metadata', 'sp.tar!/sp/_metadata', 4],
      [longName, `sp.tar!/${longName}`, 4],
      ['sp/päx-name', 'sp.tar!/sp/päx-name', 3],
    ]);
    expect(await readAll(listing.files[1]!.source)).toEqual(text('long'));
    expect(listing.warnings).toEqual(["ignored tar member 'sp/link': it is a symbolic link, not a regular file"]);
  });

  it("a pax size record overrides the header's size; a malformed one is located", async () => {
    const state = new Uint8Array(1500).map((_, i) => i % 253);
    const tar = buildTar([
      { name: 'sp/_metadata', data: text('meta') },
      { name: 'PaxHeaders/s', type: 'x', data: pax({ size: String(state.length) }) },
      { name: 'sp/state', data: state, headerSize: 0 },
      { name: 'sp/after', data: text('after') },
    ]);
    const listing = await openTarArchive(bytesSource('sp.tar', tar));
    expect(listing.files.map((f) => [f.path, f.source.size])).toEqual([
      ['sp/_metadata', 4],
      ['sp/state', 1500],
      ['sp/after', 5],
    ]);
    expect(await readAll(listing.files[1]!.source)).toEqual(state);
    expect(await readAll(listing.files[2]!.source)).toEqual(text('after'));
    const bad = buildTar([
      { name: 'PaxHeaders/s', type: 'x', data: pax({ size: '12x' }) },
      { name: 'sp/_metadata', data: text('meta') },
    ]);
    const e = (await openTarArchive(bytesSource('bad.tar', bad)).catch((x: unknown) => x)) as Error;
    expect(e.message).toBe('expected a pax size record of decimal digits, found "12x" — at bad.tar, offset 512 (0x200)');
  });

  it('members are range sources into the tar: reads touch only the requested bytes', async () => {
    const payload = new Uint8Array(3000).map((_, i) => i % 251);
    const tar = buildTar([
      { name: 'a/_metadata', data: text('m') },
      { name: 'a/s', data: payload },
    ]);
    const inner = bytesSource('a.tar', tar);
    const reads: [number, number][] = [];
    const counting: ByteSource = { name: 'a.tar', size: inner.size, read: (o, l) => (reads.push([o, l]), inner.read(o, l)) };
    const listing = await openTarArchive(counting);
    // a header right after the previous read doubles the read-ahead; one past a larger member starts again at 512
    expect(reads).toEqual([
      [0, 512],
      [1024, 1024],
      [1024 + 512 + 3072, 512],
    ]);
    reads.length = 0;
    expect(await listing.files[1]!.source.read(100, 5)).toEqual(payload.subarray(100, 105));
    expect(reads).toEqual([[1536 + 100, 5]]);
  });

  it('100,000 small members (all of one name) are listed in a few hundred reads, the last of the name used', async () => {
    const one = header({ name: 'sp/x' }, 0);
    const tar = new Uint8Array(512 * 100_000 + 512 + 512 + 1024);
    for (let i = 0; i < 100_000; i++) tar.set(one, 512 * i);
    tar.set(header({ name: 'sp/x' }, 1), 512 * 100_000);
    tar[512 * 100_001] = 7;
    const inner = bytesSource('many.tar', tar);
    let reads = 0;
    const listing = await openTarArchive({ name: 'many.tar', size: inner.size, read: (o, l) => (reads++, inner.read(o, l)) });
    expect(listing.files.map((f) => [f.path, f.source.size])).toEqual([['sp/x', 1]]);
    expect(listing.warnings).toEqual(["tar member 'sp/x' appears more than once; the last one is used"]);
    expect(reads).toBeLessThan(100);
  });

  it('drops members with .. or absolute paths with a warning', async () => {
    const tar = buildTar([
      { name: '../../etc/cron', data: text('x') },
      { name: '/abs', data: text('y') },
      { name: 'ok', data: text('z') },
    ]);
    const listing = await openTarArchive(bytesSource('t.tar', tar));
    expect(listing.files.map((f) => f.path)).toEqual(['ok']);
    expect(listing.warnings).toEqual(["ignored tar member '../../etc/cron': it contains a '..' segment", "ignored tar member '/abs': it is an absolute path"]);
  });

  it('reports a damaged header by its checksum, and a member running past the end', async () => {
    const tar = buildTar([
      { name: 'a', data: text('abc') },
      { name: 'b', data: text('def') },
    ]);
    tar[1024 + 1] = 0x41;
    const e = await openTarArchive(bytesSource('bad.tar', tar)).catch((x: unknown) => x as Error);
    expect(isDecodeError(e) && e.code).toBe('corrupt-archive');
    expect((e as Error).message).toBe(
      'expected tar header checksum 3203 (the sum of its bytes), found 3138 in its checksum field: the tar is damaged or this is not a tar header — at bad.tar, offset 1024 (0x400)',
    );

    const cut = buildTar([{ name: 'a', data: new Uint8Array(2000) }], { end: false }).subarray(0, 1000);
    await expect(openTarArchive(bytesSource('cut.tar', cut))).rejects.toThrow(
      'expected cut.tar!/a (2000 bytes at offset 512) inside the 1000-byte cut.tar, found it runs past the end — at cut.tar, offset 512 (0x200)',
    );
    const half = buildTar([{ name: 'a', data: text('x') }]).subarray(0, 1024 + 100);
    await expect(openTarArchive(bytesSource('half.tar', half))).rejects.toThrow(
      'expected a 512-byte tar header, found 100 bytes — at half.tar, offset 1024 (0x400)',
    );
  });

  it('warns about a tar without end-of-archive blocks', async () => {
    const listing = await openTarArchive(bytesSource('t.tar', buildTar([{ name: 'a', data: text('x') }], { end: false })));
    expect(listing.files.map((f) => f.path)).toEqual(['a']);
    expect(listing.warnings).toEqual(['tar t.tar ends without its end-of-archive blocks (it may be truncated)']);
  });
});

describe('openTarGzArchive', () => {
  it('gunzips as a stream and lists the same members; keeps them in memory within the budget', async () => {
    const tar = buildTar([
      { name: 'sp/_metadata', data: text('meta') },
      { name: 'sp/s1', data: text('state one') },
    ]);
    const listing = await openTarGzArchive(bytesSource('sp.tgz', gzipSync(tar)));
    expect(listing.kind).toBe('tar.gz');
    expect(await Promise.all(listing.files.map(async (f) => [f.path, new TextDecoder().decode(await readAll(f.source))]))).toEqual([
      ['sp/_metadata', 'meta'],
      ['sp/s1', 'state one'],
    ]);
    expect(listing.warnings).toEqual([]);
  });

  it('past the memory budget, members are re-read from the gzip stream on demand (with a warning)', async () => {
    const payload = new Uint8Array(5000).map((_, i) => (i * 7) % 256);
    const tar = buildTar([
      { name: 'sp/_metadata', data: text('meta') },
      { name: 'sp/big', data: payload },
    ]);
    const listing = await openTarGzArchive(bytesSource('sp.tgz', gzipSync(tar)), { maxBufferedBytes: 100 });
    expect(await listing.files[1]!.source.read(4000, 10)).toEqual(payload.subarray(4000, 4010));
    expect(listing.warnings).toEqual([
      'sp.tgz holds more than 100 bytes; 1 member(s) are re-read from the start of the gzip stream on demand (slow): extract the archive or use a zip for large savepoints',
    ]);
  });

  it('refuses a gzip bomb by its expansion ratio and by its total size', async () => {
    const bomb = gzipSync(new Uint8Array(4 * 1024 * 1024));
    const e = await openTarGzArchive(bytesSource('bomb.tgz', bomb)).catch((x: unknown) => x as Error);
    expect(isDecodeError(e) && e.code).toBe('limit-exceeded');
    expect((e as Error).message).toMatch(
      /^expected the gzip stream to expand at most 200:1, found \d+ bytes from \d+ compressed bytes: refusing a possible gzip bomb — at bomb\.tgz, offset \d+/,
    );
    const tar = buildTar([{ name: 'a', data: new Uint8Array(4000).map((_, i) => i % 256) }]);
    await expect(openTarGzArchive(bytesSource('t.tgz', gzipSync(tar)), { maxTotalBytes: 2048 })).rejects.toThrow(
      /^expected the gzip stream to expand to at most 2048 bytes, found more: refusing a possible gzip bomb/,
    );
  });

  it("checks each gzip member's trailer (CRC-32 and size), which fflate does not: a damaged member, a wrong size, a missing trailer", async () => {
    const tar = buildTar([
      { name: 'sp/_metadata', data: text('meta') },
      { name: 'sp/s1', data: new Uint8Array(3000).map((_, i) => (i * 13) % 256) },
    ]);
    const gz = gzipSync(tar);
    const open = (bytes: Uint8Array) =>
      openTarGzArchive(bytesSource('sp.tgz', bytes)).catch((x: unknown) => (isDecodeError(x) ? `${x.code}: ${x.message}` : x));
    // two members (as pigz or a concatenation writes them) are fine
    const two = Uint8Array.from([...gzipSync(tar.subarray(0, 1024)), ...gzipSync(tar.subarray(1024))]);
    expect((await openTarGzArchive(bytesSource('two.tgz', two))).files.map((f) => f.path)).toEqual(['sp/_metadata', 'sp/s1']);
    const crc = gz.slice();
    crc[crc.length - 8] ^= 0x01;
    expect(await open(crc)).toMatch(
      /^corrupt-compression: expected gzip member #1 \(from offset 0\) to end with the CRC-32 0x[0-9a-f]{8} and size 5632 of what it inflates to, found CRC-32 0x[0-9a-f]{8} and size 5632: the member is damaged or its trailer is missing — at sp\.tgz, offset \d+/,
    );
    const size = gz.slice();
    size[size.length - 4] ^= 0x01;
    expect(await open(size)).toMatch(/found CRC-32 0x[0-9a-f]{8} and size 5633: the member is damaged or its trailer is missing/);
    expect(await open(gz.subarray(0, gz.length - 8))).toMatch(
      /^corrupt-compression: expected gzip member #1 \(from offset 0\) to end with the CRC-32 .*: the member is damaged or its trailer is missing/,
    );
    const firstOfTwo = two.slice();
    firstOfTwo[gzipSync(tar.subarray(0, 1024)).length - 7] ^= 0x01;
    expect(await open(firstOfTwo)).toMatch(/^corrupt-compression: expected gzip member #1 \(from offset 0\) to end with the CRC-32/);
  });

  it('reports corrupt gzip data', async () => {
    const gz = gzipSync(buildTar([{ name: 'a', data: text('x') }]));
    gz.fill(0xff, 12, 20);
    const e = await openTarGzArchive(bytesSource('bad.tgz', gz)).catch((x: unknown) => x as Error);
    expect(isDecodeError(e) && e.code).toBe('corrupt-compression');
    expect((e as Error).message).toMatch(
      /^expected DEFLATE data in gzip member #1 \(from offset 0\), found data that does not inflate \(.+\) in compressed bytes 0–\d+ — at bad\.tgz, offset 0 \(0x0\)$/,
    );
  });

  it('says what is wrong with a gzip header, trailing data and a truncated stream, and where', async () => {
    const gz = gzipSync(buildTar([{ name: 'a', data: text('x'.repeat(3000)) }]));
    const message = async (bytes: Uint8Array) => ((await openTarGzArchive(bytesSource('sp.tgz', bytes)).catch((x: unknown) => x)) as Error).message;
    const withHeader = (flags: number, rest: Uint8Array) => {
      const header = gz.slice(0, 10);
      header[3] = flags;
      const out = new Uint8Array(10 + rest.length);
      out.set(header);
      out.set(rest, 10);
      return out;
    };
    expect(await message(withHeader(4, new Uint8Array([0xff, 0xff, ...gz.subarray(10, 40)])))).toBe(
      'expected an extra field (FEXTRA) of 65535 bytes in the header of gzip member #1, found the file ends 30 bytes after its length — at sp.tgz, offset 10 (0xa)',
    );
    expect(await message(withHeader(8, new Uint8Array(50).fill(0x61)))).toBe(
      'expected the file name (FNAME) in the header of gzip member #1 to end with a NUL byte, found none before the end of the file — at sp.tgz, offset 10 (0xa)',
    );
    const method = gz.slice();
    method[2] = 7;
    expect(await message(method)).toBe('expected gzip member #1 to use compression method 8 (DEFLATE), found method 7 — at sp.tgz, offset 2 (0x2)');
    const junk = new Uint8Array([...gz, ...text('garbage!')]);
    expect(await message(junk)).toBe(
      `expected another gzip member (1f 8b) or the end of the file after gzip member #1 (from offset 0), which ends at offset ${gz.length}, found 8 bytes of trailing data starting 67 61 72 62 — at sp.tgz, offset ${gz.length} (0x${gz.length.toString(16)})`,
    );
    const half = gz.length >> 1;
    expect(await message(gz.subarray(0, half))).toBe(
      `expected the rest of gzip member #1 (from offset 0), found the file ends at offset ${half}: the archive is truncated — at sp.tgz, offset ${half} (0x${half.toString(16)})`,
    );
  });

  it('openSavepointInput detects tar.gz by its magic bytes and roots the savepoint at _metadata', async () => {
    const tar = buildTar([
      { name: 'outer/sp/_metadata', data: text('meta') },
      { name: 'outer/sp/uuid-1', data: text('s') },
      { name: 'outer/readme', data: text('r') },
    ]);
    const files = await openSavepointInput({ kind: 'source', source: bytesSource('upload.bin', gzipSync(tar)) });
    expect(files.metadata.name).toBe('upload.bin!/outer/sp/_metadata');
    expect(files.resolveRelative('uuid-1')?.name).toBe('upload.bin!/outer/sp/uuid-1');
    expect(files.resolveRelative('../readme')).toBeUndefined();
    expect(files.warnings).toEqual(["1 file of upload.bin outside the _metadata folder 'outer/sp' is ignored"]);
  });
});

describe('gzip that holds no tar', () => {
  it('a gzipped _metadata and other gzip data get specific messages', async () => {
    const meta = new Uint8Array(600);
    meta.set([0x49, 0x60, 0x67, 0x2d]);
    await expect(openTarGzArchive(bytesSource('m.gz', gzipSync(meta)))).rejects.toThrow(
      'This is a gzip-compressed _metadata file, not a .tar.gz: gunzip it first, or archive the savepoint folder as .zip/.tar/.tar.gz — at m.gz',
    );
    await expect(openTarGzArchive(bytesSource('x.gz', gzipSync(new Uint8Array(600).fill(3))))).rejects.toThrow(
      'expected a .tar.gz (a tar archive inside the gzip stream), found gzip-compressed data that is not a tar archive — at x.gz',
    );
  });
});
