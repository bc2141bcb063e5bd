/**
 * A real S3-compatible server for the object-store tests: versitygw (scripts/ensure-versitygw.ts builds
 * it once per machine) serving a temporary folder on 127.0.0.1 at a free port, checking signatures
 * against one access key and secret. Also an S3 client of the test's own, to create buckets and upload
 * the fixtures, and a loopback proxy in front of the server that injects faults versitygw does not make
 * (throttling, a connection reset mid-body, a denied read of one object).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureVersitygw, findVersitygw, hasGo } from '../../scripts/ensure-versitygw';
import { filesBelow, freePort, startFaultProxy as startFaultProxyOf, stopServer, waitForPort, type FaultProxy } from './loopback-servers';

export type { FaultAction, FaultProxy } from './loopback-servers';

export const ACCESS_KEY = 'inspector-test-access';
export const SECRET_KEY = 'inspector-test-secret-key';

/** Whether the S3 tests can run: a cached versitygw, or `go` to build one. */
export function canRunVersitygw(): boolean {
  return findVersitygw() !== undefined || hasGo();
}

export interface RunningGateway {
  endpoint: string;
  port: number;
  client: S3Client;
  stop(): Promise<void>;
}

/** Starts versitygw (building it first when missing) over a fresh temporary folder. */
export async function startVersitygw(): Promise<RunningGateway> {
  const bin = await ensureVersitygw();
  if (bin === undefined) throw new Error('versitygw is not built and go is absent');
  const dir = mkdtempSync(path.join(tmpdir(), 'versitygw-'));
  const port = await freePort();
  let output = '';
  const child = spawn(bin, ['--access', ACCESS_KEY, '--secret', SECRET_KEY, '--port', `127.0.0.1:${port}`, 'posix', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitForPort('versitygw', port, child, () => output);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    port,
    client: createTestClient(endpoint),
    stop: () => stopServer(child, dir),
  };
}

export function createTestClient(endpoint: string, secret = SECRET_KEY): S3Client {
  process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  return new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: secret } });
}

export async function createBucket(client: S3Client, bucket: string): Promise<void> {
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
}

export async function putObject(client: S3Client, bucket: string, key: string, body: Uint8Array): Promise<void> {
  await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

/** Uploads every file below `dir` to `bucket` under `prefix` (+ its path relative to `dir`, '/'-separated). */
export async function uploadFolder(
  client: S3Client,
  bucket: string,
  dir: string,
  prefix: string,
  rename: (relative: string) => string = (r) => r,
): Promise<number> {
  const files = filesBelow(dir);
  for (const f of files) await putObject(client, bucket, `${prefix}${rename(f.relative)}`, readFileSync(f.file));
  return files.length;
}

/**
 * The fault proxy (loopback-servers.ts) for path-style S3 requests: the first path segment is the bucket,
 * the rest the key; an error answered as S3 answers it (XML).
 */
export function startFaultProxy(upstreamPort: number): Promise<FaultProxy> {
  return startFaultProxyOf(upstreamPort, {
    keyOf: (url) => decodeURIComponent(url.replace(/\?.*$/, '').replace(/^\/[^/]*\/?/, '')),
    errorBody: (action, key) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${action.code}</Code><Message>${action.message}</Message><Key>${key}</Key><RequestId>fault-proxy</RequestId></Error>`,
    contentType: 'application/xml',
  });
}
