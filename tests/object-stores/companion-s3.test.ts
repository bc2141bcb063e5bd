/**
 * `serve`'s companion API over a real S3-compatible server (versitygw on 127.0.0.1, checking signatures;
 * tests/helpers/versitygw.ts): fixture savepoints uploaded in the setup, opened through POST /api/open as
 * the app opens them, and every byte read through POST /api/read equal to the local file's — a savepoint
 * folder, and a job's checkpoint directory (its latest chk-N chosen, said in the notices, with the files
 * of shared/ its absolute handles name). The token, Origin and Host checks are in
 * src/cli/commands/companion-api.test.ts.
 *
 * Skipped, and said so, only where neither a built versitygw nor `go` (to build it) is present.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/cli/commands/app-server';
import type { CompanionManifest } from '../../src/core/io';
import { expectSameBytes } from '../helpers/expect-same-bytes';
import { canRunVersitygw, createBucket, putObject, startVersitygw, uploadFolder, type RunningGateway } from '../helpers/versitygw';

const RUN = canRunVersitygw();
if (!RUN)
  console.warn(
    'tests/object-stores/companion-s3.test.ts: SKIPPED — no versitygw binary and no `go` to build it (scripts/ensure-versitygw.ts): the companion API over S3 is not tested',
  );

const ROOT = process.cwd();
const HASHMAP = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const INCREMENTAL = 'fixtures/rocksdb-checkpoints/flink-1.20/default-compression';
const JOB_ID = '4b88fb62184edaaf2de7b862ac2095f7';
const BUCKET = 'savepoints';
const TOKEN = 'd'.repeat(64);

describe.skipIf(!RUN)('serve: the companion API over versitygw', () => {
  let gw: RunningGateway;
  let server: AppServer;
  let dir = '';
  const saved = { ...process.env };

  beforeAll(
    async () => {
      gw = await startVersitygw();
      await createBucket(gw.client, BUCKET);
      await uploadFolder(gw.client, BUCKET, path.join(ROOT, HASHMAP), 'hashmap/savepoint/');
      // the incremental checkpoint as Flink writes it: <job>/chk-N/ with its own files, <job>/shared/ those absolute handles name
      for (const chk of ['chk-1', 'chk-2']) {
        const metadata = readFileSync(path.join(ROOT, INCREMENTAL, chk, '_metadata')).toString('latin1');
        for (const n of readdirSync(path.join(ROOT, INCREMENTAL, chk))) {
          const shared = n !== '_metadata' && metadata.includes(`/shared/${n}`);
          await putObject(gw.client, BUCKET, `ckpt/${JOB_ID}/${shared ? 'shared' : chk}/${n}`, readFileSync(path.join(ROOT, INCREMENTAL, chk, n)));
        }
      }
      dir = mkdtempSync(path.join(tmpdir(), 'companion-s3-'));
      mkdirSync(path.join(dir, 'dist'));
      writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>app</title>');
      for (const k of Object.keys(process.env)) if (k.startsWith('AWS_')) delete process.env[k];
      Object.assign(process.env, {
        AWS_ACCESS_KEY_ID: 'inspector-test-access',
        AWS_SECRET_ACCESS_KEY: 'inspector-test-secret-key',
        AWS_ENDPOINT_URL_S3: gw.endpoint,
        AWS_CONFIG_FILE: path.join(dir, 'no-aws-config'),
        AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'no-aws-credentials'),
        AWS_EC2_METADATA_DISABLED: 'true',
      });
      // the CLI's own opening of object-store URLs (no openObjectStore given)
      server = await startAppServer({ appDir: path.join(dir, 'dist'), port: 0, token: TOKEN });
    },
    40 * 60 * 1000,
  );

  afterAll(async () => {
    process.env = saved;
    await server?.close();
    await gw?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const headers = (): Record<string, string> => ({
    origin: `http://127.0.0.1:${server.port}`,
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
  });

  async function open(url: string): Promise<CompanionManifest> {
    const answer = await fetch(`http://127.0.0.1:${server.port}/api/open`, { method: 'POST', headers: headers(), body: JSON.stringify({ url }) });
    expect(answer.status).toBe(200);
    return (await answer.json()) as CompanionManifest;
  }

  async function read(manifest: CompanionManifest, file: number, offset: number, length: number): Promise<Uint8Array> {
    const answer = await fetch(`http://127.0.0.1:${server.port}/api/read?open=${manifest.open}&file=${file}&offset=${offset}&length=${length}`, {
      method: 'POST',
      headers: headers(),
    });
    expect(answer.status).toBe(200);
    return new Uint8Array(await answer.arrayBuffer());
  }

  it("a savepoint folder: its files' bytes, whole and by range, are the local files'", async () => {
    const url = `s3://${BUCKET}/hashmap/savepoint`;
    const manifest = await open(url);
    expect(manifest.notices).toEqual([
      `reading ${url} from ${gw.endpoint} (AWS_ENDPOINT_URL_S3, path-style), credentials from environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)`,
    ]);
    expect(manifest.chosen).toBeUndefined();
    const names = readdirSync(path.join(ROOT, HASHMAP)).sort();
    expect(manifest.files.map((n) => manifest.sources[n]!.name).sort()).toEqual(names.map((n) => `savepoint/${n}`));
    expectSameBytes(await read(manifest, manifest.metadata, 0, manifest.sources[manifest.metadata]!.size), readFileSync(path.join(ROOT, HASHMAP, '_metadata')));
    expect(manifest.relative.length).toBe(names.length - 1);
    for (const [relativePath, n] of manifest.relative) {
      const local = readFileSync(path.join(ROOT, HASHMAP, relativePath));
      expectSameBytes(await read(manifest, n, 0, local.length), local);
      expectSameBytes(await read(manifest, n, 7, 100), local.subarray(7, 107));
    }
  });

  it("a job's checkpoint directory: the latest chk-N, and the shared/ files its absolute handles name", async () => {
    const url = `s3://${BUCKET}/ckpt/${JOB_ID}/`;
    const manifest = await open(url);
    expect(manifest.notices).toContain(`using chk-2, the latest completed checkpoint of ${url}; --metadata chk-N reads another`);
    expect(manifest.chosen).toBe('chk-2');
    expectSameBytes(
      await read(manifest, manifest.metadata, 0, manifest.sources[manifest.metadata]!.size),
      readFileSync(path.join(ROOT, INCREMENTAL, 'chk-2', '_metadata')),
    );
    expect(manifest.absolute.length).toBeGreaterThan(0);
    for (const [, resolved] of manifest.absolute) {
      if (!('file' in resolved)) throw new Error(`refused: ${resolved.refused}`);
      expect(resolved.path).toMatch(/^shared\//);
      const local = readFileSync(path.join(ROOT, INCREMENTAL, 'chk-2', resolved.path.slice('shared/'.length)));
      expectSameBytes(await read(manifest, resolved.file, 0, local.length), local);
    }
  });
});
