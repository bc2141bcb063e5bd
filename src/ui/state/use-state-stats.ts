import { useQuery } from '@tanstack/react-query';
import type { InspectorFailure, StateStatsDetail as StateStats } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';

/**
 * One state's structural scan (distribution, Protobuf statistics, entry index), cached per
 * savepoint, state and sample. `enabled: false` only reads a scan that is already there.
 */
export function useStateStats(operatorId: string | undefined, state: string | undefined, options: { enabled?: boolean } = {}) {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  const sample = useAppStore((s) => s.sample);
  return useQuery<StateStats, InspectorFailure>({
    queryKey: ['session', session?.savepointHash, 'stats', operatorId, state, sample],
    enabled: session !== null && operatorId !== undefined && state !== undefined && (options.enabled ?? true),
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      try {
        return await inspector.getStateStats({ operatorId: operatorId!, state: state!, ...(sample ? { sample } : {}) }, (progress) =>
          useAppStore.getState().set({ progress }),
        );
      } finally {
        useAppStore.getState().set({ progress: null });
      }
    },
  });
}
