import type { SnapshotVerdicts } from '../report/evaluate-snapshot-verdicts';
import { formatHashRoute } from '../state/use-hash-route';
import { VerdictBadge } from './verdict-badge';

/**
 * Before a new schema is open: the states whose serializer snapshot alone says they cannot be restored with
 * flink-datastream-protobuf (Protobuf held by Kryo or written by flink-protobuf-serde), with the rule and the
 * reason `check` gives for them, and what the other Protobuf states still need.
 */
export function SnapshotVerdictsSection({ verdicts }: { verdicts: SnapshotVerdicts }) {
  const n = verdicts.states.length;
  const lines = verdicts.sameOnBothLines ? 'on either line (0.x or 1.x)' : `on ${verdicts.target}`;
  return (
    <section className="verdict-headline" data-testid="kryo-snapshot-verdict">
      <div className="verdict-line">
        <VerdictBadge verdict={verdicts.verdict} large />
        <p className="verdict-reason" data-testid="snapshot-verdict-reason">
          {n === 1 ? '1 Protobuf state is' : `${n} Protobuf states are`} held by a serializer that flink-datastream-protobuf cannot restore, {lines}, whatever the new schema: said
          by {n === 1 ? 'its serializer snapshot' : 'their serializer snapshots'} alone, as <span className="mono">check</span> says it with any schema.
        </p>
      </div>
      <p className="muted small" data-testid="snapshot-verdict-next">
        {verdicts.nativeProtobufStates > 0
          ? `The other ${verdicts.nativeProtobufStates} Protobuf state${verdicts.nativeProtobufStates === 1 ? '' : 's'} need the new schema for a verdict: drop the new job's jar or descriptor set.`
          : "Dropping the new job's jar or descriptor set decodes the values and names each state's message; it does not change this verdict."}{' '}
        Each state&apos;s migration plan (a State Processor API job) is in its State view.
      </p>
      <ul className="snapshot-verdict-states small">
        {verdicts.states.map((s) => {
          const f = s.compatibility.firstIncompatibility;
          return (
            <li key={`${s.operator.id}/${s.state}/${s.role}`} data-testid="snapshot-verdict-state">
              <a className="mono" href={formatHashRoute('state', { op: s.operator.id, state: s.state })}>
                {s.state}
              </a>{' '}
              <span className="muted">({s.operator.uid ?? s.operator.name ?? `${s.operator.id.slice(0, 12)}…`})</span>: <VerdictBadge verdict={s.compatibility.verdict} />{' '}
              {f ? (
                <>
                  <span className="mono">[{f.ruleId}]</span> {f.message}
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
