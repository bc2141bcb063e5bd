/**
 * Registers the built app's service worker (./service-worker.ts, built to `service-worker.js` beside index.html),
 * which keeps the app usable offline after the first visit. Not in the dev server (`npm start`): there
 * is no `service-worker.js`, and a cached app shell would hide the edits being made.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = (): void => {
    // relative to the page, so the app works from any folder of a static host (GitHub Pages' /<repo>/)
    navigator.serviceWorker.register('./service-worker.js', { scope: './' }).catch((e: unknown) => {
      // the app works without it (online only); `serve` on loopback has none, a browser may refuse one
      console.info(`Savepoint Inspector: no offline copy (${e instanceof Error ? e.message : String(e)})`);
    });
  };
  // after the page has loaded: the worker's first install fetches the whole build, the app comes first
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
