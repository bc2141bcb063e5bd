import { countValuesNotChecked } from '../../worker';
import { useAppStore } from '../state/app-store';
import { useCheck } from '../state/use-check';
import { formatHashRoute } from '../state/use-hash-route';
import { FailurePanel } from './failure-panel';
import { TargetLineQuestion } from './target-line-question';
import { TargetNotAskedNote } from './target-not-asked-note';
import { ValueAlertCallouts } from './value-alert-callouts';
import { ValueCheckNote } from './value-check-note';
import { VerdictHeadline } from './verdict-headline';

/** The overview's compatibility summary (when a schema is loaded): the target question, else the verdict, its reason, the schema changes, counts and callouts. */
export function CompatOverview() {
  const schema = useAppStore((s) => s.session?.descriptorSetName ?? null);
  const check = useCheck();
  if (schema === null) return null;
  if (!check.targetChosen) return <TargetLineQuestion />;
  // no verdict because the check failed: its reason here, not only in the Compatibility view
  if (check.isError && !check.data) return <FailurePanel failure={check.error} context="checking compatibility" onRetry={() => void check.refetch()} />;
  if (!check.data) return null;
  const r = check.data;
  const sm = r.summary;
  // Kryo-held values are readable but unchecked (no saved schema), not "not read": the two are counted apart
  const { kryo, unread } = countValuesNotChecked(r.states);
  return (
    <section className="compat-overview" data-testid="overview-compat">
      <VerdictHeadline report={r}>
        {check.targetNotAsked ? <TargetNotAskedNote /> : null}
        <p className="muted small" data-testid="overview-counts">
          against <span className="mono">{schema}</span>: {sm.protobufStates} Protobuf states, {sm.compatible} compatible, {sm.incompatible} incompatible,{' '}
          {sm.notRestorable} not restorable, {sm.unknown} unknown · {check.values.status === 'done' ? `${sm.warnings} value warnings` : 'values not scanned'}
          {unread > 0 ? ` · values of ${unread} state${unread === 1 ? '' : 's'} not read` : ''}
          {kryo > 0 ? ` · values of ${kryo} Kryo state${kryo === 1 ? '' : 's'} not checked (no saved schema)` : ''} ·{' '}
          <a href={formatHashRoute('compat', {})}>Compatibility details</a>
        </p>
      </VerdictHeadline>
      <ValueCheckNote values={check.values} />
      <ValueAlertCallouts report={r} />
    </section>
  );
}
