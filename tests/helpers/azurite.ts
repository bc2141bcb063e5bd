/**
 * A real Azure Blob endpoint for the object-store tests: Azurite (Microsoft's emulator, the `azurite`
 * devDependency) serving a temporary folder on 127.0.0.1 at a port the system picks, checking every
 * request's shared-key signature against the development account. Also a client of the test's own, to
 * create containers and upload the fixtures, a loopback proxy in front of it that counts requests, and
 * the fault proxy (loopback-servers.ts) speaking Azure's errors.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { filesBelow, listenOnLoopback, passOn, startFaultProxy, stopServer, waitForOutput, type FaultProxy } from './loopback-servers';

/** The development storage account and key, as Microsoft publishes them for Azurite and the emulator. */
export const ACCOUNT = 'devstoreaccount1';
export const ACCOUNT_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface RunningAzurite {
  /** the Blob endpoint, the account in its path: http://127.0.0.1:PORT/devstoreaccount1 */
  endpoint: string;
  port: number;
  client: BlobServiceClient;
  stop(): Promise<void>;
}

/** Starts azurite-blob over a fresh temporary folder; resolves once it says where it listens. */
export async function startAzurite(): Promise<RunningAzurite> {
  const dir = mkdtempSync(path.join(tmpdir(), 'azurite-'));
  const bin = path.join(process.cwd(), 'node_modules', 'azurite', 'dist', 'src', 'blob', 'main.js');
  const child = spawn(
    process.execPath,
    [bin, '--blobHost', '127.0.0.1', '--blobPort', '0', '--location', dir, '--silent', '--skipApiVersionCheck', '--loose'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const port = Number((await waitForOutput('azurite-blob', child, /listens on http:\/\/127\.0\.0\.1:(\d+)/))[1]);
  const endpoint = `http://127.0.0.1:${port}/${ACCOUNT}`;
  return {
    endpoint,
    port,
    client: new BlobServiceClient(endpoint, new StorageSharedKeyCredential(ACCOUNT, ACCOUNT_KEY)),
    stop: () => stopServer(child, dir),
  };
}

export async function putBlob(client: BlobServiceClient, container: string, blob: string, body: Uint8Array): Promise<void> {
  await client.getContainerClient(container).getBlockBlobClient(blob).uploadData(Buffer.from(body));
}

/** Uploads every file below `dir` to `container` under `prefix` (+ its path relative to `dir`, '/'-separated). */
export async function uploadFolder(client: BlobServiceClient, container: string, dir: string, prefix: string): Promise<number> {
  const files = filesBelow(dir);
  for (const f of files) await putBlob(client, container, `${prefix}${f.relative}`, readFileSync(f.file));
  return files.length;
}

export interface CountingProxy {
  endpoint: string;
  /** every request that reached the proxy: method, path (with the query) and Range header */
  readonly requests: { method: string; url: string; range?: string }[];
  /** runs before a request is passed on (e.g. to overwrite a blob for real between two reads) */
  setHook(hook: (req: { method: string; url: string }) => Promise<void> | void): void;
  close(): Promise<void>;
}

/** A pass-through HTTP proxy on 127.0.0.1 in front of Azurite (headers kept, so the signatures still hold). */
export async function startCountingProxy(upstreamPort: number): Promise<CountingProxy> {
  const requests: { method: string; url: string; range?: string }[] = [];
  let hook: (req: { method: string; url: string }) => Promise<void> | void = () => undefined;
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      const method = req.method ?? 'GET';
      const range = req.headers['x-ms-range'] ?? req.headers.range;
      requests.push({ method, url, ...(range === undefined ? {} : { range: String(range) }) });
      try {
        await hook({ method, url });
      } catch (e) {
        // a hook that fails (e.g. its own upload) answers 502 with why, so the test sees it: never an unhandled rejection
        req.resume();
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`counting proxy hook failed: ${String(e)}`);
        return;
      }
      passOn(req, res, upstreamPort);
    })();
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    endpoint: `http://127.0.0.1:${port}/${ACCOUNT}`,
    requests,
    setHook(h) {
      hook = h;
    },
    close,
  };
}

/**
 * The fault proxy (loopback-servers.ts) in front of Azurite: its `endpoint` is the Blob endpoint with the
 * account in its path, the rule's `key` the blob's name (without the container; '' for a container's
 * listing), an error answered as Azure answers it (an XML body and the x-ms-error-code header).
 */
export async function startAzureFaultProxy(upstreamPort: number): Promise<FaultProxy> {
  const proxy = await startFaultProxy(upstreamPort, {
    keyOf: (url) => {
      const m = new RegExp(`^/${ACCOUNT}/[^/?]+/([^?]+)`).exec(url);
      return m === null ? '' : decodeURIComponent(m[1]!);
    },
    errorBody: (action) =>
      `<?xml version="1.0" encoding="utf-8"?><Error><Code>${action.code}</Code><Message>${action.message}\nRequestId:00000000-0000-0000-0000-000000000000\nTime:2026-01-01T00:00:00.0000000Z</Message></Error>`,
    errorHeaders: (action) => ({ 'x-ms-error-code': action.code }),
    contentType: 'application/xml',
  });
  return { ...proxy, endpoint: `${proxy.endpoint}/${ACCOUNT}`, setRule: proxy.setRule, close: proxy.close };
}
