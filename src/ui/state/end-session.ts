/**
 * One session, one answer: a session is one savepoint with what the user chose for it (the new schema, the
 * target line, the new settings and root messages, the sample, the value scan asked for). Opening another
 * savepoint while one is open starts a new session, as Close does (as Netron and Perfetto do): nothing of
 * the last one is carried over, neither in the store nor in the page URL (`?demo`, `?target=`, `?savepoint=`),
 * so a reload or a shared link never brings the last session's target to the next one.
 */
import type { AppState } from './app-store';

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

/**
 * Drops the session's parameters from the page URL, and its hash route (the view and the last savepoint's
 * operator, state and entry): the next session starts on the Overview, whose first lines are its verdict.
 * No navigation, no reload.
 */
export function clearSessionUrl(): void {
  const search = withoutSessionParams(window.location.search);
  const routeChanged = window.location.hash !== '';
  if (search === window.location.search && !routeChanged) return;
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}`);
  if (routeChanged) window.dispatchEvent(new HashChangeEvent('hashchange')); // the views read the route on hashchange
}
