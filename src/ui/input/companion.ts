/**
 * The local companion, when this page is the app `savepoint-inspector serve` serves: the page's own
 * origin, and the token `serve` printed in the URL it opens (`?token=<64 hex digits>`). Once read, the
 * token is taken out of the address bar (history.replaceState: it is not left in the history, a bookmark or
 * a screen share) and kept in this tab's sessionStorage (the origin's own, so a reload still finds it) and
 * in memory (when storage is refused), and handed only to the worker, which sends it in the Authorization
 * header of requests to this same origin (the CSP allows no other). No other page can read it:
 * sessionStorage and the page belong to the companion's origin, and the server sends `Referrer-Policy:
 * no-referrer`. Anywhere else (a static host, the development server) there is no token, so no companion,
 * and an object-store URL gets the one line saying how to start it.
 */
import type { CompanionAccess } from '../../worker';

const STORAGE_KEY = 'savepoint-inspector-companion-token';

/** the token read from the address bar in this page's life (storage may refuse to keep it) */
let remembered: string | null = null;

export function findCompanion(): CompanionAccess | undefined {
  const params = new URLSearchParams(window.location.search);
  const fromUrl = params.get('token');
  let token: string | null = fromUrl !== null && /^[0-9a-f]{64}$/.test(fromUrl) ? fromUrl : null;
  if (fromUrl !== null) {
    // out of the address bar, the rest of the URL (another parameter, the #/route) kept
    params.delete('token');
    const search = params.toString();
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${search === '' ? '' : `?${search}`}${window.location.hash}`);
  }
  if (token !== null) remembered = token;
  try {
    if (token !== null) window.sessionStorage.setItem(STORAGE_KEY, token);
    else token = window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    // storage refused (private mode): the token read in this page's life
  }
  token ??= remembered;
  return token === null ? undefined : { origin: window.location.origin, token };
}
