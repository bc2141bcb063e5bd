import { useQuery } from '@tanstack/react-query';
import type { CompatibilityReport } from '../../core/report';
import type { InspectorFailure } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';

/** The compatibility report for the open input and the chosen target/settings; null without a schema. */
export function useCheck() {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  const options = useAppStore((s) => s.checkOptions);
  return useQuery<CompatibilityReport, InspectorFailure>({
    queryKey: ['session', session?.inputHash, 'check', options],
    enabled: session !== null && session.savepointName !== null && session.descriptorSetName !== null,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      try {
        return await inspector.check(options, (progress) => useAppStore.getState().set({ progress }));
      } finally {
        useAppStore.getState().set({ progress: null });
      }
    },
  });
}
