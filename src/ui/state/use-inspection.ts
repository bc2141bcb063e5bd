import { useQuery } from '@tanstack/react-query';
import type { SavepointInspection } from '../../core/flink';
import type { InspectorFailure } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';

/** The savepoint model of the open session, cached by input hash (react-query). */
export function useInspection() {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  return useQuery<SavepointInspection, InspectorFailure>({
    queryKey: ['session', session?.savepointHash ?? session?.inputHash, 'inspection'],
    // a schema given first waits for its savepoint: nothing to read yet, and not an error
    enabled: session !== null && session.savepointName !== null,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      try {
        return await inspector.getInspection((progress) => useAppStore.getState().set({ progress }));
      } finally {
        useAppStore.getState().set({ progress: null });
      }
    },
  });
}
