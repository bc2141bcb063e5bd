import type { DescribedStateFindings, ReportWarning } from '../../core/report';
import { describeValuesNotRead } from '../report/describe-values-not-read';

/**
 * One state's findings: each by its own statement, and the note a rule's findings share (why they fail, what to
 * do) once under the table, as the text report says it (core/report describeStateFindings, worded in the worker's
 * report view), not once per row.
 */
export function FindingsTable({ described, testId }: { described: DescribedStateFindings; testId?: string }) {
  if (described.findings.length === 0) return <p className="muted">No findings: the reached schema did not change.</p>;
  return (
    <>
      <table className="grid findings" data-testid={testId}>
        <thead>
          <tr>
            <th>Rule</th>
            <th>Result</th>
            <th>Where</th>
            <th>Message</th>
          </tr>
        </thead>
        <tbody>
          {described.findings.map(({ finding: f, statement }, i) => (
            <tr key={i} className={f.accepted ? 'accepted' : 'rejected'}>
              <td className="mono">{f.ruleId}</td>
              <td>
                <span className={`tag ${f.accepted ? 'ok' : 'bad'}`}>{f.accepted ? 'accepted' : 'rejected'}</span>
              </td>
              <td className="mono">{f.path}</td>
              <td>{statement}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {described.notes.map((n) => (
        <p key={n.ruleId} className="small finding-note" data-testid={testId === undefined ? undefined : `${testId}-note`}>
          Note on <span className="mono">{n.ruleId}</span> {n.scope}: {n.note}
        </p>
      ))}
    </>
  );
}

/** The value warnings of a state; where its values could not be read (`notRead`: why), that, never "No value warnings". */
export function WarningsList({ warnings, notRead }: { warnings: readonly ReportWarning[]; notRead?: string | undefined }) {
  if (notRead !== undefined) {
    return (
      <p className="notice values-not-read" data-testid="values-not-read">
        {describeValuesNotRead(notRead).sentence}
      </p>
    );
  }
  if (warnings.length === 0) return <p className="muted">No value warnings.</p>;
  return (
    <ul className="value-warnings" data-testid="value-warnings">
      {warnings.map((w, i) => (
        <li key={i}>
          <span className="mono tag warn">{w.ruleId}</span> {w.message}
          {w.keys.length > 0 ? (
            <div className="muted small">
              keys: <span className="mono">{w.keys.join(', ')}</span>
              {w.count > w.keys.length ? ` and ${w.count - w.keys.length} more` : ''}
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
