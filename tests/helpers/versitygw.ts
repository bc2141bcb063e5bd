/**
 * A real S3-compatible server for the object-store tests: versitygw (scripts/ensure-versitygw.ts builds
 * it once per machine) serving a temporary folder on 127.0.0.1 at a free port, checking signatures
 * against one access key and secret. Also an S3 client of the test's own, to create buckets and upload
 * the fixtures, and a loopback proxy in front of the server that injects faults versitygw does not make
 * (throttling, a connection reset mid-body, a denied read of one object).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureVersitygw, findVersitygw, hasGo } from '../../scripts/ensure-versitygw';
import { filesBelow, freePort, listenOnLoopback, passOn, stopServer, waitForPort } from './loopback-servers';

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
  const child = spawn(bin, ['--access', ACCESS_KEY, '--secret', SECRET_KEY, '--port', `127.0.0.1:${port}`, 'posix', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
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
export async function uploadFolder(client: S3Client, bucket: string, dir: string, prefix: string, rename: (relative: string) => string = (r) => r): Promise<number> {
  const files = filesBelow(dir);
  for (const f of files) await putObject(client, bucket, `${prefix}${rename(f.relative)}`, readFileSync(f.file));
  return files.length;
}

/** What the proxy does with one request: pass it on, answer it itself, or break the answer mid-body. */
export type FaultAction = 'pass' | 'reset-mid-body' | { status: number; code: string; message: string };

export interface FaultProxy {
  endpoint: string;
  /** every request that reached the proxy: method, path (with the query) and Range header */
  readonly requests: { method: string; url: string; range?: string }[];
  setRule(rule: (req: { method: string; url: string; key: string }) => FaultAction | Promise<FaultAction>): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy on 127.0.0.1 in front of the gateway (path-style requests: the first path segment is the
 * bucket). Requests keep their Host header, so the gateway checks the client's signature as it was made.
 */
export async function startFaultProxy(upstreamPort: number): Promise<FaultProxy> {
  let rule: (req: { method: string; url: string; key: string }) => FaultAction | Promise<FaultAction> = () => 'pass';
  const requests: { method: string; url: string; range?: string }[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      const method = req.method ?? 'GET';
      requests.push({ method, url, ...(req.headers.range === undefined ? {} : { range: req.headers.range }) });
      const key = decodeURIComponent(url.replace(/\?.*$/, '').replace(/^\/[^/]*\/?/, ''));
      const action = await rule({ method, url, key });
      if (typeof action === 'object') {
        req.resume();
        const body = method === 'HEAD' ? '' : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${action.code}</Code><Message>${action.message}</Message><Key>${key}</Key><RequestId>fault-proxy</RequestId></Error>`;
        res.writeHead(action.status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      passOn(req, res, upstreamPort, (up) => {
        if (action === 'reset-mid-body' && (up.statusCode ?? 0) < 300) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          let sent = false;
          up.on('data', (chunk: Buffer) => {
            if (sent) return;
            sent = true;
            // half of the first chunk, then the connection is cut
            res.write(chunk.subarray(0, Math.max(1, chunk.length >> 1)), () => req.socket.destroy());
          });
          up.on('end', () => {
            if (!sent) req.socket.destroy();
          });
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
    })();
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    setRule(r) {
      rule = r;
    },
    close,
  };
}
