/**
 * `gs://` inputs when the store fails, against fake-gcs-server on 127.0.0.1 (tests/helpers/fake-gcs-server.ts):
 * each failure is one line naming the bucket and object, the credential source and what the store
 * answered, with exit 2 — or, when only a state file fails, that state marked not read and exit 1 from `check`.
 *
 * Made for real by fake-gcs-server: a missing bucket, object or prefix, an object overwritten between the
 * listing that pinned its generation and its read (its generation gone: the read of `generation=N` fails),
 * also in a `stats` worker thread that lists the folder again. Injected by a loopback proxy in front of it
 * (fake-gcs-server checks no credentials, so it never answers 403 itself): 403 on `_metadata` and on one
 * state file, 503 and 429 throttling (retried after a backoff, then reported) and a connection reset mid-body (once: retried;
 * always: reported). No credentials at all: Application Default Credentials finding none (no
 * GOOGLE_APPLICATION_CREDENTIALS, no gcloud file, the metadata server unreachable), nothing sent.
 *
 * Skipped, and said so, only where neither a built fake-gcs-server nor `go` (to build it) is present.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { canRunFakeGcsServer, putObject, startFakeGcsServer, startGcsFaultProxy, uploadFolder, type RunningFakeGcs } from '../helpers/fake-gcs-server';
import type { FaultAction, FaultProxy } from '../helpers/loopback-servers';

const RUN = canRunFakeGcsServer();
if (!RUN)
  console.warn(
    'tests/object-stores/gcs-faults.test.ts: SKIPPED — no fake-gcs-server binary and no `go` to build it (scripts/ensure-fake-gcs-server.ts): the GCS failure cases are not tested',
  );

const ROOT = process.cwd();
const HASHMAP = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const THIN_JAR = 'fixtures/job-jars/jars/thin-4.36.2.jar';
const BUCKET = 'faults';
const URL = `gs://${BUCKET}/sp/savepoint`;
const EMULATOR_SOURCE = 'credentials from none: STORAGE_EMULATOR_HOST names an emulator (no credentials sent)';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

/** The error line of a failed command (the notices before it are not errors). */
function errorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.startsWith('savepoint-inspector '));
  expect(lines.length, stderr).toBe(1);
  return lines[0]!;
}

