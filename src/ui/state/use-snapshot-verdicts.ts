import { useMemo } from 'react';
import { evaluateSnapshotVerdicts, type SnapshotVerdicts } from '../report/evaluate-snapshot-verdicts';
import { useAppStore } from './app-store';
import { useInspection } from './use-inspection';

/**
 * The verdicts the serializer snapshots give alone (evaluate-snapshot-verdicts.ts), while no new schema is open:
 * with one, the check's report says the same and more (useCheck).
 */
export function useSnapshotVerdicts(): SnapshotVerdicts | null {
  const noSchema = useAppStore((s) => s.session !== null && s.session.savepointName !== null && s.session.descriptorSetName === null);
  const chosen = useAppStore((s) => (s.targetChosen ? s.checkOptions.target : null));
  const inspection = useInspection().data;
  return useMemo(() => (noSchema && inspection ? evaluateSnapshotVerdicts(inspection, chosen) : null), [noSchema, inspection, chosen]);
}
