import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { buildContentSecurityPolicy, metaContentSecurityPolicy } from '../vite-plugins/content-security-policy';
import { expect, test } from './test';
import { waitForAppState } from './helpers';

/**
 * The `npm run build` output as a static site: served as plain files (no CSP header, no rewriting)
 * from a subpath, as GitHub Pages serves `/<repo>/`, by a loopback server this spec starts. The app,
 * its decoding worker and DuckDB's worker and WebAssembly are found from that subpath.
 */
const DIST = path.resolve(process.cwd(), process.env.E2E_OUT_DIR ?? 'dist');
const SUBPATH = '/some/sub/path/';
const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
const HAVE_FIXTURE = existsSync(path.join(FIXTURE, 'savepoint/_metadata'));

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

interface StaticHost {
  origin: string;
  /** every request the host saw: `METHOD path?query range` */
  requests: string[];
  /** the folder it serves at SUBPATH (swappable: a new deploy) */
  root: { dir: string };
  close(): Promise<void>;
}

/** Plain files under SUBPATH, nothing elsewhere; no-store, so only the service worker can answer offline. */
function staticHost(dir: string): Promise<StaticHost> {
  const requests: string[] = [];
  const root = { dir };
  const server: Server = createServer((req, res) => {
    const pathname = decodeURIComponent((req.url ?? '/').split('?')[0]);
    requests.push(`${req.method} ${req.url ?? '/'} ${req.headers.range ?? ''}`.trim());
    res.setHeader('Cache-Control', 'no-store');
    if (!pathname.startsWith(SUBPATH)) return void res.writeHead(404).end();
    let rel = pathname.slice(SUBPATH.length);
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root.dir, rel);
    if (!file.startsWith(root.dir) || !statSync(file, { throwIfNoEntry: false })?.isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        root,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    ),
  );
}

async function openFixtureAndSeeVerdict(page: Page, zip: string): Promise<void> {
  await waitForAppState(page, 'empty');
  await page.getByTestId('file-input').setInputFiles([zip, SCHEMA]);
  await waitForAppState(page, 'ready');
  await expect(page.getByTestId('schema-chip')).toContainText('events-changed.binpb');
  await expect(page.getByTestId('overall-verdict')).toHaveText('not restorable');
}

/** The Query view loads DuckDB: its worker script and its WebAssembly. */
async function loadQueryTables(page: Page): Promise<void> {
  await page.getByTestId('nav-query').click();
  await page.getByTestId('load-tables').click();
  await expect(page.getByTestId('load-tables')).toHaveText('Reload tables', { timeout: 60_000 });
}

test.describe('the build as a static site, served from a subpath', () => {
  test.skip(!existsSync(path.join(DIST, 'index.html')), `${DIST}/index.html is missing: run npm run build first`);

  test('index.html carries the CSP as a meta (the policy serve sends, less frame-ancestors) and no absolute asset path', () => {
    const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)" \/>/.exec(html);
    expect(meta, 'a CSP meta in index.html').not.toBeNull();
    expect(meta![1]).toBe(metaContentSecurityPolicy());
    // the header's policy without frame-ancestors (a meta cannot carry it), directive for directive
    expect(meta![1].split('; ')).toEqual(buildContentSecurityPolicy(null).split('; ').filter((d) => !d.startsWith('frame-ancestors')));
    expect(html).not.toMatch(/(src|href)="\/(?!\/)/);
    expect(html).not.toMatch(/["'(]\/assets\//);
    expect(html).toMatch(/src="\.\/assets\//);
    // before anything the page loads: a meta policy governs only what follows it
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.search(/<(script|link)\b/));
  });

  test.describe('in the browser', () => {
    test.skip(!HAVE_FIXTURE, 'fixtures/savepoints/flink-1.20/hashmap/canonical is not in this checkout');
    let zip: string;
    let host: StaticHost;
    test.beforeAll(() => {
      const dir = mkdtempSync(path.join(tmpdir(), 'spi-static-'));
      zip = path.join(dir, 'fixture-savepoint.zip');
      execFileSync('zip', ['-qr', zip, 'savepoint'], { cwd: FIXTURE });
    });
    test.beforeEach(async () => {
      host = await staticHost(DIST);
    });
    test.afterEach(async () => {
      await host.close();
    });

    test('a verdict and the Query view (worker and WebAssembly from the subpath), from plain files', async ({ page }) => {
      const app = `${host.origin}${SUBPATH}`;
      await page.goto(`${app}?target=1.x`);
      await openFixtureAndSeeVerdict(page, zip);
      await loadQueryTables(page);
      await page.screenshot({ path: '/tmp/shots/static-subpath-query.png', fullPage: true });
      // nothing was asked of the host outside the subpath (no absolute /assets/… URL anywhere)
      expect(host.requests.filter((r) => !r.split(' ')[1]!.startsWith(SUBPATH))).toEqual([]);
      expect(host.requests.some((r) => /\/assets\/duckdb-eh-[^/?]+\.wasm(\?|$)/.test(r))).toBe(true);
      expect(host.requests.some((r) => /\/assets\/inspector\.worker-[^/?]+\.js(\?|$)/.test(r))).toBe(true);
    });
  });
});
