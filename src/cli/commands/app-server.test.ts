import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContentSecurityPolicy } from '../../../vite-plugins/content-security-policy';
import { startAppServer, type AppServer } from './app-server';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: the path is sent as given (no normalisation of `..`, unlike fetch). */
function get(port: number, rawPath: string, headers: Record<string, string> = {}, method = 'GET', host = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path: rawPath, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serve: the app server', () => {
  let dir = '';
  let app = '';
  let server: AppServer;
  const token = 'a'.repeat(64);
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'app-server-'));
    app = path.join(dir, 'dist');
    mkdirSync(path.join(app, 'assets'), { recursive: true });
    writeFileSync(path.join(app, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(path.join(app, 'assets', 'main.js'), 'console.log(1);');
    writeFileSync(path.join(app, 'service-worker.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(path.join(app, 'assets', 'engine.wasm'), new Uint8Array([0, 0x61, 0x73, 0x6d]));
    writeFileSync(path.join(dir, 'secret.txt'), 'outside the app folder');
    symlinkSync(path.join(dir, 'secret.txt'), path.join(app, 'assets', 'link.txt'));
    server = await startAppServer({ appDir: app, port: 0, token });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 only and prints a URL with its token', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${token}`);
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
    for (const other of others) await expect(get(server.port, `/?token=${token}`, {}, 'GET', other!.address)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    // the system's own random token when none is given
    const own = await startAppServer({ appDir: app, port: 0 });
    try {
      expect(own.token).toMatch(/^[0-9a-f]{64}$/);
      expect(own.token).not.toBe(token);
    } finally {
      await own.close();
    }
  });

  it('refuses a request without the token, or with another, with 403', async () => {
    const none = await get(server.port, '/');
    expect(none.status).toBe(403);
    expect(none.body).toBe('forbidden: open the URL savepoint-inspector serve printed (it carries the token)\n');
    expect((await get(server.port, `/?token=${'b'.repeat(64)}`)).status).toBe(403);
    expect((await get(server.port, '/?token=short')).status).toBe(403);
    expect((await get(server.port, '/assets/main.js', { cookie: `savepoint-inspector-token-${server.port}=${'b'.repeat(64)}` })).status).toBe(403);
  });

  it('serves with the token, sets a cookie that then suffices', async () => {
    const first = await get(server.port, `/?token=${token}`);
    expect(first.status).toBe(200);
    expect(first.body).toBe('<!doctype html><title>app</title>');
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['set-cookie']).toEqual([`savepoint-inspector-token-${server.port}=${token}; Path=/; HttpOnly; SameSite=Strict`]);
    const script = await get(server.port, '/assets/main.js', { cookie: `other=1; savepoint-inspector-token-${server.port}=${token}` });
    expect(script.status).toBe(200);
    expect(script.body).toBe('console.log(1);');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['set-cookie']).toBeUndefined();
    const wasm = await get(server.port, `/assets/engine.wasm?token=${token}`);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.headers['content-length']).toBe('4');
    expect((await get(server.port, `/assets/none.js?token=${token}`)).status).toBe(404);
  });

  it("does not hand out the build's service worker: each serve is a new origin (a new port), where it would store the whole build again", async () => {
    const sw = await get(server.port, `/service-worker.js?token=${token}`);
    expect(sw.status).toBe(404);
    expect(sw.body).toBe('not found: the offline copy (service-worker.js) is for static hosts; serve runs on this machine\n');
    expect((await get(server.port, `/assets/main.js?token=${token}`)).status).toBe(200);
  });

  it("sends the static build's Content-Security-Policy, on refusals too", async () => {
    const ok = await get(server.port, `/?token=${token}`);
    const companion = `http://127.0.0.1:${server.port}`;
    expect(ok.headers['content-security-policy']).toBe(buildContentSecurityPolicy(null, companion));
    expect(ok.headers['content-security-policy']).toContain("default-src 'self'");
    // connect-src: itself and the companion API's loopback origin (its own), nothing else
    expect(ok.headers['content-security-policy']).toContain(`connect-src 'self' ${companion};`);
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(server.port, '/')).headers['content-security-policy']).toBe(buildContentSecurityPolicy(null, companion));
    const withUrl = await get(server.port, `/?token=${token}&savepoint=${encodeURIComponent('https://bucket.example:8443/sp/')}`);
    expect(withUrl.headers['content-security-policy']).toBe(buildContentSecurityPolicy('https://bucket.example:8443/sp/', companion));
    expect(withUrl.headers['content-security-policy']).toContain(`connect-src 'self' ${companion} https://bucket.example:8443;`);
    // an object-store URL adds no origin: it is read through the companion
    const withS3 = await get(server.port, `/?token=${token}&savepoint=${encodeURIComponent('s3://bucket/sp/')}`);
    expect(withS3.headers['content-security-policy']).toContain(`connect-src 'self' ${companion};`);
  });

  it('refuses every path out of the app folder', async () => {
    for (const raw of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets/link.txt',
      '/%00index.html',
    ]) {
      const answer = await get(server.port, `${raw}?token=${token}`);
      expect({ raw, status: answer.status, body: answer.body }).toEqual({ raw, status: 403, body: 'forbidden: the path leaves the app folder\n' });
    }
  });

  it('answers only GET and HEAD, and only at its own host name', async () => {
    expect((await get(server.port, `/?token=${token}`, {}, 'POST')).status).toBe(405);
    const head = await get(server.port, `/?token=${token}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const rebound = await get(server.port, `/?token=${token}`, { host: `attacker.example:${server.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toBe('forbidden: this server answers only at its loopback address\n');
    expect((await get(server.port, `/?token=${token}`, { host: `localhost:${server.port}` })).status).toBe(200);
  });
});
