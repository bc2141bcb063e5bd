/**
 * The companion API of `serve` (companion-api.ts, behind app-server.ts): every request without the token,
 * with a wrong one, from another origin, without an Origin, with a foreign Host header or not a POST is
 * refused with its exact status and message and no CORS header; only object-store URLs are opened; reads
 * name a file an opening handed out, nothing else, and give its bytes; an absolute handle naming another
 * bucket than the URL opened is refused. The opening itself is the CLI's openNodeInput over a local copy
 * here (the same code path as over a store; tests/object-stores/companion-s3.test.ts reads a real one).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanionManifest, SavepointFiles } from '../../core/io';
import { openNodeInput } from '../sources';
import { startAppServer, type AppServer } from './app-server';

const HASHMAP = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const INCREMENTAL_CHK = 'fixtures/rocksdb-checkpoints/flink-1.20/default-compression/chk-2';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function call(port: number, rawPath: string, init: { method?: string; headers?: Record<string, string>; body?: string; host?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: rawPath, method: init.method ?? 'POST', headers: { ...(init.host ? { host: init.host } : {}), ...init.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const json = (a: Answer): unknown => JSON.parse(a.body.toString('utf8'));

describe('serve: the companion API', () => {
  let dir = '';
  let job = '';
  let server: AppServer;
  const token = 'b'.repeat(64);
  /** the URLs the fake store holds, as local copies */
  const copies = new Map<string, string>();
  let origin = '';
  let good: Record<string, string> = {};

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'companion-api-'));
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>app</title>');
    // the incremental checkpoint with its shared files elsewhere: absolute handles are read from the store
    const metadata = readFileSync(path.join(INCREMENTAL_CHK, '_metadata')).toString('latin1');
    job = path.join(dir, 'chk-2');
    mkdirSync(job);
    for (const n of readdirSync(INCREMENTAL_CHK))
      if (n === '_metadata' || !metadata.includes(`/shared/${n}`)) copyFileSync(path.join(INCREMENTAL_CHK, n), path.join(job, n));
    copies.set('s3://savepoints/hashmap/savepoint', HASHMAP);
    copies.set('s3://savepoints/ckpt/chk-2', job);
    copies.set('s3://savepoints/ckpt-elsewhere/chk-2', job);
    server = await startAppServer({
      appDir: path.join(dir, 'dist'),
      port: 0,
      token,
      openObjectStore: async (url, notice) => {
        const local = copies.get(url);
        if (local === undefined) throw new Error(`no copy of ${url}`);
        notice(`reading ${url} from a local copy`);
        const files = await openNodeInput(local);
        return storeHandles(files, url.includes('elsewhere') ? 's3://other-bucket/ckpt/shared/' : 's3://savepoints/ckpt/shared/');
      },
    });
    origin = `http://127.0.0.1:${server.port}`;
    good = { origin, authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (url: string, headers = good) => call(server.port, '/api/open', { headers, body: JSON.stringify({ url }) });

  it('refuses a request without the token, with a wrong token, from another origin, without an Origin, with a foreign Host, or not a POST', async () => {
    const cases: [string, Promise<Answer>, number, string][] = [
      [
        'no token',
        open('s3://savepoints/hashmap/savepoint', { origin }),
        401,
        'unauthorized: the companion API needs the token savepoint-inspector serve printed (Authorization: Bearer <token>)',
      ],
      [
        'wrong token',
        open('s3://savepoints/hashmap/savepoint', { origin, authorization: `Bearer ${'c'.repeat(64)}` }),
        403,
        'forbidden: wrong token (each run of savepoint-inspector serve prints a new one)',
      ],
      [
        'the cookie instead of the token',
        open('s3://savepoints/hashmap/savepoint', { origin, cookie: `savepoint-inspector-token-${server.port}=${token}` }),
        401,
        'unauthorized: the companion API needs the token savepoint-inspector serve printed (Authorization: Bearer <token>)',
      ],
      [
        'another origin',
        open('s3://savepoints/hashmap/savepoint', { ...good, origin: 'https://evil.example' }),
        403,
        `forbidden: the companion API answers only its own page (Origin http://127.0.0.1:${server.port}), found Origin https://evil.example`,
      ],
      [
        'another port of loopback',
        open('s3://savepoints/hashmap/savepoint', { ...good, origin: 'http://127.0.0.1:1' }),
        403,
        `forbidden: the companion API answers only its own page (Origin http://127.0.0.1:${server.port}), found Origin http://127.0.0.1:1`,
      ],
      [
        'no Origin',
        open('s3://savepoints/hashmap/savepoint', { authorization: `Bearer ${token}` }),
        403,
        `forbidden: the companion API answers only its own page (Origin http://127.0.0.1:${server.port}), found no Origin`,
      ],
      [
        'GET',
        call(server.port, '/api/read?open=1&file=0&offset=0&length=1', { method: 'GET', headers: good }),
        405,
        'method not allowed: the companion API takes POST only',
      ],
      [
        'a preflight',
        call(server.port, '/api/open', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } }),
        405,
        'method not allowed: the companion API takes POST only',
      ],
    ];
    for (const [what, answer, status, message] of cases) {
      const a = await answer;
      expect({ what, status: a.status, body: json(a) }).toEqual({ what, status, body: { message } });
      expect(Object.keys(a.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
    // a DNS-rebinding page: its own host name in Host (and Origin), with the right token
    const rebound = await call(server.port, '/api/open', {
      host: `evil.example:${server.port}`,
      headers: { ...good, origin: `http://evil.example:${server.port}` },
      body: JSON.stringify({ url: 's3://savepoints/hashmap/savepoint' }),
    });
    expect([rebound.status, rebound.body.toString('utf8')]).toEqual([403, 'forbidden: this server answers only at its loopback address\n']);
    // page opened at localhost: that origin, with its Host
    const local = await call(server.port, '/api/open', {
      host: `localhost:${server.port}`,
      headers: { ...good, origin: `http://localhost:${server.port}` },
      body: JSON.stringify({ url: 's3://savepoints/hashmap/savepoint' }),
    });
    expect(local.status).toBe(200);
    // the page's policy names the companion's origin in connect-src, and nothing else but itself
    const page = await call(server.port, `/?token=${token}`, { method: 'GET' });
    expect(String(page.headers['content-security-policy'])).toContain(`connect-src 'self' http://127.0.0.1:${server.port};`);
  });

  it('opens object-store URLs only: a local path, a file: or http(s) URL is refused', async () => {
    for (const url of ['/etc', 'fixtures/savepoints', 'file:///etc/passwd', 'https://example.com/sp/']) {
      const a = await open(url);
      expect({ status: a.status, body: json(a) }).toEqual({
        status: 400,
        body: {
          message: `bad request: expected an object-store URL (s3://, s3a://, s3p://, gs://, abfs://, abfss://, wasb://, wasbs://, hdfs://, webhdfs://, swebhdfs://), found ${JSON.stringify(url)}: the companion opens object stores only (the app opens local files and http(s) URLs itself)`,
        },
      });
    }
    const bad = await call(server.port, '/api/open', { headers: good, body: 'not json' });
    expect({ status: bad.status, body: json(bad) }).toEqual({
      status: 400,
      body: { message: 'bad request: expected a JSON body {"url": "s3://…"} of at most 65536 bytes' },
    });
  });

  it("hands out the opened savepoint's files and reads their bytes; a file no opening handed out is refused", async () => {
    const a = await open('s3://savepoints/hashmap/savepoint');
    expect(a.status).toBe(200);
    const manifest = json(a) as CompanionManifest;
    expect(manifest.notices).toEqual(['reading s3://savepoints/hashmap/savepoint from a local copy']);
    const names = readdirSync(HASHMAP).sort();
    expect(manifest.files.map((n) => manifest.sources[n]!.name).sort()).toEqual(names.map((n) => `savepoint/${n}`));
    expect(manifest.relative.length).toBeGreaterThan(0);
    for (const [relativePath, n] of manifest.relative) {
      const local = readFileSync(path.join(HASHMAP, relativePath));
      expect(manifest.sources[n]!.size).toBe(local.length);
      const read = await call(server.port, `/api/read?open=${manifest.open}&file=${n}&offset=0&length=${local.length}`, { headers: good });
      expect(read.status).toBe(200);
      expect(read.body.equals(local)).toBe(true);
      const part = await call(server.port, `/api/read?open=${manifest.open}&file=${n}&offset=3&length=5`, { headers: good });
      expect(part.body.equals(local.subarray(3, 8))).toBe(true);
    }
    const beyond = await call(server.port, `/api/read?open=${manifest.open}&file=${manifest.sources.length}&offset=0&length=1`, { headers: good });
    expect({ status: beyond.status, body: json(beyond) }).toEqual({
      status: 403,
      body: {
        message: `forbidden: opening ${manifest.open} has no file ${manifest.sources.length}: only the objects under the URL opened, and those its _metadata names in the same bucket, are read`,
      },
    });
    const never = await call(server.port, '/api/read?open=999&file=0&offset=0&length=1', { headers: good });
    expect({ status: never.status, body: json(never) }).toEqual({
      status: 404,
      body: { message: 'not found: no opening 999 in this run of savepoint-inspector serve (open the URL again)' },
    });
    const past = await call(
      server.port,
      `/api/read?open=${manifest.open}&file=${manifest.metadata}&offset=${manifest.sources[manifest.metadata]!.size}&length=1`,
      { headers: good },
    );
    expect(past.status).toBe(422);
    expect((json(past) as { error: { code: string } }).error.code).toBe('truncated');
  });

  it("absolute handles: read in the opened URL's bucket, refused in another", async () => {
    const here = json(await open('s3://savepoints/ckpt/chk-2')) as CompanionManifest;
    expect(here.absolute.length).toBeGreaterThan(0);
    for (const [, resolved] of here.absolute) {
      expect(resolved).toMatchObject({ path: expect.stringMatching(/^s3:\/\/savepoints\/ckpt\/shared\//) as unknown });
      const { file, path: at } = resolved as { file: number; path: string };
      const local = readFileSync(path.join(INCREMENTAL_CHK, at.split('/').pop()!));
      const read = await call(server.port, `/api/read?open=${here.open}&file=${file}&offset=0&length=${local.length}`, { headers: good });
      expect(read.body.equals(local)).toBe(true);
    }
    const elsewhere = json(await open('s3://savepoints/ckpt-elsewhere/chk-2')) as CompanionManifest;
    expect(elsewhere.absolute.length).toBe(here.absolute.length);
    for (const [, resolved] of elsewhere.absolute) {
      const name = (resolved as { name: string }).name;
      expect(resolved).toEqual({
        name,
        refused: `expected the state file ${name} in the store of s3://savepoints/ckpt-elsewhere/chk-2, found it elsewhere: the companion reads only objects in the bucket (container) of the URL opened; open it with the CLI`,
      });
    }
    // none of those files was handed out
    expect(elsewhere.sources.length).toBe(here.sources.length - here.absolute.length);
  });
});

/** The checkpoint's absolute handles as a store reads them: at `base` + their name (the local shared files). */
function storeHandles(files: SavepointFiles, base: string): SavepointFiles {
  const opened = new Map<string, { source: ReturnType<typeof bytesOf>; path: string }>();
  return {
    ...files,
    resolveRelative: files.resolveRelative.bind(files),
    resolveAbsolute(absolutePath) {
      const name = absolutePath.split('/').pop()!;
      let found = opened.get(name);
      if (found === undefined)
        opened.set(name, (found = { source: bytesOf(`${base}${name}`, readFileSync(path.join(INCREMENTAL_CHK, name))), path: `${base}${name}` }));
      return found;
    },
  };
}

function bytesOf(name: string, bytes: Uint8Array) {
  return { name, size: bytes.length, read: (offset: number, length: number) => Promise.resolve(bytes.subarray(offset, offset + length)) };
}
