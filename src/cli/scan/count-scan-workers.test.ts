import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFolder, type ServedFolder } from '../../../tests/helpers/serve-folder';
import { runCli } from '../run-cli';
import { countScanWorkers } from './count-scan-workers';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const dir = mkdtempSync(path.join(tmpdir(), 'scan-workers-'));
const tgz = path.join(dir, 'savepoint.tar.gz');
const zip = path.join(dir, 'savepoint.zip');
let served: ServedFolder;

beforeAll(async () => {
  execFileSync('tar', ['czf', tgz, '-C', path.dirname(SAVEPOINT), 'savepoint']);
  writeFileSync(zip, zipSync(Object.fromEntries(readdirSync(SAVEPOINT).map((n) => [`savepoint/${n}`, new Uint8Array(readFileSync(path.join(SAVEPOINT, n)))]))));
  served = await serveFolder(dir);
});
afterAll(async () => {
  await served?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('countScanWorkers', () => {
  it('keeps the requested workers for a folder, a _metadata file and a zip', async () => {
    expect(await countScanWorkers(SAVEPOINT, 2)).toBe(2);
    expect(await countScanWorkers(path.join(SAVEPOINT, '_metadata'), 3)).toBe(3);
    expect(await countScanWorkers(zip, 2)).toBe(2);
    expect(await countScanWorkers(`${served.base}/savepoint.zip`, 2)).toBe(2);
  });

  it('scans a .tar.gz, local or over HTTP, in one thread (every worker would inflate the whole stream again)', async () => {
    expect(await countScanWorkers(tgz, 2)).toBe(1);
    expect(await countScanWorkers(`${served.base}/savepoint.tar.gz`, 4)).toBe(1);
  });

  it('reads one small range of an HTTP input to tell (not a range probe plus the 520 bytes of a full detection)', async () => {
    for (const [name, expected] of [
      ['savepoint.tar.gz', 1],
      ['savepoint.zip', 4],
    ] as const) {
      const before = { requests: served.stats.requests, bytes: served.stats.bytes };
      expect(await countScanWorkers(`${served.base}/${name}`, 4)).toBe(expected);
      expect([served.stats.requests - before.requests, served.stats.bytes - before.bytes], name).toEqual([1, 2]);
    }
  });

  it('keeps the requested workers when the input cannot be read while detecting (the command reports its own error)', async () => {
    // answers the 1-byte range probe of a range source, fails every other read
    const server: Server = createServer((req, res) => {
      if (req.headers.range === 'bytes=0-0') res.writeHead(206, { 'content-range': 'bytes 0-0/1000', 'content-length': 1 }).end(Buffer.from([0x1f]));
      else res.writeHead(500).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/savepoint.tar.gz`;
      expect(await countScanWorkers(url, 3)).toBe(3);
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it('stats checks all of its options before reading the input to count its workers', async () => {
    const before = served.stats.requests;
    let err = '';
    expect(
      await runCli(['stats', `${served.base}/savepoint.tar.gz`, '--every-key-group', '0'], { stdout: () => undefined, stderr: (t) => void (err += t) }),
    ).toBe(2);
    expect(err).toContain("--every-key-group expects a whole number of at least 1, found '0'");
    expect(served.stats.requests - before).toBe(0);
  });

  it('stats reports the workers it used, and --workers above 64 is a usage error', async () => {
    let out = '';
    expect(await runCli(['stats', tgz, '--format', 'json', '--workers', '2'], { stdout: (t) => void (out += t), stderr: () => undefined })).toBe(0);
    expect(JSON.parse(out).workers).toBe(1);
    let err = '';
    expect(await runCli(['stats', SAVEPOINT, '--workers', '65'], { stdout: () => undefined, stderr: (t) => void (err += t) })).toBe(2);
    expect(err).toContain('--workers must be at most 64, found 65');
    err = '';
    expect(
      await runCli(['check', SAVEPOINT, '--descriptors', 'src/ui/demo-schema/events-changed.binpb', '--workers', '65'], {
        stdout: () => undefined,
        stderr: (t) => void (err += t),
      }),
    ).toBe(2);
    expect(err).toContain('--workers must be at most 64, found 65');
  });
});
