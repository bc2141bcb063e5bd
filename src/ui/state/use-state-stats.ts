import { useQuery } from '@tanstack/react-query';
import type { InspectorFailure, StateStats } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';

/** One state's scan (distribution, Protobuf statistics), cached per input hash and state. */
export function useStateStats(operatorId: string | undefined, state: string | undefined) {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  return useQuery<StateStats, InspectorFailure>({
    queryKey: ['session', session?.savepointHash, 'stats', operatorId, state],
    enabled: session !== null && operatorId !== undefined && state !== undefined,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      try {
        return await inspector.getStateStats({ operatorId: operatorId!, state: state! }, (progress) => useAppStore.getState().set({ progress }));
      } finally {
        useAppStore.getState().set({ progress: null });
      }
    },
  });
}
