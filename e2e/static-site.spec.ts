import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { buildContentSecurityPolicy, metaContentSecurityPolicy } from '../vite-plugins/content-security-policy';
import { expect, test } from './test';
import { listFiles, waitForAppState } from './helpers';

/**
 * The `npm run build` output as a static site: served as plain files (no CSP header, no rewriting)
 * from a subpath, as GitHub Pages serves `/<repo>/`, by a loopback server this spec starts. The app,
 * its decoding worker and DuckDB's worker and WebAssembly are found from that subpath; after the
 * first visit the service worker serves the app shell with the network gone.
 */
const DIST = path.resolve(process.cwd(), process.env.E2E_OUT_DIR ?? 'dist');
const SUBPATH = '/some/sub/path/';
/** the project's own committed fixture (never optional: no skip when it is missing) and the demo's changed schema */
const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
/** a file the host serves beside the app that is not part of the build (a savepoint a user put there) */
const USER_FILE = 'savepoints/user-file.bin';

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
    const file = rel === USER_FILE ? path.join(tmpdir(), 'spi-static-user-file.bin') : path.join(root.dir, rel);
    if (!file.startsWith(rel === USER_FILE ? tmpdir() : root.dir) || !statSync(file, { throwIfNoEntry: false })?.isFile()) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  writeFileSync(path.join(tmpdir(), 'spi-static-user-file.bin'), 'bytes a user hosts beside the app');
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

/** Waits until a service worker controls the page (on its state, never on time). */
async function waitForServiceWorker(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { message: 'a service worker controls the page' }).toBe(true);
}

/**
 * Asks the browser to look for a new service worker script (joining the check the reload started, if it is still
 * running) and waits until the worker the registration ends up with is activated or redundant — on its state:
 * `activated` is set only after the activate handler's waitUntil has settled, so by then the other versions' caches
 * are deleted if this was the new worker. A failed check (update() rejects) is asked again, as a browser would on the
 * next visit, up to three times. Each wait is bounded (STALL_MS): headless Chromium on this machine has, about once in
 * ten runs, left the lifecycle in one state for minutes (no state change in 270 s; a reload then hung too), so a stall
 * ends the wait with the registration's installing / waiting / active states in what is returned, and the test fails
 * saying where it stopped (and is retried in a fresh browser: the describe's retries).
 */
function takeNextServiceWorker(page: Page, staleCache: string): Promise<string[]> {
  return page.evaluate(
    async ({ stale, stallMs }) => {
      const seen: string[] = [];
      const registration = await navigator.serviceWorker.ready;
      const states = () =>
        `installing ${registration.installing?.state ?? '-'}, waiting ${registration.waiting?.state ?? '-'}, active ${registration.active?.state ?? '-'}`;
      const stall = (what: string) => new Promise<string>((resolve) => setTimeout(() => resolve(`${what} stalled for ${stallMs} ms (${states()})`), stallMs));
      const done = (state: string) => state === 'activated' || state === 'redundant';
      for (let attempt = 0; attempt < 3; attempt++) {
        const checked = await Promise.race([
          registration.update().then(
            () => 'checked',
            (e: unknown) => `update failed: ${String(e)}`,
          ),
          stall('update()'),
        ]);
        if (checked.includes('stalled')) return [...seen, checked];
        const worker = registration.installing ?? registration.waiting ?? registration.active;
        if (worker === null) return [...seen, `${checked}; no worker`];
        const state = done(worker.state)
          ? worker.state
          : await Promise.race([
              new Promise<string>((resolve) => worker.addEventListener('statechange', () => done(worker.state) && resolve(worker.state))),
              stall(`the ${worker.state} worker`),
            ]);
        seen.push(`${checked}; ${state}`);
        if (state.includes('stalled') || !(await caches.keys()).includes(stale)) return seen;
      }
      return seen;
    },
    { stale: staleCache, stallMs: STALL_MS },
  );
}

/** How long one wait of takeNextServiceWorker may last. */
const STALL_MS = 90_000;

/** Every cached request URL, by cache name. */
function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const out: Record<string, string[]> = {};
    for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
    return out;
  });
}

