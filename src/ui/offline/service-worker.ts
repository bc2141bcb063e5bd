/**
 * The service worker of the built app (not of the dev server): the app works offline after the first
 * visit. Built by vite-plugin-pwa (`injectManifest`, vite.config.ts) into `service-worker.js` beside index.html,
 * with the build's file list and each file's content hash injected at `self.__WB_MANIFEST`.
 *
 * - Install: workbox-precaching stores every file of the build (index.html, the JS and CSS chunks, the
 *   decoding worker, DuckDB's worker and WebAssembly, the demo) in one cache named for the package
 *   version and this registration's scope. A new build changes this script (the hashes in it), so the
 *   browser installs the new worker on the next visit; it takes over at once (skipWaiting, claim).
 * - Activate: entries the new build no longer lists are deleted, and so is every cache an older version
 *   of the app left at this scope (another app's caches on the same origin are not ours to touch).
 * - Fetch: answered from the cache are only same-origin GET requests, without a Range header or a query,
 *   for a file the build lists; a page load of the app (its folder or index.html) goes to the network
 *   first (the latest deploy, and the headers the server sends for that URL) and falls back to the
 *   cached index.html when the network fails. Nothing else is touched: files the user opens are read
 *   in the tab and never fetched, savepoints read by URL (range requests, other origins, `?savepoint=`)
 *   go to the network as if there were no service worker, and nothing fetched at run time is stored.
 */
import { PrecacheController, type PrecacheEntry } from 'workbox-precaching';

/** The package version, set by vite.config.ts (`define`). */
declare const __APP_VERSION__: string;

/** What this file uses of the service worker global scope (the DOM lib the project compiles with has no WebWorker types). */
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface ServiceWorkerScope {
  readonly location: Location;
  readonly registration: ServiceWorkerRegistration;
  readonly clients: { claim(): Promise<void> };
  readonly __WB_MANIFEST: (string | PrecacheEntry)[];
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}
declare const self: ServiceWorkerScope;

const CACHE_PREFIX = 'savepoint-inspector-';
const scope = self.registration.scope;
const cacheName = `${CACHE_PREFIX}${__APP_VERSION__}-precache-${scope}`;
const precache = new PrecacheController({ cacheName, fallbackToNetwork: true });
precache.addToCacheList(self.__WB_MANIFEST);
const indexHtml = new URL('index.html', scope).href;

self.addEventListener('install', (event) => {
  void self.skipWaiting();
  // install() calls event.waitUntil itself
  void precache.install(event as unknown as Parameters<typeof precache.install>[0]);
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    precache
      .activate(event as unknown as Parameters<typeof precache.activate>[0])
      .then(deleteOtherVersions)
      .then(() => self.clients.claim()),
  );
});

/** Deletes the caches older (or newer) versions of the app left at this scope. */
async function deleteOtherVersions(): Promise<void> {
  for (const name of await caches.keys()) {
    if (name !== cacheName && name.startsWith(CACHE_PREFIX) && name.endsWith(`-precache-${scope}`)) await caches.delete(name);
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    const page = `${url.origin}${url.pathname}`;
    if (page !== scope && page !== indexHtml) return;
    event.respondWith(fetch(request).catch(async (e: unknown) => (await precache.matchPrecache(indexHtml)) ?? Promise.reject(e)));
    return;
  }
  if (url.search !== '' || precache.getCacheKeyForURL(url.href) === undefined) return;
  event.respondWith(precache.matchPrecache(url.href).then((cached) => cached ?? fetch(request)));
});
