import { createServer, type Server } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from './test';
import { HAVE_SHARED_SAVEPOINTS, sharedSavepoint, waitForAppState, watchForeignRequests } from './helpers';

const NAME = 'new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint';

/** A static file server on another localhost port with CORS and Range support (like object storage). */
function serveFolder(root: string): Promise<{ server: Server; origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.range ?? ''}`);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'Range');
    res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Length, Accept-Ranges');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const file = path.join(root, decodeURIComponent((req.url ?? '/').split('?')[0]));
    if (!file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) return void res.writeHead(404).end();
    const bytes = readFileSync(file);
    const m = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    if (!m) return void res.writeHead(200, { 'Content-Length': bytes.length, 'Accept-Ranges': 'bytes' }).end(req.method === 'HEAD' ? undefined : bytes);
    const start = Number(m[1]);
    const end = Math.min(m[2] ? Number(m[2]) : bytes.length - 1, bytes.length - 1);
    res.writeHead(206, { 'Content-Range': `bytes ${start}-${end}/${bytes.length}`, 'Content-Length': end - start + 1, 'Accept-Ranges': 'bytes' });
    res.end(req.method === 'HEAD' ? undefined : bytes.subarray(start, end + 1));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests })),
  );
}

test.describe('loading a savepoint folder by URL (?savepoint=)', () => {
  test.skip(!HAVE_SHARED_SAVEPOINTS, 'the shared savepoints (../shared/flink-savepoints) are not on this machine');
  let served: Awaited<ReturnType<typeof serveFolder>>;
  let other: Awaited<ReturnType<typeof serveFolder>>;
  test.beforeAll(async () => {
    served = await serveFolder(path.dirname(sharedSavepoint(NAME)));
    other = await serveFolder(path.dirname(sharedSavepoint(NAME)));
  });
  test.afterAll(() => {
    served.server.close();
    other.server.close();
  });

  test('the CSP allows the savepoint origin and nothing else; the folder is read by range', async ({ page, baseURL }) => {
    const foreign = watchForeignRequests(page, baseURL!);
    const url = `${served.origin}/${NAME}/`;
    const response = await page.goto(`/?savepoint=${encodeURIComponent(url)}`);
    expect(response!.headers()['content-security-policy']).toContain(`connect-src 'self' ${served.origin}`);
    await waitForAppState(page, 'ready');
    await expect(page.getByTestId('ov-version')).toContainText('Flink 2.0');
    await expect(page.getByTestId('ov-checkpoint').locator('.card-value')).toHaveText('2');
    // the savepoint's size read by URL is its _metadata and state files, the same in the top bar (not "0 B")
    const size = (await page.getByTestId('ov-size').locator('.card-value').textContent())!;
    expect(size).not.toBe('0 B');
    await expect(page.getByTestId('savepoint-size')).toHaveText(` ${size}`);
    const row = page.getByTestId('operator-row').filter({ hasText: 'CheckpointingKeyedStateFlatMap1' });
    await expect(row).toContainText('Flat Map');
    expect(served.requests.some((r) => r.startsWith(`GET /${NAME}/_metadata`))).toBe(true);
    // the page may not talk to any other origin, even on localhost
    const blocked = await page.evaluate(async (target) => {
      const violation = new Promise<string>((resolve) =>
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true }),
      );
      await fetch(target).catch(() => undefined);
      return violation;
    }, `${other.origin}/${NAME}/_metadata`);
    expect(blocked).toBe('connect-src');
    expect(other.requests).toEqual([]);
    // the only requests off the app's origin went to the savepoint's server (on this machine)
    expect(foreign.filter((u) => !u.startsWith(`${served.origin}/`))).toEqual([]);
  });
});
