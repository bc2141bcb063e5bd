import type { InspectedOperator, InspectedState } from '../../core/flink';
import { describeEntryCount } from '../describe-entry-count';
import { describeStateReading } from '../describe-state-reading';
import { useStateStats } from '../state/use-state-stats';

const CLASS: Record<string, string> = { 'not-read': 'bad', partly: 'warn', decoded: 'ok', 'header-read': 'muted' };

/** How far a state was read, as a tag with the reason on hover (and for screen readers). */
export function StateReadingTag({ operator, state, withDetail }: { operator: InspectedOperator; state: InspectedState; withDetail?: boolean }) {
  // a scan that is already there (never started here)
  const scanned = useStateStats(operator.id, state.name, { enabled: false }).data;
  const r = describeStateReading(
    operator,
    state,
    scanned ? { entries: describeEntryCount(state, { entries: scanned.entries, rows: scanned.rows }), sampled: scanned.sample !== undefined } : undefined,
  );
  return (
    <span className="state-reading" data-testid="state-reading" data-reading={r.kind}>
      <span className={`tag ${CLASS[r.kind]}`} title={r.detail}>
        {r.label}
      </span>
      {withDetail ? <span className="muted"> {r.detail}</span> : <span className="visually-hidden">: {r.detail}</span>}
    </span>
  );
}
