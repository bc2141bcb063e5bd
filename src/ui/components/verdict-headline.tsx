import type { CompatibilityReport } from '../../core/report';
import {
  countUnreachedChanges,
  describeChangeReach,
  describeVerdictLabel,
  describeVerdictReason,
  listSchemaChanges,
  listSettingsChanges,
} from '../report/describe-verdict-reason';
import { formatHashRoute } from '../state/use-hash-route';
import { useInspection } from '../state/use-inspection';
import { listMissingStateFiles } from '../describe-savepoint-contents';
import { TargetLineAnswer } from './target-line-question';
import { VerdictBadge } from './verdict-badge';

const SHOWN_CHANGES = 6;

/**
 * The first thing about a report: the badge, its one-line reason right under it, the target line it was
 * checked for, and what changed in the schema — before any other callout.
 */
export function VerdictHeadline({ report, children }: { report: CompatibilityReport; children?: React.ReactNode }) {
  const changes = listSchemaChanges(report);
  const settingsChanges = listSettingsChanges(report);
  const inspection = useInspection();
  const missing = inspection.data ? listMissingStateFiles(inspection.data).length : 0;
  const unreached = countUnreachedChanges(report);
  const exact = report.target === '0.x';
  return (
    <section className="verdict-headline" data-testid="verdict-headline">
      <div className="verdict-line">
        <VerdictBadge verdict={report.verdict} large label={describeVerdictLabel(report)} />
        <p className="verdict-reason" data-testid="verdict-reason">
          {describeVerdictReason(report, missing, inspection.data?.type)}
        </p>
      </div>
      <TargetLineAnswer target={report.target} />
      {report.summary.protobufStates > 0 ? (
        <div className="schema-changes" data-testid="schema-changes">
          <h3>What changed in the schema</h3>
          {changes.length === 0 ? (
            <p className="muted">
              Nothing in the declarations the states reach
              {unreached > 0 ? ` (${unreached} declaration${unreached === 1 ? '' : 's'} that no state reaches changed)` : ''}.
            </p>
          ) : (
            <>
              <ul>
                {changes.slice(0, SHOWN_CHANGES).map((c) => {
                  const ok = c.accepted && !exact;
                  const reach = describeChangeReach(c, report);
                  return (
                    <li key={c.message} data-testid="schema-change">
                      <span className={`tag ${ok ? 'ok' : 'bad'}`}>{ok ? 'allowed' : exact ? 'not identical' : 'breaks restore'}</span> {c.message}
                      {reach ? (
                        <span className="muted small" data-testid="schema-change-reach" title={`reached by ${c.states.join(', ')}`}>
                          {' '}
                          · {reach}
                        </span>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
              <p className="muted small">
                {changes.length > SHOWN_CHANGES ? `and ${changes.length - SHOWN_CHANGES} more · ` : ''}
                {unreached > 0 ? `${unreached} changed declaration${unreached === 1 ? '' : 's'} that no state reaches · ` : ''}
                <a href={formatHashRoute('diff', {})}>schema diff</a>
              </p>
            </>
          )}
        </div>
      ) : null}
      {settingsChanges.length > 0 ? (
        // a settings change is not a schema change: listed apart, under its own name
        <div className="schema-changes" data-testid="settings-changes">
          <h3>What changed in the serializer settings</h3>
          <ul>
            {settingsChanges.map((c) => (
              <li key={c.message} data-testid="settings-change">
                <span className={`tag ${c.accepted ? 'ok' : 'bad'}`}>{c.accepted ? 'allowed' : 'breaks restore'}</span> {c.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {children}
    </section>
  );
}
