import type { StateSample } from '../../core/flink';
import { useAppStore } from './app-store';
import { parseHashRoute, updateRouteParams } from './use-hash-route';

/**
 * Switches how states are read (whole or a sample). Entry numbers are per sample: the selected
 * entry (`entry=N` of the values view) would name another entry, or none, in the new numbering,
 * so the selection is cleared.
 */
export function selectSample(sample: StateSample | null): void {
  const store = useAppStore.getState();
  if (JSON.stringify(store.sample) === JSON.stringify(sample)) return;
  store.set({ sample });
  if (parseHashRoute(window.location.hash).params.entry !== undefined) updateRouteParams({ entry: undefined });
}
