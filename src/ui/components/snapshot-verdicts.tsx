import type { SnapshotStateVerdict, SnapshotVerdicts } from '../../core/report';
import { describeHeldByVerdict } from '../report/describe-verdict-reason';
import { formatHashRoute } from '../state/use-hash-route';
import { VerdictBadge } from './verdict-badge';

/**
 * Before a new schema is open: the states whose serializer snapshot alone says they cannot be restored with
 * flink-datastream-protobuf (Protobuf held by Kryo or written by flink-protobuf-serde), with the rule and the
 * reason `check` gives for them (once per distinct reason, with the states it applies to), and what the
 * other Protobuf states still need.
 */
export function SnapshotVerdictsSection({ verdicts }: { verdicts: SnapshotVerdicts }) {
  const n = verdicts.states.length;
  const kryo = verdicts.states.filter((s) => s.heldBy === 'kryo').length;
  const native = verdicts.nativeProtobufStates;
  return (
    <section className="verdict-headline" data-testid="kryo-snapshot-verdict">
      <div className="verdict-line">
        <VerdictBadge verdict={verdicts.verdict} large />
        <p className="verdict-reason" data-testid="snapshot-verdict-reason">
          {describeHeldByVerdict({ kryo, peer: n - kryo, protobufStates: n + verdicts.nativeProtobufStates }, verdicts)}
        </p>
      </div>
      <p className="muted small" data-testid="snapshot-verdict-next">
        Told by the serializer snapshots alone, as <span className="mono">check</span> tells it with any schema.{' '}
        {native > 0
          ? `The other ${native} Protobuf state${native === 1 ? '' : 's'} need${native === 1 ? 's' : ''} the new schema for a verdict: drop the new job's jar or descriptor set.`
          : "The new job's jar or descriptor set would decode the values and name each state's message; it cannot change this verdict."}{' '}
        Each state&apos;s page has its migration plan (a State Processor API job).
      </p>
      {groupByReason(verdicts.states).map(({ reason, states }) => (
        <div className="snapshot-verdict-reason small" key={reason} data-testid="snapshot-verdict-group">
          <p>{reason}</p>
          <p>
            {states.map((s, i) => (
              <span key={`${s.operator.id}/${s.state}/${s.role}`} data-testid="snapshot-verdict-state">
                {i > 0 ? ', ' : ''}
                <a className="mono" href={formatHashRoute('state', { op: s.operator.id, state: s.state })}>
                  {s.state}
                </a>{' '}
                <span className="muted">({s.operator.uid ?? s.operator.name ?? `${s.operator.id.slice(0, 12)}…`})</span>
              </span>
            ))}
          </p>
        </div>
      ))}
    </section>
  );
}

/** `[RULE] message` once per distinct reason, in first-seen order, with the states it applies to. */
function groupByReason(states: readonly SnapshotStateVerdict[]): { reason: string; states: SnapshotStateVerdict[] }[] {
  const groups = new Map<string, SnapshotStateVerdict[]>();
  for (const s of states) {
    const f = s.compatibility.firstIncompatibility;
    const reason = f ? `[${f.ruleId}] ${f.message}` : s.compatibility.verdict;
    groups.set(reason, [...(groups.get(reason) ?? []), s]);
  }
  return [...groups].map(([reason, list]) => ({ reason, states: list }));
}
