/**
 * `s3://` inputs when the store fails, against versitygw on 127.0.0.1 (tests/helpers/versitygw.ts): each
 * failure is one line naming the bucket and key, the credential source and what the store answered, with
 * exit 2 — or, when only a state file fails, that state marked not read and exit 1 from `check`.
 *
 * Made for real by versitygw: a wrong secret (403 SignatureDoesNotMatch), a missing bucket or object, an
 * object overwritten between the listing that pinned its ETag and its read (412 on If-Match). Injected by
 * a loopback proxy in front of it (what versitygw does not do): throttling (503 SlowDown, 429 TooManyRequests
 * with a Retry-After) and a connection reset mid-body, each once (retried, then the same answer as without the
 * fault) and always (reported), a 403 AccessDenied and a 301 PermanentRedirect to another region (with
 * x-amz-bucket-region) on `_metadata` or on one state file. No credentials at all: an empty default chain
 * (no environment keys, no config files, instance metadata disabled).
 *
 * Skipped, and said so, only where neither a built versitygw nor `go` (to build it) is present.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import {
  ACCESS_KEY,
  canRunVersitygw,
  createBucket,
  putObject,
  SECRET_KEY,
  startFaultProxy,
  startVersitygw,
  uploadFolder,
  type FaultAction,
  type FaultProxy,
  type RunningGateway,
} from '../helpers/versitygw';

const RUN = canRunVersitygw();
if (!RUN)
  console.warn(
    'tests/object-stores/s3-faults.test.ts: SKIPPED — no versitygw binary and no `go` to build it (scripts/ensure-versitygw.ts): the S3 failure cases are not tested',
  );

const ROOT = process.cwd();
const HASHMAP = 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint';
const THIN_JAR = 'fixtures/job-jars/jars/thin-4.36.2.jar';
const BUCKET = 'faults';
const URL = `s3://${BUCKET}/sp/savepoint`;
const ENV_SOURCE = 'credentials from environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)';

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

describe.skipIf(!RUN)('s3:// inputs when the store fails', () => {
  let gw: RunningGateway;
  let proxy: FaultProxy;
  let scratch: string;
  /** the state file the tests break: the largest one (it holds keyed state) */
  let stateKey: string;
  const saved = { ...process.env };

  const useEnv = (vars: Record<string, string>) => {
    for (const k of Object.keys(process.env)) if (k.startsWith('AWS_')) delete process.env[k];
    Object.assign(process.env, {
      AWS_CONFIG_FILE: path.join(scratch, 'no-aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: path.join(scratch, 'no-aws-credentials'),
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_ENDPOINT_URL_S3: proxy.endpoint,
      ...vars,
    });
  };

  beforeAll(
    async () => {
      gw = await startVersitygw();
      proxy = await startFaultProxy(gw.port);
      scratch = mkdtempSync(path.join(tmpdir(), 's3-faults-'));
      await createBucket(gw.client, BUCKET);
      await uploadFolder(gw.client, BUCKET, path.join(ROOT, HASHMAP), 'sp/savepoint/');
      const local = await run(['inspect', HASHMAP, '--format', 'json', '--handles']);
      const files = [...local.stdout.matchAll(/"path": "([0-9a-f-]{36})",\s*"size": (\d+)/g)].map((m) => ({ name: m[1]!, size: Number(m[2]) }));
      stateKey = `sp/savepoint/${files.sort((a, b) => b.size - a.size)[0]!.name}`;
    },
    40 * 60 * 1000,
  );

  beforeEach(() => {
    useEnv({ AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: SECRET_KEY, AWS_MAX_ATTEMPTS: '3' });
    proxy.setRule(() => 'pass');
  });

  afterAll(async () => {
    process.env = saved;
    await proxy?.close();
    await gw?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('no credentials anywhere in the default chain: exit 2, naming bucket and key', async () => {
    useEnv({});
    proxy.requests.length = 0;
    const r = await run(['inspect', URL]);
    expect(r.code).toBe(2);
    const line = errorLine(r.stderr);
    expect(line).toContain(
      `expected AWS credentials to read ${URL} (bucket ${BUCKET}, key sp/savepoint; ${proxy.endpoint} (AWS_ENDPOINT_URL_S3, path-style)), found none in the default chain`,
    );
    // nothing was sent unsigned
    expect(proxy.requests).toEqual([]);
  });

  it('a wrong secret: versitygw answers 403 SignatureDoesNotMatch, for the folder and for its _metadata', async () => {
    useEnv({ AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: 'not-the-secret' });
    for (const url of [URL, `${URL}/_metadata`]) {
      const r = await run(['check', url, '--job-jar', THIN_JAR]);
      expect(r.code, url).toBe(2);
      const line = errorLine(r.stderr);
      expect(line).toContain(`(bucket ${BUCKET}, key sp/savepoint`);
      expect(line).toContain(ENV_SOURCE);
      expect(line).toContain('found access denied (403 SignatureDoesNotMatch');
      expect(line).toContain('the secret key does not match the access key');
    }
  });

  it('403 AccessDenied on _metadata: exit 2', async () => {
    proxy.setRule(({ method, key }) =>
      method === 'GET' && key === 'sp/savepoint/_metadata' ? { status: 403, code: 'AccessDenied', message: 'Access Denied' } : 'pass',
    );
    const r = await run(['inspect', URL]);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toContain(
      `expected to read s3://${BUCKET}/sp/savepoint/_metadata (bucket ${BUCKET}, key sp/savepoint/_metadata; ${proxy.endpoint} (AWS_ENDPOINT_URL_S3, path-style); ${ENV_SOURCE}), found access denied (403 AccessDenied: Access Denied): these credentials may not read it`,
    );
  });

  it('403 AccessDenied on one state file: that state is not read, check exits 1', async () => {
    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateKey ? { status: 403, code: 'AccessDenied', message: 'Access Denied' } : 'pass'));
    const r = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(`found access denied (403 AccessDenied: Access Denied): these credentials may not read it`);
    expect(r.stdout).toContain(`key ${stateKey}`);
  });

  it('a missing bucket and a missing object: exit 2', async () => {
    const bucket = await run(['inspect', 's3://no-such-bucket/sp/savepoint/']);
    expect(bucket.code).toBe(2);
    expect(errorLine(bucket.stderr)).toContain('(bucket no-such-bucket, key sp/savepoint/;');
    expect(errorLine(bucket.stderr)).toContain('found no bucket "no-such-bucket" (404 NoSuchBucket)');
    const object = await run(['inspect', `s3://${BUCKET}/sp/elsewhere/_metadata`]);
    expect(object.code).toBe(2);
    expect(errorLine(object.stderr)).toContain(`(bucket ${BUCKET}, key sp/elsewhere/_metadata;`);
    expect(errorLine(object.stderr)).toContain('found no such object (404 NoSuchKey)');
    const prefix = await run(['inspect', `s3://${BUCKET}/nothing-here/`]);
    expect(prefix.code).toBe(2);
    expect(errorLine(prefix.stderr)).toContain('found no object with that key or prefix');
  });

  it('throttling (503 SlowDown) once: retried, the same answer as without it; always: reported after the attempts', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(clean.code).toBe(0);
    const seen = new Map<string, number>();
    proxy.setRule(({ method, key }) => {
      if (method !== 'GET' || key !== stateKey) return 'pass';
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      return n <= 2 ? { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' } : 'pass';
    });
    const once = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([0, clean.stdout]);
    expect(seen.get(stateKey)).toBeGreaterThanOrEqual(3);

    proxy.setRule(({ method, key }) =>
      method === 'GET' && key === stateKey ? { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' } : 'pass',
    );
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code).toBe(1);
    expect(always.stdout).toContain('found throttling (503 SlowDown: Please reduce your request rate.) after 3 attempts, retried with backoff and jitter');
    proxy.setRule(({ method, key }) =>
      method === 'GET' && key === 'sp/savepoint/_metadata' ? { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' } : 'pass',
    );
    const metadata = await run(['inspect', URL]);
    expect(metadata.code).toBe(2);
    expect(errorLine(metadata.stderr)).toContain(`(bucket ${BUCKET}, key sp/savepoint/_metadata;`);
    expect(errorLine(metadata.stderr)).toContain('found throttling (503 SlowDown: Please reduce your request rate.) after 3 attempts');
  });

  it('throttling (429 TooManyRequests) once: retried after the Retry-After it asked for, the same answer; always: reported after the attempts', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(clean.code).toBe(0);
    const tooMany = { status: 429, code: 'TooManyRequests', message: 'Please reduce your request rate.', headers: { 'Retry-After': '1' } };
    let n = 0;
    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateKey && n++ === 0 ? tooMany : 'pass'));
    proxy.requests.length = 0;
    const once = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([0, clean.stdout]);
    // the SDK asked again, and waited: the Retry-After of 1 s (at least; a busy machine only waits longer) before the retry
    const reads = proxy.requests.filter((r) => r.method === 'GET' && r.url.startsWith(`/${BUCKET}/${stateKey}`));
    expect(reads.length, JSON.stringify(reads)).toBeGreaterThanOrEqual(2);
    expect(reads[1]!.at - reads[0]!.at).toBeGreaterThanOrEqual(900);

    proxy.setRule(({ method, key }) =>
      method === 'GET' && key === stateKey ? { status: 429, code: 'TooManyRequests', message: 'Please reduce your request rate.' } : 'pass',
    );
    proxy.requests.length = 0;
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toContain(
      'found throttling (429 TooManyRequests: Please reduce your request rate.) after 3 attempts, retried with backoff and jitter',
    );
    expect(always.stdout).toContain(`key ${stateKey}`);
    // AWS_MAX_ATTEMPTS=3: each read of the state file was sent 3 times, not more
    const tries = proxy.requests.filter((r) => r.method === 'GET' && r.url.startsWith(`/${BUCKET}/${stateKey}`));
    expect(tries.length % 3, JSON.stringify(tries)).toBe(0);
    expect(tries.length).toBeGreaterThanOrEqual(3);

    proxy.setRule(({ method, key }) =>
      method === 'GET' && key === 'sp/savepoint/_metadata' ? { status: 429, code: 'TooManyRequests', message: 'Please reduce your request rate.' } : 'pass',
    );
    const metadata = await run(['inspect', URL]);
    expect(metadata.code).toBe(2);
    expect(errorLine(metadata.stderr)).toContain(`(bucket ${BUCKET}, key sp/savepoint/_metadata;`);
    expect(errorLine(metadata.stderr)).toContain('found throttling (429 TooManyRequests: Please reduce your request rate.) after 3 attempts');
  }, 180_000);

  it('a redirect to another region (301 PermanentRedirect, x-amz-bucket-region) on _metadata: exit 2, telling the region to set', async () => {
    const moved = {
      status: 301,
      code: 'PermanentRedirect',
      message: 'The bucket you are attempting to access must be addressed using the specified endpoint. Please send all future requests to this endpoint.',
      headers: { 'x-amz-bucket-region': 'ap-southeast-2' },
    };
    proxy.setRule(({ key }) => (key === 'sp/savepoint/_metadata' ? moved : 'pass'));
    proxy.requests.length = 0;
    const r = await run(['inspect', URL]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    const line = errorLine(r.stderr);
    expect(line).toContain(`(bucket ${BUCKET}, key sp/savepoint/_metadata; ${proxy.endpoint} (AWS_ENDPOINT_URL_S3, path-style); ${ENV_SOURCE})`);
    expect(line).toMatch(
      /found a redirect to another region \(301 PermanentRedirect: The bucket you are attempting to access must be addressed using the specified endpoint\./,
    );
    expect(line).toContain('the bucket is in ap-southeast-2 (x-amz-bucket-region) — set AWS_REGION=ap-southeast-2');
  });

  it('a redirect to another region on one state file: that state is not read, check exits 1', async () => {
    const moved = {
      status: 301,
      code: 'PermanentRedirect',
      message: 'The bucket you are attempting to access must be addressed using the specified endpoint.',
      headers: { 'x-amz-bucket-region': 'ap-southeast-2' },
    };
    proxy.setRule(({ key }) => (key === stateKey ? moved : 'pass'));
    const r = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(`key ${stateKey}`);
    expect(r.stdout).toContain(
      'found a redirect to another region (301 PermanentRedirect: The bucket you are attempting to access must be addressed using the specified endpoint.)',
    );
    expect(r.stdout).toContain('the bucket is in ap-southeast-2 (x-amz-bucket-region) — set AWS_REGION=ap-southeast-2');
  });

  it('a connection reset mid-body once: retried, the same answer; always: the state not read, exit 1', async () => {
    const clean = await run(['check', URL, '--job-jar', THIN_JAR]);
    let resets = 0;
    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateKey && resets++ === 0 ? 'reset-mid-body' : 'pass'));
    const once = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect([once.code, once.stdout]).toEqual([clean.code, clean.stdout]);
    expect(resets).toBeGreaterThan(1);

    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateKey ? 'reset-mid-body' : 'pass'));
    const always = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(always.code, always.stdout + always.stderr).toBe(1);
    expect(always.stdout).toMatch(/found the connection was reset \(ECONNRESET\) after 3 attempts|found a broken answer/);
    expect(always.stdout).toContain(`key ${stateKey}`);
  });

  it('stats streams each state file: a connection reset mid-body once is asked for again from where it broke, the same answer; always: reported after the attempts', async () => {
    const stateReads = () => proxy.requests.filter((r) => r.method === 'GET' && r.url.startsWith(`/${BUCKET}/${stateKey}`)).map((r) => r.range ?? '');
    const bytesOf = (range: string) => Number(/-(\d+)$/.exec(range)?.[1]) - Number(/^bytes=(\d+)-/.exec(range)?.[1]) + 1;
    proxy.requests.length = 0;
    const clean = await run(['stats', URL, '--workers', '1', '--format', 'json']);
    expect(clean.code, clean.stderr).toBe(0);
    // the state file's headers are read by range first; the scan's streamed read is the longest
    const cleanReads = stateReads();
    const streamed = cleanReads.indexOf(cleanReads.reduce((a, b) => (bytesOf(b) > bytesOf(a) ? b : a)));
    let n = 0;
    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateKey && n++ === streamed ? 'reset-mid-body' : 'pass'));
    proxy.requests.length = 0;
    const once = await run(['stats', URL, '--workers', '1', '--format', 'json']);
    expect([once.code, once.stdout]).toEqual([0, clean.stdout]);
    // the scan's read of the state file and its resumption: the second asks from the first byte the first did not deliver
    const reads = stateReads().slice(streamed);
    const starts = reads.map((r) => Number(/^bytes=(\d+)-/.exec(r)?.[1]));
    const ends = reads.map((r) => Number(/-(\d+)$/.exec(r)?.[1]));
    expect(reads.length, JSON.stringify([cleanReads, reads])).toBeGreaterThanOrEqual(2);
    expect(starts[1], JSON.stringify([cleanReads, reads])).toBeGreaterThan(starts[0]!);
    expect(ends[1], JSON.stringify([cleanReads, reads])).toBe(ends[0]);

    proxy.setRule(({ method, key }) => (method === 'GET' && key === stateKey ? 'reset-mid-body' : 'pass'));
    // (stats lists a state file it could not read among its errors, and exits 0 as it does for a local one)
    const always = await run(['stats', URL, '--workers', '1', '--format', 'json']);
    expect(always.stdout + always.stderr).toMatch(/found the connection was reset \(ECONNRESET\) after 3 attempts|found a broken answer/);
    expect(always.stdout + always.stderr).toContain(`key ${stateKey}`);
  });

  it('an object overwritten after the listing pinned its ETag: 412 on If-Match, never a mixed read', async () => {
    let overwritten = false;
    proxy.setRule(async ({ method, key }): Promise<FaultAction> => {
      // overwritten for real in versitygw once _metadata is read, before the state file is
      if (method === 'GET' && key === 'sp/savepoint/_metadata' && !overwritten) {
        overwritten = true;
        const bytes = new Uint8Array(readFileSync(path.join(ROOT, HASHMAP, path.basename(stateKey))));
        bytes[bytes.length - 1] ^= 0xff;
        await putObject(gw.client, BUCKET, stateKey, bytes);
      }
      return 'pass';
    });
    const r = await run(['check', URL, '--job-jar', THIN_JAR]);
    expect(overwritten).toBe(true);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('found the object changed between reads');
    expect(r.stdout).toContain('412 PreconditionFailed on If-Match');
    expect(r.stdout).toContain(`key ${stateKey}`);
    // put back for the other tests
    await putObject(gw.client, BUCKET, stateKey, readFileSync(path.join(ROOT, HASHMAP, path.basename(stateKey))));
  });
  it('stats on 2 worker threads: an object overwritten after the main thread listed it is an error in the worker, not a mixed read', async () => {
    const clean = await run(['stats', URL, '--workers', '2', '--format', 'json']);
    expect(clean.code).toBe(0);
    expect((JSON.parse(clean.stdout) as { workers: number }).workers).toBe(2);
    let fullListings = 0;
    proxy.setRule(async ({ method, url }): Promise<FaultAction> => {
      // the main thread lists the folder once (besides a 1-key probe and a one-level listing); each worker lists it again: overwrite before the first worker's listing
      if (
        method === 'GET' &&
        url.includes('list-type=2') &&
        !url.includes('delimiter=') &&
        !url.includes('max-keys=1&') &&
        !url.endsWith('max-keys=1') &&
        ++fullListings === 2
      ) {
        const bytes = new Uint8Array(readFileSync(path.join(ROOT, HASHMAP, path.basename(stateKey))));
        bytes[bytes.length - 1] ^= 0xff;
        await putObject(gw.client, BUCKET, stateKey, bytes);
      }
      return 'pass';
    });
    const r = await run(['stats', URL, '--workers', '2', '--format', 'json']);
    await putObject(gw.client, BUCKET, stateKey, readFileSync(path.join(ROOT, HASHMAP, path.basename(stateKey))));
    expect(fullListings).toBeGreaterThanOrEqual(2);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(errorLine(r.stderr)).toContain(
      `expected s3://${BUCKET}/${stateKey} (bucket ${BUCKET}, key ${stateKey}; ${proxy.endpoint} (AWS_ENDPOINT_URL_S3, path-style)) to keep the ETag`,
    );
    expect(errorLine(r.stderr)).toContain('it changed between reads (a mixed read is never used)');
  });
});
