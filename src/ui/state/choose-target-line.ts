/**
 * The `flink-datastream-protobuf` line the new job runs (0.x or 1.x): the user answers it once, up front,
 * and the answer lives in the page URL (`?target=0.x`, next to `?demo` / `?savepoint=`), so a shared or
 * reloaded link keeps it. Nothing is assumed before the answer: the verdict depends on it.
 */
import type { LibraryLine } from '../../core/compat';
import { useAppStore } from './app-store';

/** Records the answer in the store (the check re-runs) and in the URL (the hash route stays). */
export function chooseTargetLine(target: LibraryLine): void {
  const store = useAppStore.getState();
  store.set({ targetChosen: true, checkOptions: { ...store.checkOptions, target } });
  const params = new URLSearchParams(window.location.search);
  params.set('target', target);
  window.history.replaceState(window.history.state, '', `${window.location.pathname}?${params.toString().replace(/=(?=&|$)/g, '')}${window.location.hash}`);
}
