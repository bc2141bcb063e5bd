import { createServer, type Server } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

const ROOT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical');

/** A static file server on another localhost port, with or without the CORS headers the app needs. */
function serve(cors: boolean): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Headers', 'Range');
      res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Length, Accept-Ranges');
    }
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const file = path.join(ROOT, decodeURIComponent((req.url ?? '/').split('?')[0]!));
    if (!file.startsWith(ROOT) || !statSync(file, { throwIfNoEntry: false })?.isFile()) return void res.writeHead(404).end();
    const bytes = readFileSync(file);
    res.writeHead(200, { 'Content-Length': bytes.length }).end(req.method === 'HEAD' ? undefined : bytes);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

test.describe('errors are titled by who must act', () => {
  let withCors: Awaited<ReturnType<typeof serve>>;
  let withoutCors: Awaited<ReturnType<typeof serve>>;
  test.beforeAll(async () => {
    withCors = await serve(true);
    withoutCors = await serve(false);
  });
  test.afterAll(() => {
    withCors.server.close();
    withoutCors.server.close();
  });

  test('a server without CORS: network or server, naming the headers it must send', async ({ page }) => {
    await page.goto(`/?savepoint=${encodeURIComponent(`${withoutCors.origin}/savepoint/`)}`);
    await waitForAppState(page, 'failed');
    const panel = page.getByTestId('failure');
    await expect(panel.getByTestId('failure-kind')).toHaveText('Network or server');
    await expect(panel.getByTestId('failure-message')).toContainText('Access-Control-Allow-Origin');
    await page.screenshot({ path: '/tmp/shots/error-cors.png' });
  });

  test('a folder URL without its trailing slash: your input, with the URL that works', async ({ page }) => {
    await page.goto(`/?savepoint=${encodeURIComponent(`${withCors.origin}/savepoint`)}`);
    await waitForAppState(page, 'failed');
    const panel = page.getByTestId('failure');
    await expect(panel.getByTestId('failure-kind')).toHaveText('Your input');
    await expect(panel.getByTestId('failure-title')).toHaveText('A file the input needs is missing');
    await expect(panel.getByTestId('failure-message')).toContainText(
      `if it is a savepoint folder, give its URL with a trailing slash: ${withCors.origin}/savepoint/`,
    );
    await page.screenshot({ path: '/tmp/shots/error-trailing-slash.png' });
  });
});
