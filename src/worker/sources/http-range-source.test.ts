/**
 * The app's fetch is bounded as the CLI's is: a server that never answers ends in a located network
 * error naming what was waited for (run here over Node's fetch, which has the browser's API).
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isDecodeError } from '../../core/io';
import { createBrowserRangeFetch, openBrowserHttpSource } from './http-range-source';

let server: Server | undefined;
const sockets = new Set<Socket>();

afterEach(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  server = undefined;
});

describe('openBrowserHttpSource', () => {
  it('a server that accepts and never answers: a network error after the bound, naming what was waited for', async () => {
    let requests = 0;
    server = createServer(() => void requests++);
    server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
    await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
    const a = server.address();
    const url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/sp.zip`;
    const fetchFn = createBrowserRangeFetch(200);
    const e = await openBrowserHttpSource(url, 'sp.zip', fetchFn).catch((x: unknown) => x);
    expect(isDecodeError(e) && [e.code, e.message]).toEqual([
      'network',
      `expected to reach ${url}, found no answer in time (no response headers within 0.2 s) — at sp.zip`,
    ]);
    // the origin is not waited for again
    const again = await openBrowserHttpSource(url, 'sp.zip', fetchFn).catch((x: unknown) => x);
    expect(isDecodeError(again) && again.message).toContain('not asked again');
    // asked at most once (on a busy machine the first request may not even have arrived within the bound)
    expect(requests).toBeLessThanOrEqual(1);
  });
});
