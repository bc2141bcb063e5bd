import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFolder, type ServedFolder } from '../../../tests/perf/serve-folder';
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

  it('stats reports the workers it used, and --workers above 64 is a usage error', async () => {
    let out = '';
    expect(await runCli(['stats', tgz, '--json', '--workers', '2'], { stdout: (t) => void (out += t), stderr: () => undefined })).toBe(0);
    expect(JSON.parse(out).workers).toBe(1);
    let err = '';
    expect(await runCli(['stats', SAVEPOINT, '--workers', '65'], { stdout: () => undefined, stderr: (t) => void (err += t) })).toBe(2);
    expect(err).toContain('--workers must be at most 64, found 65');
    err = '';
    expect(await runCli(['check', SAVEPOINT, '--descriptors', 'src/ui/demo-schema/events-changed.binpb', '--workers', '65'], { stdout: () => undefined, stderr: (t) => void (err += t) })).toBe(2);
    expect(err).toContain('--workers must be at most 64, found 65');
  });
});
