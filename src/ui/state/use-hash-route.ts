import { useSyncExternalStore } from 'react';

export type ViewId = 'overview' | 'state' | 'compat' | 'diff' | 'values' | 'unknown' | 'aliasing' | 'query' | 'compare';

export const VIEWS: readonly { id: ViewId; label: string; key: string }[] = [
  { id: 'overview', label: 'Overview', key: '1' },
  { id: 'state', label: 'State', key: '2' },
  { id: 'compat', label: 'Compatibility', key: '3' },
  { id: 'diff', label: 'Schema diff', key: '4' },
  { id: 'values', label: 'Values', key: '5' },
  { id: 'unknown', label: 'Unknown fields', key: '6' },
  { id: 'aliasing', label: 'Aliasing memory', key: '7' },
  { id: 'query', label: 'Query', key: '8' },
  { id: 'compare', label: 'Compare', key: '9' },
];

export interface HashRoute {
  view: ViewId;
  /** e.g. op, state, entry */
  params: Record<string, string>;
}

/** `#/values?op=abc&state=s&entry=3` → { view: 'values', params: { op, state, entry } } */
export function parseHashRoute(hash: string): HashRoute {
  const body = hash.replace(/^#\/?/, '');
  const q = body.indexOf('?');
  const name = q < 0 ? body : body.slice(0, q);
  const params: Record<string, string> = {};
  if (q >= 0) new URLSearchParams(body.slice(q + 1)).forEach((v, k) => (params[k] = v));
  const view = VIEWS.find((v) => v.id === name)?.id ?? 'overview';
  return { view, params };
}

export function formatHashRoute(view: ViewId, params: Record<string, string | undefined> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') qs.set(k, v);
  const s = qs.toString();
  return `#/${view}${s ? `?${s}` : ''}`;
}

export function navigate(view: ViewId, params: Record<string, string | undefined> = {}): void {
  window.location.hash = formatHashRoute(view, params);
}

/** Replaces some params of the current route, keeping the view. */
export function updateRouteParams(patch: Record<string, string | undefined>): void {
  const cur = parseHashRoute(window.location.hash);
  const next = formatHashRoute(cur.view, { ...cur.params, ...patch });
  window.history.replaceState(null, '', next);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

export function useHashRoute(): HashRoute {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseHashRoute(hash);
}
