import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingProxy } from './azurite';
import { listenOnLoopback, startFaultProxy } from './loopback-servers';

/**
 * The proxies in front of the object-store test servers: a rule (or hook) that fails — e.g. its own upload to
 * the server — is answered 502 with why, so the test sees it, and never becomes an unhandled rejection (which
 * would fail an unrelated test, or leave the request unanswered until the client's timeout).
 */
describe('fault and counting proxies', () => {
  let upstream: { port: number; close: () => Promise<void> };

  beforeAll(async () => {
    upstream = await listenOnLoopback(http.createServer((_req, res) => res.end('upstream')));
  });
  afterAll(() => upstream?.close());

  it('the fault proxy answers 502 when its rule fails, and passes the next request on', async () => {
    const proxy = await startFaultProxy(upstream.port, { keyOf: (url) => url, errorBody: () => '', contentType: 'text/plain' });
    try {
      proxy.setRule(() => Promise.reject(new Error('the upload failed')));
      const failed = await fetch(`${proxy.endpoint}/b/k`, { signal: AbortSignal.timeout(30_000) });
      expect(failed.status).toBe(502);
      expect(await failed.text()).toBe('fault proxy rule failed: Error: the upload failed');
      proxy.setRule(() => 'pass');
      const passed = await fetch(`${proxy.endpoint}/b/k`, { signal: AbortSignal.timeout(30_000) });
      expect(await passed.text()).toBe('upstream');
    } finally {
      await proxy.close();
    }
  });

  it('the counting proxy answers 502 when its hook fails', async () => {
    const proxy = await startCountingProxy(upstream.port);
    try {
      proxy.setHook(() => Promise.reject(new Error('the overwrite failed')));
      const failed = await fetch(`${proxy.endpoint}/c/b`, { signal: AbortSignal.timeout(30_000) });
      expect(failed.status).toBe(502);
      expect(await failed.text()).toBe('counting proxy hook failed: Error: the overwrite failed');
    } finally {
      await proxy.close();
    }
  });
});
