/**
 * What the object-store test servers share (tests/helpers/versitygw.ts, azurite.ts, fake-gcs-server.ts):
 * a free loopback port, waiting for a child process to listen (or to say where it listens), stopping it
 * and removing its folder, the files of a fixture folder to upload, and a loopback HTTP server in front
 * of one (a proxy) with its requests passed on unchanged, or a fault injected.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once 127.0.0.1:`port` accepts a connection; rejects when `child` exits first or after 60 s. */
export async function waitForPort(name: string, port: number, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not listen on 127.0.0.1:${port} within 60 s:\n${log()}`);
}

/** Resolves with the first match of `said` in the child's output (stdout and stderr); rejects when it exits first or after 60 s. */
export function waitForOutput(name: string, child: ChildProcess, said: RegExp): Promise<RegExpExecArray> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not listen within 60 s:\n${output}`)), 60_000);
    const seen = (d: Buffer) => {
      output += d.toString();
      const m = said.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}):\n${output}`));
    });
  });
}

/** Stops `child` (SIGTERM, then SIGKILL after 5 s, waiting for it to exit) and removes the folder it served. */
export async function stopServer(child: ChildProcess, dir: string): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    // a server that shuts down gracefully waits for the keep-alive connections its clients still hold (Azurite does,
    // for the Azure SDK's pooled sockets in this process): past a grace period it is killed
    const grace = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(grace);
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Every file below `dir`, sorted, with its path relative to `dir` ('/'-separated). */
export function filesBelow(dir: string): { file: string; relative: string }[] {
  const walk = (d: string): string[] =>
    readdirSync(d)
      .sort()
      .flatMap((n) => (statSync(path.join(d, n)).isDirectory() ? walk(path.join(d, n)) : [path.join(d, n)]));
  return walk(dir).map((file) => ({ file, relative: path.relative(dir, file).split(path.sep).join('/') }));
}

/**
 * Passes `req` on to 127.0.0.1:`upstreamPort` as it came (headers kept, so signatures still hold);
 * `answer` writes the upstream's answer to `res` (by default: as it is).
 */
export function passOn(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  upstreamPort: number,
  answer: (up: http.IncomingMessage) => void = (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  },
): void {
  const upstream = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers }, answer);
  upstream.on('error', () => req.socket.destroy());
  req.pipe(upstream);
}

/** Listens on 127.0.0.1 at a port the system picks; `close` ends every open connection too. */
export async function listenOnLoopback(server: http.Server): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What the fault proxy does with one request: pass it on, answer it itself (with extra response headers, such
 * as S3's x-amz-bucket-region or a Retry-After), or break the answer mid-body.
 */
export type FaultAction = 'pass' | 'reset-mid-body' | { status: number; code: string; message: string; headers?: Record<string, string> };

export interface FaultProxy {
  endpoint: string;
  /** every request that reached the proxy: method, path (with the query), Range (or x-ms-range) header and when it came (performance.now(), ms) */
  readonly requests: { method: string; url: string; range?: string; at: number }[];
  setRule(rule: (req: { method: string; url: string; key: string }) => FaultAction | Promise<FaultAction>): void;
  close(): Promise<void>;
}

/** How one store's requests name their object, and how it answers an error. */
export interface FaultProxyDialect {
  keyOf(url: string): string;
  errorBody(action: { status: number; code: string; message: string }, key: string): string;
  /** headers every error answer carries (Azure's x-ms-error-code: a HEAD's only way to say its code) */
  errorHeaders?(action: { status: number; code: string; message: string }): Record<string, string>;
  contentType: string;
}

/**
 * An HTTP proxy on 127.0.0.1 in front of a store's server. Requests keep their Host header, so a server
 * that checks signatures checks the client's as it was made.
 */
export async function startFaultProxy(upstreamPort: number, dialect: FaultProxyDialect): Promise<FaultProxy> {
  let rule: (req: { method: string; url: string; key: string }) => FaultAction | Promise<FaultAction> = () => 'pass';
  const requests: { method: string; url: string; range?: string; at: number }[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '/';
      const method = req.method ?? 'GET';
      const range = req.headers.range ?? req.headers['x-ms-range'];
      requests.push({ method, url, ...(range === undefined ? {} : { range: String(range) }), at: performance.now() });
      const key = dialect.keyOf(url);
      let action: FaultAction;
      try {
        action = await rule({ method, url, key });
      } catch (e) {
        // a rule that fails (e.g. its own upload) answers 502 with why, so the test sees it: never an unhandled rejection
        req.resume();
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`fault proxy rule failed: ${String(e)}`);
        return;
      }
      if (typeof action === 'object') {
        req.resume();
        const body = method === 'HEAD' ? '' : dialect.errorBody(action, key);
        res.writeHead(action.status, {
          ...dialect.errorHeaders?.(action),
          ...action.headers,
          'Content-Type': dialect.contentType,
          'Content-Length': Buffer.byteLength(body),
        });
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
