import type { SnapshotVerdicts } from '../../core/report';
import { useAppStore } from './app-store';
import { useSnapshotFindings } from './use-snapshot-findings';

/**
 * The verdicts the serializer snapshots give alone (core/report evaluateSnapshotVerdicts, run in the worker for both
 * lines), while no new schema is open: with one, the check's report says the same and more (useCheck).
 */
export function useSnapshotVerdicts(): SnapshotVerdicts | null {
  const noSchema = useAppStore((s) => s.session !== null && s.session.savepointName !== null && s.session.descriptorSetName === null);
  const chosen = useAppStore((s) => (s.targetChosen ? s.checkOptions.target : null));
  const findings = useSnapshotFindings().data;
  return noSchema && findings ? findings.verdicts[chosen ?? '1.x'] : null;
}