describe.skipIf(!RUN)('gs:// inputs when the store fails', () => {
  let gcs: RunningFakeGcs;
  let proxy: FaultProxy;
  let scratch: string;
  /** the state file the tests break: the largest one (it holds keyed state) */
  let stateKey: string;
  const saved = { ...process.env };

  const original = () => readFileSync(path.join(ROOT, HASHMAP, path.basename(stateKey)));
  const overwrite = async () => {
    const bytes = new Uint8Array(original());
    bytes[bytes.length - 1] ^= 0xff;
    await putObject(gcs.storage, BUCKET, stateKey, bytes);
  };

  beforeAll(
    async () => {
      gcs = await startFakeGcsServer();
      proxy = await startGcsFaultProxy(gcs.port);
      scratch = mkdtempSync(path.join(tmpdir(), 'gcs-faults-'));
      await gcs.storage.createBucket(BUCKET);
      await uploadFolder(gcs.storage, BUCKET, path.join(ROOT, HASHMAP), 'sp/savepoint/');
      const local = await run(['inspect', HASHMAP, '--format', 'json', '--handles']);
      const files = [...local.stdout.matchAll(/"path": "([0-9a-f-]{36})",\s*"size": (\d+)/g)].map((m) => ({ name: m[1]!, size: Number(m[2]) }));
      stateKey = `sp/savepoint/${files.sort((a, b) => b.size - a.size)[0]!.name}`;
    },
    40 * 60 * 1000,
  );

  beforeEach(() => {
    process.env['STORAGE_EMULATOR_HOST'] = proxy.endpoint;
    proxy.setRule(() => 'pass');
  });

  afterAll(async () => {
    process.env = saved;
    await proxy?.close();
    await gcs?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('no credentials anywhere in Application Default Credentials: exit 2, naming bucket and object, nothing sent', async () => {
    const changed = ['STORAGE_EMULATOR_HOST', 'HOME', 'CLOUDSDK_CONFIG', 'GCE_METADATA_HOST', 'GCE_METADATA_IP', 'GOOGLE_APPLICATION_CREDENTIALS'];
    delete process.env['STORAGE_EMULATOR_HOST'];
    Object.assign(process.env, {
      HOME: scratch,
      CLOUDSDK_CONFIG: path.join(scratch, 'no-gcloud'),
      // the metadata server: a loopback port where nothing listens
      GCE_METADATA_HOST: '127.0.0.1:9',
      GCE_METADATA_IP: '127.0.0.1:9',
    });
    delete process.env['GOOGLE_APPLICATION_CREDENTIALS'];
    proxy.requests.length = 0;
    try {
      const r = await run(['inspect', URL]);
      expect(r.code, r.stderr).toBe(2);
      const line = errorLine(r.stderr);
      expect(line).toContain(
        `expected Google credentials to read ${URL} (bucket ${BUCKET}, object sp/savepoint; Google Cloud Storage (https://storage.googleapis.com)), found none usable in Application Default Credentials`,
      );
      expect(proxy.requests).toEqual([]);
    } finally {
      // key by key: process.env stays the environment object worker threads are started with
      for (const k of changed) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });

  it('a missing bucket, object and prefix: exit 2', async () => {
    const bucket = await run(['inspect', 'gs://no-such-bucket/sp/savepoint/']);
    expect(bucket.code).toBe(2);
    expect(errorLine(bucket.stderr)).toContain(
      `(bucket no-such-bucket, object sp/savepoint/; ${proxy.endpoint} (STORAGE_EMULATOR_HOST); ${EMULATOR_SOURCE}), found no bucket "no-such-bucket" (404`,
    );
    const object = await run(['inspect', `gs://${BUCKET}/sp/elsewhere/_metadata`]);
    expect(object.code).toBe(2);
    expect(errorLine(object.stderr)).toContain(
      `expected gs://${BUCKET}/sp/elsewhere/_metadata (bucket ${BUCKET}, object sp/elsewhere/_metadata; ${proxy.endpoint} (STORAGE_EMULATOR_HOST); ${EMULATOR_SOURCE}), found no such object (404)`,
    );
    const missingInBucket = await run(['inspect', 'gs://no-such-bucket/sp/_metadata']);
    expect(errorLine(missingInBucket.stderr)).toContain('found no bucket "no-such-bucket" (404');
    const prefix = await run(['inspect', `gs://${BUCKET}/nothing-here/`]);
    expect(prefix.code).toBe(2);
    expect(errorLine(prefix.stderr)).toContain('found no object with that name or prefix');
  });

  it('403 on _metadata: exit 2; on one state file: that state is not read, check exits 1', async () => {
    const denied = {
      status: 403,
      code: 'forbidden',
      message: 'reader@example.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object.',
    };
    proxy.setRule(({ method, key, url }) => (method === 'GET' && key === 'sp/savepoint/_metadata' && url.includes('alt=media') ? denied : 'pass'));
    const r = await run(['inspect', URL]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toContain(
      `expected to read gs://${BUCKET}/sp/savepoint/_metadata (bucket ${BUCKET}, object sp/savepoint/_metadata; ${proxy.endpoint} (STORAGE_EMULATOR_HOST); ${EMULATOR_SOURCE}), found access denied (403`,
    );
    expect(errorLine(r.stderr)).toContain('these credentials may not read it');

    proxy.setRule(({ method, key, url }) => (method === 'GET' && key === stateKey && url.includes('alt=media') ? denied : 'pass'));
    const one = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(one.code, one.stdout + one.stderr).toBe(1);
    expect(one.stdout).toContain('found access denied (403');
    expect(one.stdout).toContain(`object ${stateKey}`);
  });

  it('throttling (503) once: retried, the same answer as without it; always: reported after the retries', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(clean.code).toBe(0);
    const slow = { status: 503, code: 'backendError', message: 'Please reduce your request rate.' };
    let n = 0;
    proxy.setRule(({ method, key, url }) => (method === 'GET' && key === stateKey && url.includes('alt=media') && n++ < 1 ? slow : 'pass'));
    const once = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([0, clean.stdout]);
    expect(n).toBeGreaterThanOrEqual(2);

    proxy.setRule(({ method, key, url }) => (method === 'GET' && key === stateKey && url.includes('alt=media') ? slow : 'pass'));
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toContain('found throttling (503');
    expect(always.stdout).toContain(`object ${stateKey}`);
  }, 180_000);

  it('throttling (429 rateLimitExceeded) once: retried after the backoff, the same answer; always: reported after the retries', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(clean.code).toBe(0);
    const tooMany = { status: 429, code: 'rateLimitExceeded', message: 'The object exceeded the rate limit for object mutation operations.' };
    let n = 0;
    proxy.setRule(({ method, key, url }) => (method === 'GET' && key === stateKey && url.includes('alt=media') && n++ < 1 ? tooMany : 'pass'));
    proxy.requests.length = 0;
    const once = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([0, clean.stdout]);
    // the client asked again, after its backoff (at least 1 s before the first retry: a busy machine only waits longer)
    const reads = proxy.requests.filter((r) => r.method === 'GET' && r.url.includes('alt=media') && r.url.includes(`/o/${encodeURIComponent(stateKey)}`));
    expect(reads.length, JSON.stringify(reads)).toBeGreaterThanOrEqual(2);
    expect(reads[1]!.at - reads[0]!.at).toBeGreaterThanOrEqual(900);

    proxy.setRule(({ method, key, url }) => (method === 'GET' && key === stateKey && url.includes('alt=media') ? tooMany : 'pass'));
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toContain('found throttling (429: The object exceeded the rate limit for object mutation operations.)');
    expect(always.stdout).toContain('retried with backoff by the client');
    expect(always.stdout).toContain(`object ${stateKey}`);
  }, 180_000);

  it('a connection reset mid-body once: retried, the same answer; always: the state not read, exit 1', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    let resets = 0;
    proxy.setRule(({ method, key, url }) => (method === 'GET' && key === stateKey && url.includes('alt=media') && resets++ === 0 ? 'reset-mid-body' : 'pass'));
    const once = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([clean.code, clean.stdout]);
    expect(resets).toBeGreaterThan(1);

    proxy.setRule(({ method, key, url }) => (method === 'GET' && key === stateKey && url.includes('alt=media') ? 'reset-mid-body' : 'pass'));
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toMatch(/found the connection was reset \(ECONNRESET\) after 3 attempts|found a broken answer/);
    expect(always.stdout).toContain(`object ${stateKey}`);
  }, 180_000);

  it('an object overwritten after the listing pinned its generation: an error naming the new generation, never a mixed read', async () => {
    let overwritten = false;
    proxy.setRule(async ({ method, key, url }): Promise<FaultAction> => {
      // overwritten for real in fake-gcs-server once _metadata is read, before the state file is
      if (method === 'GET' && key === 'sp/savepoint/_metadata' && url.includes('alt=media') && !overwritten) {
        overwritten = true;
        await overwrite();
      }
      return 'pass';
    });
    const r = await run(['check', URL, '--job-jar', THIN_JAR]);
    await putObject(gcs.storage, BUCKET, stateKey, original());
    expect(overwritten).toBe(true);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/found the object changed between reads \(its generation is now \d+; 412 on ifGenerationMatch\)/);
    expect(r.stdout).toContain(`object ${stateKey}`);
  });

  it('stats on 2 worker threads: an object overwritten after the main thread listed it is an error in the worker, not a mixed read', async () => {
    const clean = await run(['stats', URL, '--workers', '2', '--format', 'json']);
    expect(clean.code, clean.stderr).toBe(0);
    expect((JSON.parse(clean.stdout) as { workers: number }).workers).toBe(2);
    let fullListings = 0;
    proxy.setRule(async ({ method, url }): Promise<FaultAction> => {
      // the main thread lists the folder once in full (besides a one-level listing); each worker lists it again: overwrite before the first worker's listing
      if (method === 'GET' && /\/b\/[^/]+\/o\?/.test(url) && !url.includes('delimiter=') && ++fullListings === 2) await overwrite();
      return 'pass';
    });
    const r = await run(['stats', URL, '--workers', '2', '--format', 'json']);
    await putObject(gcs.storage, BUCKET, stateKey, original());
    expect(fullListings).toBeGreaterThanOrEqual(2);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(errorLine(r.stderr)).toContain(
      `expected gs://${BUCKET}/${stateKey} (bucket ${BUCKET}, object ${stateKey}; ${proxy.endpoint} (STORAGE_EMULATOR_HOST)) to keep the generation`,
    );
    expect(errorLine(r.stderr)).toContain('it changed between reads (a mixed read is never used)');
  });
});
