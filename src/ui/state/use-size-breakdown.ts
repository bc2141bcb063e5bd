import { useQuery } from '@tanstack/react-query';
import type { InspectorFailure, SizeBreakdown } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';

/** Where the open savepoint's bytes are (the worker's getSizeBreakdown: handles and headers only), cached by savepoint hash like the inspection. */
export function useSizeBreakdown() {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  return useQuery<SizeBreakdown, InspectorFailure>({
    queryKey: ['session', session?.savepointHash ?? session?.inputHash, 'size-breakdown'],
    enabled: session !== null && session.savepointName !== null,
    staleTime: Infinity,
    retry: false,
    queryFn: () => inspector.getSizeBreakdown(),
  });
}