test.describe('the build as a static site, served from a subpath', () => {
  test('index.html carries the CSP as a meta (the policy serve sends, less frame-ancestors) and no absolute asset path', () => {
    const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)" \/>/.exec(html);
    expect(meta, 'a CSP meta in index.html').not.toBeNull();
    expect(meta![1]).toBe(metaContentSecurityPolicy());
    // the header's policy without frame-ancestors (a meta cannot carry it), directive for directive
    expect(meta![1].split('; ')).toEqual(
      buildContentSecurityPolicy(null)
        .split('; ')
        .filter((d) => !d.startsWith('frame-ancestors')),
    );
    expect(html).not.toMatch(/(src|href)="\/(?!\/)/);
    expect(html).not.toMatch(/["'(]\/assets\//);
    expect(html).toMatch(/src="\.\/assets\//);
    // GitHub Pages (a branch deploy) runs Jekyll, which drops files named `_…` (the demo's `_metadata`) without it
    expect(existsSync(path.join(DIST, '.nojekyll'))).toBe(true);
    // before anything the page loads: a meta policy governs only what follows it
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.search(/<(script|link)\b/));
  });

  test.describe('in the browser', () => {
    test.use({ serviceWorkers: 'allow' });
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

    test('a verdict and the Query view (worker and WebAssembly from the subpath), then offline: the app loads and opens a savepoint', async ({
      page,
      context,
    }) => {
      const app = `${host.origin}${SUBPATH}`;
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { cspViolations: string[] }).cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      await page.goto(`${app}?target=1.x`);
      await openFixtureAndSeeVerdict(page, zip);
      await loadQueryTables(page);
      await page.screenshot({ path: '/tmp/shots/static-subpath-query.png', fullPage: true });
      // the meta policy holds the app to nothing it does, and is in force without any header
      expect(await violations()).toEqual([]);
      const blocked = await page.evaluate(async () => {
        const violation = new Promise<string>((resolve) =>
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true }),
        );
        await fetch('http://127.0.0.1:9/elsewhere').catch(() => undefined);
        return violation;
      });
      expect(blocked).toBe('connect-src');
      // nothing was asked of the host outside the subpath (no absolute /assets/… URL anywhere)
      expect(host.requests.filter((r) => !r.split(' ')[1]!.startsWith(SUBPATH))).toEqual([]);
      expect(host.requests.some((r) => /\/assets\/duckdb-eh-[^/?]+\.wasm(\?|$)/.test(r))).toBe(true);
      expect(host.requests.some((r) => /\/assets\/inspector\.worker-[^/?]+\.js(\?|$)/.test(r))).toBe(true);

      await waitForServiceWorker(page);
      await goOffline(context, host);
      await page.goto(`${app}?target=1.x`);
      await openFixtureAndSeeVerdict(page, zip);
      await loadQueryTables(page);
      await page.screenshot({ path: '/tmp/shots/static-subpath-offline.png', fullPage: true });
      expect(await violations()).toEqual([]);
    });

    test('the service worker caches the build and nothing else: not a file hosted beside it, not a range request, not a URL with a query', async ({ page }) => {
      const app = `${host.origin}${SUBPATH}`;
      await page.goto(app);
      await waitForAppState(page, 'empty');
      await waitForServiceWorker(page);
      const fetched = await page.evaluate(async (userFile) => {
        const a = await fetch(userFile);
        const b = await fetch('index.html', { headers: { Range: 'bytes=0-9' } });
        const c = await fetch('index.html?x=1');
        return [a.status, b.status, c.status];
      }, USER_FILE);
      expect(fetched).toEqual([200, 200, 200]);
      // each reached the host: the service worker answered none of them
      expect(host.requests).toContain(`GET ${SUBPATH}${USER_FILE}`);
      expect(host.requests).toContain(`GET ${SUBPATH}index.html bytes=0-9`);
      expect(host.requests).toContain(`GET ${SUBPATH}index.html?x=1`);
      const cached = await cachedUrls(page);
      const names = Object.keys(cached);
      expect(names).toHaveLength(1);
      expect(names[0]).toContain(`savepoint-inspector-${JSON.parse(readFileSync('package.json', 'utf8')).version}`);
      const built = listFiles(DIST).filter((f) => !f.endsWith('.map') && f !== '.nojekyll');
      const entries = cached[names[0]!]!.map((u) => new URL(u));
      // every cached entry is a file of the build, under the subpath; every file of the build is cached
      for (const u of entries) {
        expect(u.origin).toBe(host.origin);
        expect(u.pathname.startsWith(SUBPATH)).toBe(true);
        expect(built).toContain(u.pathname.slice(SUBPATH.length));
        expect([...u.searchParams.keys()].filter((k) => k !== '__WB_REVISION__')).toEqual([]);
      }
      expect(entries.map((u) => u.pathname.slice(SUBPATH.length)).sort()).toEqual(built.filter((f) => f !== 'service-worker.js').sort());
    });

    test.describe('a new deploy', () => {
      // the service worker lifecycle of headless Chromium stalls now and then on this machine (takeNextServiceWorker says
      // where); a stalled run is tried again in a fresh browser, and every try's states are in the report
      test.describe.configure({ retries: 2 });
      test('a new deploy is taken on the next visit: the new service worker installs and the caches of other versions are deleted', async ({ page }) => {
        // two installs of the whole build (35 MB) into the cache: a busy machine may need more than the default
        test.slow();
        const app = `${host.origin}${SUBPATH}`;
        await page.goto(app);
        await waitForAppState(page, 'empty');
        await waitForServiceWorker(page);
        const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
        // the cache an older version of the app left here, and another app's at another path of this origin
        await page.evaluate(async (s) => {
          await (await caches.open(`savepoint-inspector-0.0.1-precache-${s}`)).put('old-entry', new Response('old'));
          await (await caches.open('another-app-cache')).put('entry', new Response('theirs'));
        }, scope);
        // the next deploy: the same files with a changed service worker script
        const next = mkdtempSync(path.join(tmpdir(), 'spi-static-next-'));
        cpSync(DIST, next, { recursive: true });
        writeFileSync(path.join(next, 'service-worker.js'), `${readFileSync(path.join(next, 'service-worker.js'), 'utf8')}\n// next deploy\n`);
        host.root.dir = next;
        await page.reload();
        await waitForAppState(page, 'empty');
        // the new worker activates at once (skipWaiting) and deletes the other versions' caches on activate
        const tries = await takeNextServiceWorker(page, `savepoint-inspector-0.0.1-precache-${scope}`);
        expect(tries.at(-1), tries.join(' / ')).toMatch(/; activated$/);
        const names = await page.evaluate(() => caches.keys());
        expect(names.filter((n) => n.startsWith('savepoint-inspector-0.0.1-'))).toEqual([]);
        expect(names).toContain('another-app-cache');
        expect(names.filter((n) => n.startsWith('savepoint-inspector-'))).toHaveLength(1);
      });
    });
  });
});

async function goOffline(context: BrowserContext, host: StaticHost): Promise<void> {
  await context.setOffline(true);
  // and the host gone too: nothing but the service worker can answer
  await host.close();
}
