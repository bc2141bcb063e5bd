/**
 * The server of `serve` (./serve.ts): the built app (a `vite build` output folder) on 127.0.0.1 only,
 * for this machine's browser. Every response carries the Content-Security-Policy the preview server
 * sends (vite-plugins/content-security-policy.ts, the same function). A request needs the server's
 * random token: the printed URL carries it (`?token=`); the first request with it gets a cookie
 * (HttpOnly, SameSite=Strict, named for the port), which the page's own requests (scripts, workers,
 * WebAssembly) then carry. Without either: 403. A Host other than this server's loopback address
 * (a DNS-rebinding page) is refused too. Only GET and HEAD, only files inside the folder: a path with
 * `..`, a NUL, a backslash or a symbolic link out of the folder is refused. The build's service worker
 * (`service-worker.js`, the offline copy for static hosts) is not handed out: each `serve` picks a new
 * port, so a new origin, where it would store the whole build (35 MB) again, and this server is on
 * this machine anyway; the app runs without it.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildContentSecurityPolicy } from '../../../vite-plugins/content-security-policy';
import { createCompanionApi, type CompanionApi, type OpenObjectStoreInput } from './companion-api';
import { sameToken } from './same-token';

/** The build's service worker (vite.config.ts, src/ui/offline/), answered 404 here. */
const SERVICE_WORKER_PATH = '/service-worker.js';

/** The only address `serve` binds: loopback, never a public interface. */
export const SERVE_HOST = '127.0.0.1';

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.binpb': 'application/octet-stream',
};

export interface AppServer {
  /** the URL to open, with the token */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

export interface AppServerOptions {
  /** the built app's folder (index.html at its top) */
  appDir: string;
  /** 0: a free port the system picks */
  port: number;
  /** tests give one; otherwise 32 random bytes, hex */
  token?: string;
  /** how the companion API opens an object-store URL (tests give their own); the CLI's openNodeInput otherwise */
  openObjectStore?: OpenObjectStoreInput;
}

/** Starts the server; rejects with Node's error when the port cannot be bound (EADDRINUSE, EACCES). */
export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const root = await realpath(options.appDir);
  const token = options.token ?? randomBytes(32).toString('hex');
  let port = options.port;
  const api = createCompanionApi(options.openObjectStore);
  const server = createServer((req, res) => {
    handle(req, res, { root, token, port, api }).catch(() => {
      if (!res.headersSent) respond(res, 500, 'internal error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, SERVE_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${SERVE_HOST}:${port}/?token=${token}`,
    port,
    token,
    close: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((e) => (e ? reject(e) : resolve()));
    server.closeAllConnections();
  });
}

interface Context {
  root: string;
  token: string;
  port: number;
  api: CompanionApi;
}

async function handle(req: IncomingMessage, res: ServerResponse, { root, token, port, api }: Context): Promise<void> {
  const url = new URL(req.url ?? '/', `http://${SERVE_HOST}:${port}`);
  // connect-src: the page's own origin and, named, the companion's (this server's loopback origin), nothing else
  res.setHeader('Content-Security-Policy', buildContentSecurityPolicy(url.searchParams.get('savepoint'), `http://${SERVE_HOST}:${port}`));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  const host = req.headers.host;
  if (host !== `${SERVE_HOST}:${port}` && host !== `localhost:${port}`) return respond(res, 403, 'forbidden: this server answers only at its loopback address');
  // the companion API (./companion-api.ts) takes its token as a header, never the cookie
  if (url.pathname.startsWith('/api/')) return api.handle(req, res, { host, token });
  const cookieName = `savepoint-inspector-token-${port}`;
  const fromQuery = url.searchParams.get('token');
  const fromCookie = readCookie(req.headers.cookie, cookieName);
  const queryValid = fromQuery !== null && sameToken(fromQuery, token);
  if (!queryValid && !(fromCookie !== undefined && sameToken(fromCookie, token))) {
    return respond(res, 403, 'forbidden: open the URL savepoint-inspector serve printed (it carries the token)');
  }
  if (queryValid) res.setHeader('Set-Cookie', `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return respond(res, 405, 'method not allowed');
  }
  if (url.pathname === SERVICE_WORKER_PATH)
    return respond(res, 404, 'not found: the offline copy (service-worker.js) is for static hosts; serve runs on this machine');
  // the path as sent: the URL parser would resolve `..` away, hiding the attempt
  const file = await resolveFile(root, (req.url ?? '/').split(/[?#]/, 1)[0] ?? '/');
  if (file === 'refused') return respond(res, 403, 'forbidden: the path leaves the app folder');
  if (file === undefined) return respond(res, 404, 'not found');
  res.statusCode = 200;
  res.setHeader('Content-Type', MIME_TYPES[path.extname(file.path).toLowerCase()] ?? 'application/octet-stream');
  res.setHeader('Content-Length', String(file.size));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(file.path);
    stream.on('error', reject);
    res.on('close', () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res);
  });
}

/** The file a URL path names inside `root`: 'refused' for a path that leaves it, undefined when there is none. */
async function resolveFile(root: string, pathname: string): Promise<{ path: string; size: number } | 'refused' | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return 'refused';
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return 'refused';
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return 'refused';
  let candidate = path.join(root, ...segments);
  let info = await stat(candidate).catch(() => undefined);
  if (info?.isDirectory()) {
    candidate = path.join(candidate, 'index.html');
    info = await stat(candidate).catch(() => undefined);
  }
  if (info === undefined || !info.isFile()) return undefined;
  // a symbolic link inside the folder that points out of it
  const real = await realpath(candidate);
  if (real !== root && !real.startsWith(`${root}${path.sep}`)) return 'refused';
  return { path: real, size: info.size };
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function respond(res: ServerResponse, status: number, message: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(`${message}\n`);
}
