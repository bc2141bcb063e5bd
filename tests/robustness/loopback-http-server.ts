/**
 * A misbehaving HTTP server on 127.0.0.1 for the robustness suite: it serves files with Range
 * support and, from the n-th request on, answers in one hostile way (never, slowly, cut short,
 * with wrong headers, with endless bytes, in a redirect loop …). Every loop it runs is bounded (a
 * trickle stops after TRICKLE_LIMIT writes, an endless body after ENDLESS_LIMIT bytes) and
 * `close()` ends every open connection, so no case can keep the test process busy.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const MISBEHAVIOURS = [
  'silent', // accept, never answer
  'slow-headers', // the status line and headers a byte at a time
  'slow-body', // headers, then the body a byte at a time
  'stalled-body', // headers and part of the body, then nothing
  'premature-close', // the right Content-Length, half the body, then the connection closes
  'content-length-larger', // Content-Length larger than the body, then the connection closes
  'malformed-chunked', // Transfer-Encoding: chunked with a broken chunk size
  'garbage-gzip', // Content-Encoding: gzip over bytes that are not gzip
  'huge-content-length', // 206 declaring 10 GB, then zeros
  'endless-chunked', // 206 without a length, zeros until the client stops
  'wrong-content-range', // 206 for another range than asked
  'ignores-range', // 200 with an endless body for a Range request
  'redirect-loop', // 302 to itself
  'reset', // the connection is destroyed at once
  'delayed', // the right answer, but each only after `delayMs` (every request within its bounds, all together not)
] as const;
export type Misbehaviour = (typeof MISBEHAVIOURS)[number];

const TRICKLE_LIMIT = 400;
const ENDLESS_LIMIT = 64 * 1024 * 1024;

export interface LoopbackServer {
  base: string;
  requests: number;
  /** the most requests open at once (received, not yet answered or closed): how many a client had in flight together */
  maxInFlight: number;
  /** per request in arrival order: how many were open when it arrived, itself included (the most of a stretch of requests is how many a phase of the client had in flight together) */
  inFlightAtArrival: readonly number[];
  /** the body bytes of the answers served correctly (a misbehaving answer's bytes are not counted) */
  bytes: number;
  close(): Promise<void>;
}

/**
 * Serves `files` (path → bytes, e.g. `/sp.zip`, `/sp/_metadata`) correctly for requests before
 * `from` (0: every request misbehaves), then as `misbehaviour`.
 */
