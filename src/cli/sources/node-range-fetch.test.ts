/**
 * createNodeRangeFetch against servers on 127.0.0.1 that answer late or never: the header, idle
 * and rate bounds, bounded retries of refused connections, and no second wait for an origin that
 * timed out.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isDecodeError, openHttpRangeSource } from '../../core/io';
import { createNodeRangeFetch, httpOptionsFromEnv } from './node-range-fetch';

const open: { server: Server; sockets: Set<Socket> }[] = [];

async function serve(handler: (res: ServerResponse, n: number) => void): Promise<string> {
  let n = 0;
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => handler(res, n++));
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  open.push({ server, sockets });
  const a = server.address();
  return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
}

afterEach(async () => {
  for (const { server, sockets } of open.splice(0)) {
    for (const s of sockets) s.destroy();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
});

const fast = { headersMs: 200, idleMs: 200, retries: 1 };
const failure = async (p: Promise<unknown>) => {
  const e = await p.catch((x: unknown) => x);
  return isDecodeError(e) ? e.message : e;
};

describe('createNodeRangeFetch', () => {
  it('a server that never answers: no response headers within the bound, and the origin is not waited for again', async () => {
    let requests = 0;
    const base = await serve(() => void requests++);
    const fetchFn = createNodeRangeFetch(fast);
    expect(await failure(openHttpRangeSource(`${base}/a.zip`, fetchFn))).toBe(
      `expected to reach ${base}/a.zip, found no answer in time (no response headers within 0.2 s) — at ${base}/a.zip`,
    );
    expect(await failure(openHttpRangeSource(`${base}/b.zip`, fetchFn))).toBe(
      `expected to reach ${base}/b.zip, found no answer in time (no response headers within 0.2 s on an earlier request to ${base}; not asked again) — at ${base}/b.zip`,
    );
    // the second file was never asked for (on a busy machine the first request may not even have arrived within the bound)
    expect(requests).toBeLessThanOrEqual(1);
  });

  it('a body that stops, and one that trickles, are cut off with what was waited for', async () => {
    const base = await serve((res, n) => {
      if (n === 0) return void res.writeHead(206, { 'content-range': 'bytes 0-0/100000', 'content-length': 1 }).end('x');
      const size = n === 2 ? 8192 : 100000;
      res.writeHead(206, { 'content-range': `bytes 0-${size - 1}/100000`, 'content-length': size });
      res.write('y');
      // the second read gets a byte every 20 ms: never idle for 1 s (even on a busy machine), far below the minimum rate
      if (n === 2) {
        const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write('z')), 20);
        res.on('close', () => clearInterval(t));
      }
    });
    const src = await openHttpRangeSource(`${base}/a.zip`, createNodeRangeFetch({ headersMs: 2000, idleMs: 300, retries: 0 }));
    expect(await failure(src.read(0, 100000))).toBe(
      `expected bytes 0–99999 of ${base}/a.zip (100000 bytes), found the transfer stopped after 1 bytes (no body data for 0.3 s) — at ${base}/a.zip, offset 0 (0x0)`,
    );
    expect(
      await failure(
        createNodeRangeFetch({ headersMs: 1000, idleMs: 1000, retries: 0 })(`${base}/a.zip`, { method: 'GET', headers: { Range: 'bytes=0-8191' } }).then(
          async (r) => {
            const reader = r.body!.getReader!();
            for (;;) if ((await reader.read()).done) return;
          },
        ),
      ),
    ).toMatchObject({ name: 'TimeoutError', message: 'the body arrived slower than 16 KiB/s (8192 bytes not complete after 1.5 s)' });
  });

  it('a refused connection is retried the configured number of times, then reported', async () => {
    const base = await serve(() => undefined);
    const { server, sockets } = open.pop()!;
    for (const s of sockets) s.destroy();
    await new Promise<void>((ok) => server.close(() => ok()));
    const started = performance.now();
    const e = await createNodeRangeFetch({ ...fast, retries: 2 })(`${base}/a.zip`, { method: 'GET' }).catch((x: unknown) => x as Error);
    expect((e as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    // two waits, 200 and 400 ms
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
  });

  it('reads its bounds from the environment', () => {
    expect(httpOptionsFromEnv({})).toEqual({
      headersMs: 10_000,
      idleMs: 10_000,
      retries: 2,
      totalMs: 300_000,
      totalSetting: 'SAVEPOINT_INSPECTOR_HTTP_DEADLINE',
    });
    expect(httpOptionsFromEnv({ SAVEPOINT_INSPECTOR_HTTP_TIMEOUT: '0.5', SAVEPOINT_INSPECTOR_HTTP_RETRIES: '0' })).toEqual({
      headersMs: 500,
      idleMs: 500,
      retries: 0,
      totalMs: 300_000,
      totalSetting: 'SAVEPOINT_INSPECTOR_HTTP_DEADLINE',
    });
    expect(httpOptionsFromEnv({ SAVEPOINT_INSPECTOR_HTTP_DEADLINE: '1.5' })).toEqual({
      headersMs: 10_000,
      idleMs: 10_000,
      retries: 2,
      totalMs: 1500,
      totalSetting: 'SAVEPOINT_INSPECTOR_HTTP_DEADLINE',
    });
    expect(httpOptionsFromEnv({ SAVEPOINT_INSPECTOR_HTTP_DEADLINE: '0' })).toEqual({ headersMs: 10_000, idleMs: 10_000, retries: 2 });
    expect(
      httpOptionsFromEnv({ SAVEPOINT_INSPECTOR_HTTP_TIMEOUT: 'soon', SAVEPOINT_INSPECTOR_HTTP_RETRIES: '-1', SAVEPOINT_INSPECTOR_HTTP_DEADLINE: 'never' }),
    ).toEqual({ headersMs: 10_000, idleMs: 10_000, retries: 2, totalMs: 300_000, totalSetting: 'SAVEPOINT_INSPECTOR_HTTP_DEADLINE' });
  });
});
