import { useAppStore } from '../state/app-store';
import { useCheck } from '../state/use-check';
import { formatHashRoute } from '../state/use-hash-route';
import { ValueAlertCallouts } from './value-alert-callouts';
import { ValueCheckNote } from './value-check-note';
import { VerdictBadge } from './verdict-badge';

/** The overview's compatibility summary: verdict, counts and the value-aware callouts (when a schema is loaded). */
export function CompatOverview() {
  const schema = useAppStore((s) => s.session?.descriptorSetName ?? null);
  const check = useCheck();
  if (schema === null || !check.data) return null;
  const r = check.data;
  const sm = r.summary;
  return (
    <section className="compat-overview" data-testid="overview-compat">
      <div className="summary-bar">
        <VerdictBadge verdict={r.verdict} large />
        <span>
          against <span className="mono">{schema}</span> (target {r.target}): {sm.protobufStates} Protobuf states, {sm.compatible} compatible, {sm.incompatible}{' '}
          incompatible, {sm.notRestorable} not restorable, {sm.unknown} unknown · {check.values.status === 'done' ? `${sm.warnings} value warnings` : 'values not scanned'}
          {sm.valuesNotRead ? ` · values of ${sm.valuesNotRead} states not read` : ''}
        </span>
        <a href={formatHashRoute('compat', {})}>Compatibility details</a>
      </div>
      <ValueCheckNote values={check.values} />
      <ValueAlertCallouts report={r} />
    </section>
  );
}
