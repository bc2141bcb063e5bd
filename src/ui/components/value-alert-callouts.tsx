import type { AlertState, BecomesFieldAlert, CompatibilityReport, ExceedsLimitAlert } from '../../core/report';
import type { ViewedReport } from '../../worker';
import { formatCount } from '../format';
import { describeBecomesFieldEffect } from '../report/describe-becomes-field-effect';
import { formatHashRoute } from '../state/use-hash-route';

/**
 * The value-aware warnings as callouts: saved values whose unknown field
 * the new schema declares (the new parser reads those bytes as that field), and values above a new
 * limit. Shown at the top of the Compatibility view and in the overview.
 */
export function ValueAlertCallouts({ report }: { report: ViewedReport }) {
  const alerts = report.view.valueAlerts;
  if (alerts.becomesField.length === 0 && alerts.exceedsLimit.length === 0) return null;
  return (
    <div className="callouts" data-testid="value-alerts">
      {alerts.becomesField.map((a) => (
        <BecomesFieldCallout key={`${a.message}|${a.number}|${a.newName}`} alert={a} restorable={isAnyRestorable(report, a.states)} />
      ))}
      {alerts.exceedsLimit.map((a) => (
        <ExceedsLimitCallout key={`${a.limit}|${a.value}`} alert={a} />
      ))}
    </div>
  );
}

/** Whether any of the states can be restored (a NOT RESTORABLE state is never described after a restore). */
function isAnyRestorable(report: CompatibilityReport, states: readonly AlertState[]): boolean {
  return states.some((a) => report.states.find((s) => s.operator === a.operator && s.state === a.state)?.verdict !== 'not-restorable');
}

function BecomesFieldCallout({ alert: a, restorable }: { alert: BecomesFieldAlert; restorable: boolean }) {
  return (
    <section className="callout warn" data-testid="alert-becomes-field">
      <header>
        <span className="mono tag warn">UNKNOWN_NUMBER_BECOMES_FIELD</span>
        <strong>
          {formatCount(a.total)} saved value{a.total === 1 ? '' : 's'} carry unknown field {a.number} of <span className="mono">{a.message}</span>, which the
          new schema declares as <span className="mono">{a.newName}</span>
          {a.newType ? (
            <>
              {' '}
              (<span className="mono">{[a.newLabel, a.newType].filter(Boolean).join(' ')}</span>)
            </>
          ) : null}
        </strong>
      </header>
      <p data-testid="becomes-field-effect">{describeBecomesFieldEffect(a.newName, restorable)}</p>
      <AlertStates states={a.states} unknownLink />
    </section>
  );
}

function ExceedsLimitCallout({ alert: a }: { alert: ExceedsLimitAlert }) {
  return (
    <section className="callout bad" data-testid="alert-exceeds-limit">
      <header>
        <span className="mono tag bad">VALUE_EXCEEDS_NEW_LIMIT</span>
        <strong>
          {formatCount(a.total)} saved value{a.total === 1 ? '' : 's'} exceed the new <span className="mono">{a.limit}</span> of {a.value} (largest:{' '}
          {formatCount(a.largest)})
        </strong>
      </header>
      <p>The new reader fails on these values when the job reads them: raise the limit in the new application or shrink the data first.</p>
      <AlertStates states={a.states} />
    </section>
  );
}

/** example keys per state in a callout (the state's detail lists all the report keeps) */
const EXAMPLE_KEYS = 3;

function AlertStates({ states, unknownLink }: { states: readonly AlertState[]; unknownLink?: boolean }) {
  return (
    <ul className="alert-states">
      {states.map((s) => (
        <li key={`${s.operator}/${s.state}`}>
          <a className="mono" href={formatHashRoute('compat', { op: s.operator, state: s.state })}>
            {s.state}
          </a>{' '}
          <span className="muted">({s.operatorLabel ?? `${s.operator.slice(0, 12)}…`})</span>: {formatCount(s.count)} value{s.count === 1 ? '' : 's'}
          {s.keys.length > 0 ? (
            <>
              , e.g. key{s.keys.length === 1 ? '' : 's'} <span className="mono">{s.keys.slice(0, EXAMPLE_KEYS).join(', ')}</span>
              {s.count > Math.min(s.keys.length, EXAMPLE_KEYS) ? ` and ${formatCount(s.count - Math.min(s.keys.length, EXAMPLE_KEYS))} more` : ''}
            </>
          ) : null}
          {unknownLink ? (
            <>
              {' · '}
              <a href={formatHashRoute('unknown', { op: s.operator, state: s.state })} data-testid="alert-unknown-link">
                unknown fields of {s.state}
              </a>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
