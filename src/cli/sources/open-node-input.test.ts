import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, cpSync, unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectInputKind, isDecodeError, readAll, resolveStateFile, sliceSource, type SavepointFiles } from '../../core/io';
import { countOpenFileHandles, MAX_OPEN_FILES, openNodeFileSource } from './node-file-source';
import { openNodeInput } from './open-node-input';

const SHARED = resolve(process.cwd(), '../shared/flink-savepoints');
const exists = existsSync(SHARED);
if (!exists) console.warn(`open-node-input tests over real savepoints skipped: ${SHARED} is absent`);

const FOLDERS = [
  'new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-udf-migration-itcase-flink1.20-rocksdb-savepoint',
  'new-stateful-broadcast-udf-migration-itcase-flink1.20-hashmap-savepoint',
  'new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint',
];

/** name → bytes of every file in a folder (flat: savepoint folders have no subfolders) */
function folderFiles(dir: string): Map<string, Uint8Array> {
  return new Map(readdirSync(dir).map((n) => [n, new Uint8Array(readFileSync(join(dir, n)))]));
}

async function expectSameFiles(sp: SavepointFiles, expected: Map<string, Uint8Array>): Promise<void> {
  expect(sp.files).toHaveLength(expected.size);
  expect((await detectInputKind(sp.metadata)).kind).toBe('flink-metadata');
  expect(await readAll(sp.metadata)).toEqual(expected.get('_metadata'));
  for (const [name, bytes] of expected) {
    if (name === '_metadata') continue;
    const src = sp.resolveRelative(name);
    expect(src?.size, name).toBe(bytes.length);
    expect(await readAll(src!)).toEqual(bytes);
  }
}

describe.skipIf(!exists)('openNodeInput over the real savepoints in ../shared/flink-savepoints', () => {
  let tmp = '';
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sp-io-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it.each(FOLDERS)('folder %s: _metadata located, every state file resolves next to it', async (folder) => {
    const dir = join(SHARED, folder);
    const sp = await openNodeInput(dir);
    expect(sp.metadata.name).toBe(`${folder}/_metadata`);
    expect(sp.warnings).toEqual([]);
    await expectSameFiles(sp, folderFiles(dir));
  });

  it.each(['operatorstate/complexKeyed-flink1.20', 'operatorstate/nonKeyed-flink1.20'])('single self-contained _metadata %s (as file and as folder)', async (folder) => {
    const path = join(SHARED, folder, '_metadata');
    const single = await openNodeInput(path);
    expect(single.metadata.size).toBe(statSync(path).size);
    expect((await detectInputKind(single.metadata)).kind).toBe('flink-metadata');
    const viaFolder = await openNodeInput(join(SHARED, folder));
    expect(viaFolder.files.map((f) => f.name)).toEqual([`${folder.split('/')[1]}/_metadata`]);
  });

  it('the parent folder of several savepoints picks the shallowest _metadata and warns', async () => {
    const sp = await openNodeInput(join(SHARED, 'operatorstate'));
    expect(sp.metadata.name).toBe('operatorstate/complexKeyed-flink1.20/_metadata');
    expect(sp.warnings).toEqual([
      `found 2 _metadata files in ${join(SHARED, 'operatorstate')}; using 'complexKeyed-flink1.20/_metadata' (the shallowest) and ignoring 'nonKeyed-flink1.20/_metadata'`,
      `1 file of ${join(SHARED, 'operatorstate')} outside the _metadata folder 'complexKeyed-flink1.20' is ignored`,
    ]);
  });

  it.each(FOLDERS)('zip of %s built in a temp dir (nested folder, stored + deflated entries)', async (folder) => {
    const files = folderFiles(join(SHARED, folder));
    const zippable: Zippable = {};
    let i = 0;
    for (const [name, bytes] of files) zippable[`export/${folder}/${name}`] = [bytes, { level: i++ % 2 === 0 ? 0 : 6 }];
    const zipPath = join(tmp, `${folder}.zip`);
    writeFileSync(zipPath, zipSync(zippable));
    const sp = await openNodeInput(zipPath);
    expect(sp.metadata.name).toBe(`${zipPath}!/export/${folder}/_metadata`);
    await expectSameFiles(sp, files);
  });

  it.each(['tar', 'tar.gz'])('%s of a savepoint built with the system tar', async (ext) => {
    const folder = FOLDERS[3]!;
    const out = join(tmp, `sp.${ext}`);
    execFileSync('tar', [ext === 'tar' ? '-cf' : '-czf', out, '-C', SHARED, folder]);
    const sp = await openNodeInput(out);
    expect(sp.metadata.name).toBe(`${out}!/${folder}/_metadata`);
    await expectSameFiles(sp, folderFiles(join(SHARED, folder)));
  });

  it('a folder missing a state file: the file is reported by name', async () => {
    const folder = FOLDERS[0]!;
    const copy = join(tmp, 'incomplete');
    cpSync(join(SHARED, folder), copy, { recursive: true });
    const victim = readdirSync(copy).find((n) => n !== '_metadata')!;
    unlinkSync(join(copy, victim));
    const sp = await openNodeInput(copy);
    expect(resolveStateFile(sp, victim, 'relative')).toEqual({ kind: 'missing', fileName: victim });
  });
});

describe('openNodeFileSource', () => {
  it('reads exact ranges and rejects reads past the end with the file name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sp-src-'));
    try {
      const p = join(dir, 'f');
      writeFileSync(p, Uint8Array.from({ length: 100 }, (_, i) => i));
      const src = await openNodeFileSource(p, 'sp/f');
      expect(src.size).toBe(100);
      expect([...(await src.read(10, 3))]).toEqual([10, 11, 12]);
      const e = await src.read(99, 2).catch((x: unknown) => x);
      expect(isDecodeError(e) && e.message).toBe('expected 2 bytes at offset 99, found a 100-byte file — at sp/f, offset 99 (0x63)');
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
        writeFileSync(p, Uint8Array.from({ length: 64 }, (_, i) => (i + f) & 0xff));
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
  const body = zipSync({ 'sp/_metadata': [Uint8Array.from([0x49, 0x60, 0x67, 0x2d, 0, 0, 0, 4]), { level: 0 }], 'sp/uuid': [new Uint8Array(3000).fill(7), { level: 6 }] });
  let server: Server;
  let base = '';
  const ranges: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/missing.zip') return void res.writeHead(404).end();
      const range = req.headers.range;
      if (req.url === '/norange.zip' || !range) return void res.writeHead(200, { 'content-length': body.length }).end(req.method === 'HEAD' ? undefined : Buffer.from(body));
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
    expect((e as Error).message).toMatch(/^expected to reach http:\/\/127\.0\.0\.1:1\/sp\.zip, found the request failed \(fetch failed\): a network error, or a cross-origin request/);
  });
});
