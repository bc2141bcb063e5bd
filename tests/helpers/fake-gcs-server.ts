/**
 * A GCS endpoint for the object-store tests: fake-gcs-server (scripts/ensure-fake-gcs-server.ts builds it
 * once per machine) serving an in-memory store on 127.0.0.1 at a free port, with object generations.
 * Also a client of the test's own (@google-cloud/storage through the emulator), to create buckets and
 * upload the fixtures, and a loopback proxy in front of the server that injects faults it does not make
 * (a denied read, throttling, a connection reset mid-body).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Storage } from '@google-cloud/storage';
import { ensureFakeGcsServer, findFakeGcsServer, hasGo } from '../../scripts/ensure-fake-gcs-server';
import { filesBelow, freePort, startFaultProxy, stopServer, waitForPort, type FaultProxy } from './loopback-servers';

/** Whether the GCS tests can run: a cached fake-gcs-server, or `go` to build one. */
export function canRunFakeGcsServer(): boolean {
  return findFakeGcsServer() !== undefined || hasGo();
}

export interface RunningFakeGcs {
  /** http://127.0.0.1:PORT, what STORAGE_EMULATOR_HOST names */
  endpoint: string;
  port: number;
  storage: Storage;
  stop(): Promise<void>;
}

/** Starts fake-gcs-server (building it first when missing) over an in-memory store. */
export async function startFakeGcsServer(): Promise<RunningFakeGcs> {
  const bin = await ensureFakeGcsServer();
  if (bin === undefined) throw new Error('fake-gcs-server is not built and go is absent');
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-gcs-'));
  const port = await freePort();
  let output = '';
  const child = spawn(
    bin,
    [
      '-scheme',
      'http',
      '-host',
      '127.0.0.1',
      '-port',
      String(port),
      '-public-host',
      `127.0.0.1:${port}`,
      '-backend',
      'memory',
      '-data',
      dir,
      '-log-level',
      'error',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await waitForPort('fake-gcs-server', port, child, () => output);
  const endpoint = `http://127.0.0.1:${port}`;
  return { endpoint, port, storage: testClient(endpoint), stop: () => stopServer(child, dir) };
}

export function testClient(endpoint: string): Storage {
  return new Storage({ apiEndpoint: endpoint, projectId: 'test' });
}

export async function putObject(storage: Storage, bucket: string, key: string, body: Uint8Array): Promise<void> {
  await storage.bucket(bucket).file(key).save(Buffer.from(body), { resumable: false, validation: false });
}

/** Uploads every file below `dir` to `bucket` under `prefix` (+ its path relative to `dir`, '/'-separated). */
export async function uploadFolder(
  storage: Storage,
  bucket: string,
  dir: string,
  prefix: string,
  rename: (relative: string) => string = (r) => r,
): Promise<number> {
  const files = filesBelow(dir);
  for (const f of files) await putObject(storage, bucket, `${prefix}${rename(f.relative)}`, readFileSync(f.file));
  return files.length;
}

/**
 * The fault proxy (loopback-servers.ts) for the JSON API: an object is named in the path
 * (`/storage/v1/b/B/o/NAME` or `/download/storage/v1/b/B/o/NAME`), an error answered as GCS answers it.
 */
export function startGcsFaultProxy(upstreamPort: number): Promise<FaultProxy> {
  return startFaultProxy(upstreamPort, {
    keyOf: (url) => {
      const m = /\/b\/[^/?]+\/o\/([^?]+)/.exec(url);
      return m === null ? '' : decodeURIComponent(m[1]!);
    },
    errorBody: (action) =>
      JSON.stringify({ error: { code: action.status, message: action.message, errors: [{ reason: action.code, message: action.message, domain: 'global' }] } }),
    contentType: 'application/json',
  });
}
