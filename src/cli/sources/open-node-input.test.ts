/**
 * openNodeFileSource (ranges, errors, the open-file limit) and HTTP range sources against a local
 * server. openNodeInput over the real savepoints in ../shared: tests/shared-savepoints/open-node-input.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDecodeError, readAll, sliceSource } from '../../core/io';
import { countOpenFileHandles, MAX_OPEN_FILES, openNodeFileSource } from './node-file-source';
import { openNodeInput } from './open-node-input';

describe('openNodeFileSource', () => {
  it('reads exact ranges and rejects reads past the end with the file name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-src-'));
    try {
      const p = join(dir, 'f');
      writeFileSync(
        p,
        Uint8Array.from({ length: 100 }, (_, i) => i),
      );
      const src = await openNodeFileSource(p, 'sp/f');
      expect(src.size).toBe(100);
      expect([...(await src.read(10, 3))]).toEqual([10, 11, 12]);
      const e = await src.read(99, 2).catch((x: unknown) => x);
      expect(isDecodeError(e) && e.message).toBe('expected 2 bytes at offset 99, found a 100-byte file — at sp/f, offset 99 (0x63)');
      // a length from hostile bytes (a key-group offset near 2^32) is refused before any buffer is allocated
      const huge = await src.read(1, 2 ** 32 + 7).catch((x: unknown) => x);
      expect(isDecodeError(huge) && huge.message).toBe('expected 4294967303 bytes at offset 1, found a 100-byte file — at sp/f, offset 1 (0x1)');
      // readInto: the same bytes into the caller's buffer, as a view of it; a slice of the file passes it on
      const target = new Uint8Array(8).fill(0xee);
      const view = await src.readInto!(20, 3, target);
      expect(view.buffer).toBe(target.buffer);
      expect([...target]).toEqual([20, 21, 22, 0xee, 0xee, 0xee, 0xee, 0xee]);
      const slice = sliceSource(src, 50, 10, 'sp/f[50..60)');
      expect([...(await slice.readInto!(8, 2, target))]).toEqual([58, 59]);
      const e2 = await slice.readInto!(9, 2, target).catch((x: unknown) => x);
      expect(isDecodeError(e2) && e2.message).toBe('expected 2 bytes at offset 9, found a 10-byte file — at sp/f[50..60), offset 9 (0x9)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('keeps at most MAX_OPEN_FILES idle handles open across many files, reading each one right', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-src-'));
    try {
      const sources = [];
      for (let f = 0; f < 3 * MAX_OPEN_FILES; f++) {
        const p = join(dir, `f${f}`);
        writeFileSync(
          p,
          Uint8Array.from({ length: 64 }, (_, i) => (i + f) & 0xff),
        );
        sources.push(await openNodeFileSource(p, `sp/f${f}`));
      }
      // interleaved and concurrent ranges over every file, twice
      for (let round = 0; round < 2; round++) {
        const got = await Promise.all(sources.map((s, f) => s.read(round * 8, 4).then((b) => [...b].map((x) => x - f))));
        expect(got).toEqual(sources.map(() => [round * 8, round * 8 + 1, round * 8 + 2, round * 8 + 3]));
        expect(countOpenFileHandles()).toBeLessThanOrEqual(MAX_OPEN_FILES);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a source opened after the file was replaced reads the new file, and a shrunk file is reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-src-'));
    try {
      const p = join(dir, 'f');
      writeFileSync(p, new Uint8Array(10).fill(1));
      const first = await openNodeFileSource(p, 'sp/f');
      expect([...(await first.read(0, 2))]).toEqual([1, 1]);
      rmSync(p);
      writeFileSync(p, new Uint8Array(10).fill(2));
      const second = await openNodeFileSource(p, 'sp/f');
      expect([...(await second.read(0, 2))]).toEqual([2, 2]);
      writeFileSync(p, new Uint8Array(4).fill(3));
      const e = await second.read(2, 6).catch((x: unknown) => x);
      expect(isDecodeError(e) && e.message).toBe('expected 6 bytes at offset 2, found 2: the file shrank while it was read — at sp/f, offset 2 (0x2)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HTTP range sources (Node fetch against a local server)', () => {
  const body = zipSync({
    'sp/_metadata': [Uint8Array.from([0x49, 0x60, 0x67, 0x2d, 0, 0, 0, 4]), { level: 0 }],
    'sp/uuid': [new Uint8Array(3000).fill(7), { level: 6 }],
  });
  let server: Server;
  let base = '';
  const ranges: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/missing.zip') return void res.writeHead(404).end();
      const range = req.headers.range;
      if (req.url === '/norange.zip' || !range)
        return void res.writeHead(200, { 'content-length': body.length }).end(req.method === 'HEAD' ? undefined : Buffer.from(body));
      ranges.push(range);
      const m = /bytes=(\d+)-(\d+)/.exec(range)!;
      const start = Number(m[1]);
      const end = Math.min(Number(m[2]), body.length - 1);
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 });
      res.end(Buffer.from(body.subarray(start, end + 1)));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  it('opens a zip over HTTP with Range requests', async () => {
    const sp = await openNodeInput(`${base}/sp.zip`);
    expect(sp.metadata.name).toBe(`${base}/sp.zip!/sp/_metadata`);
    expect(await readAll(sp.resolveRelative('uuid')!)).toEqual(new Uint8Array(3000).fill(7));
    expect(ranges[0]).toBe('bytes=0-0');
  });

  it('a server that ignores Range, and a 404, are clear errors', async () => {
    await expect(openNodeInput(`${base}/norange.zip`)).rejects.toThrow(
      `expected ${base}/norange.zip to answer HTTP Range requests with 206 Partial Content, found 200 OK with the whole file: the server does not support byte ranges (download the file and open it locally) — at ${base}/norange.zip`,
    );
    await expect(openNodeInput(`${base}/missing.zip`)).rejects.toThrow(`expected ${base}/missing.zip to exist, found HTTP 404 — at ${base}/missing.zip`);
  });

  it('an unreachable server is a network error, not a missing file', async () => {
    const e = await openNodeInput('http://127.0.0.1:1/sp.zip').catch((x: unknown) => x as Error);
    expect(isDecodeError(e) && e.code).toBe('network');
    expect((e as Error).message).toMatch(
      /^expected to reach http:\/\/127\.0\.0\.1:1\/sp\.zip, found the request failed \(fetch failed: bad port\): a network error, or a cross-origin request/,
    );
  });
});