export async function startLoopbackServer(
  files: ReadonlyMap<string, Uint8Array>,
  misbehaviour: Misbehaviour | undefined,
  from = 0,
  delayMs = 500,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const state = { requests: 0, inFlight: 0, maxInFlight: 0, inFlightAtArrival: [] as number[], bytes: 0 };
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!closed) fn();
    }, ms);
    timers.add(t);
  };
  const server: Server = createServer((req, res) => {
    const n = state.requests++;
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    state.inFlightAtArrival.push(state.inFlight);
    let open = true;
    const done = () => {
      if (open) state.inFlight--;
      open = false;
    };
    res.on('finish', done);
    res.on('close', done);
    const served = (bytes: number) => void (state.bytes += bytes);
    if (misbehaviour === undefined || n < from) serve(files, req, res, served);
    else if (misbehaviour === 'delayed') later(delayMs, () => serve(files, req, res, served));
    else misbehave(misbehaviour, files, req, res, later);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    base: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    get inFlightAtArrival() {
      return state.inFlightAtArrival;
    },
    get bytes() {
      return state.bytes;
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function rangeOf(req: IncomingMessage, size: number): { start: number; end: number } | undefined {
  const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  if (!m) return undefined;
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return { start, end };
}

function serve(files: ReadonlyMap<string, Uint8Array>, req: IncomingMessage, res: ServerResponse, served: (bytes: number) => void = () => undefined): void {
  const bytes = files.get(decodeURIComponent((req.url ?? '/').replace(/[?#].*$/, '')));
  if (bytes === undefined) {
    res.writeHead(404).end();
    return;
  }
  const range = rangeOf(req, bytes.length);
  if (range === undefined) {
    res.writeHead(200, { 'content-length': bytes.length });
    res.end(req.method === 'HEAD' ? undefined : bytes);
    if (req.method !== 'HEAD') served(bytes.length);
    return;
  }
  if (range.start >= bytes.length) {
    res.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
    return;
  }
  const body = bytes.subarray(range.start, range.end + 1);
  res.writeHead(206, { 'content-range': `bytes ${range.start}-${range.end}/${bytes.length}`, 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
  if (req.method !== 'HEAD') served(body.length);
}

function misbehave(
  kind: Misbehaviour,
  files: ReadonlyMap<string, Uint8Array>,
  req: IncomingMessage,
  res: ServerResponse,
  later: (ms: number, fn: () => void) => void,
): void {
  const bytes = files.get(decodeURIComponent((req.url ?? '/').replace(/[?#].*$/, ''))) ?? new Uint8Array(100);
  const range = rangeOf(req, bytes.length) ?? { start: 0, end: bytes.length - 1 };
  const body = bytes.subarray(range.start, range.end + 1);
  const partial = { 'content-range': `bytes ${range.start}-${range.end}/${bytes.length}` };
  const socket = res.socket!;
  const trickle = (chunk: (i: number) => Uint8Array | string | undefined, every: number) => {
    let i = 0;
    const step = () => {
      const next = i < TRICKLE_LIMIT ? chunk(i++) : undefined;
      if (next === undefined || socket.destroyed) return;
      socket.write(next);
      later(every, step);
    };
    step();
  };
  const endless = (write: (zeros: Uint8Array) => boolean, end: () => void) => {
    const zeros = new Uint8Array(64 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < ENDLESS_LIMIT && !socket.destroyed) {
        sent += zeros.length;
        if (!write(zeros)) {
          res.once('drain', pump);
          return;
        }
      }
      end();
    };
    pump();
  };
  switch (kind) {
    case 'silent':
      return;
    case 'slow-headers': {
      const head = `HTTP/1.1 206 Partial Content\r\nContent-Range: ${partial['content-range']}\r\nContent-Length: ${body.length}\r\n\r\n`;
      trickle((i) => head[i], 50);
      return;
    }
    case 'slow-body':
      res.writeHead(206, { ...partial, 'content-length': body.length });
      res.flushHeaders();
      trickle((i) => (i < body.length ? body.subarray(i, i + 1) : undefined), 50);
      return;
    case 'stalled-body':
      res.writeHead(206, { ...partial, 'content-length': body.length });
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      return;
    case 'premature-close':
      res.writeHead(206, { ...partial, 'content-length': body.length });
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => socket.destroy());
      return;
    case 'content-length-larger':
      res.writeHead(206, { ...partial, 'content-length': body.length + 1000 });
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => socket.destroy());
      return;
    case 'malformed-chunked':
      socket.write(`HTTP/1.1 206 Partial Content\r\nContent-Range: ${partial['content-range']}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n`);
      later(20, () => socket.destroy());
      return;
    case 'garbage-gzip':
      res.writeHead(206, { ...partial, 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
      return;
    case 'huge-content-length':
      res.writeHead(206, { ...partial, 'content-length': '10000000000' });
      endless(
        (z) => res.write(z),
        () => socket.destroy(),
      );
      return;
    case 'endless-chunked':
      res.writeHead(206, partial);
      endless(
        (z) => res.write(z),
        () => res.end(),
      );
      return;
    case 'wrong-content-range':
      res.writeHead(206, { 'content-range': `bytes ${range.start + 1}-${range.end + 1}/${bytes.length + 1}`, 'content-length': body.length });
      res.end(body);
      return;
    case 'ignores-range':
      res.writeHead(200);
      endless(
        (z) => res.write(z),
        () => res.end(),
      );
      return;
    case 'redirect-loop':
      res.writeHead(302, { location: req.url ?? '/' }).end();
      return;
    case 'reset':
      socket.destroy();
      return;
    case 'delayed': // answered in startLoopbackServer (it needs the delay)
      serve(files, req, res);
      return;
  }
}
