import { useQuery } from '@tanstack/react-query';
import type { SourcesAndSinks } from '../../core/flink';
import type { InspectorFailure } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';

/** The connectors' state as views (the worker's getSourcesAndSinks), cached by savepoint hash like the inspection. */
export function useSourcesAndSinks() {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  return useQuery<SourcesAndSinks, InspectorFailure>({
    queryKey: ['session', session?.savepointHash ?? session?.inputHash, 'sources-and-sinks'],
    enabled: session !== null && session.savepointName !== null,
    staleTime: Infinity,
    retry: false,
    queryFn: () => inspector.getSourcesAndSinks(),
  });
}
