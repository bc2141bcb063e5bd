/**
 * One session, one answer: a session is one savepoint with what the user chose for it (the new schema, the
 * target line, the new settings and root messages, the sample, the value scan asked for). Opening another
 * savepoint while one is open starts a new session, as Close does (as Netron and Perfetto do): nothing of
 * the last one is carried over, neither in the store nor in the page URL (`?demo`, `?target=`, `?savepoint=`),
 * so a reload or a shared link never brings the last session's target to the next one.
 */
import type { AppState } from './app-store';
import { formatHashRoute, parseHashRoute } from './use-hash-route';

/** The page URL's query parameters that belong to the open session (`nodemo` is the page's, not a session's). */
export const SESSION_URL_PARAMS: readonly string[] = ['demo', 'target', 'savepoint'];

/** The store's per-session choices as a page without a session has them (no target chosen: the app asks). */
export function freshSessionChoices(): Pick<AppState, 'checkOptions' | 'targetChosen' | 'sample' | 'valueCheckFor' | 'operatorFilter'> {
  return { checkOptions: { target: '1.x', newSettings: {} }, targetChosen: false, sample: null, valueCheckFor: null, operatorFilter: '' };
}

/** `?demo&target=1.x&nodemo` less the session's parameters: `?nodemo` (a valueless parameter stays valueless). */
export function withoutSessionParams(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of SESSION_URL_PARAMS) params.delete(name);
  const s = params.toString().replace(/=(?=&|$)/g, '');
  return s === '' ? '' : `?${s}`;
}

/** `#/values?op=abc&state=s&entry=3` → `#/values`: the view stays, the last savepoint's operator, state and entry go. */
export function withoutSessionRoute(hash: string): string {
  if (hash.length <= 2) return hash;
  const route = parseHashRoute(hash);
  return Object.keys(route.params).length === 0 ? hash : formatHashRoute(route.view);
}

/**
 * Drops the session's parameters from the page URL, and the hash route's operator, state and entry (they name
 * the last savepoint's; the view stays). No navigation, no reload.
 */
export function clearSessionUrl(): void {
  const search = withoutSessionParams(window.location.search);
  const hash = withoutSessionRoute(window.location.hash);
  const routeChanged = hash !== window.location.hash;
  if (search === window.location.search && !routeChanged) return;
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${hash}`);
  if (routeChanged) window.dispatchEvent(new HashChangeEvent('hashchange')); // the views read the route on hashchange
}
