import { useQuery } from '@tanstack/react-query';
import type { InspectorFailure, SnapshotFindings } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from './app-store';

/** What the open savepoint's serializer snapshots tell alone (the worker's getSnapshotFindings), cached by savepoint hash like the inspection. */
export function useSnapshotFindings() {
  const inspector = useInspector();
  const session = useAppStore((s) => s.session);
  return useQuery<SnapshotFindings, InspectorFailure>({
    queryKey: ['session', session?.savepointHash ?? session?.inputHash, 'snapshot-findings'],
    enabled: session !== null && session.savepointName !== null,
    staleTime: Infinity,
    retry: false,
    queryFn: () => inspector.getSnapshotFindings(),
  });
}
