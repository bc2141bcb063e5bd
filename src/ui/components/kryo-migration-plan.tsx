import type { InspectedOperator, InspectedState } from '../../core/flink';
import { useCheck } from '../state/use-check';
import { useSnapshotFindings } from '../state/use-snapshot-findings';

/**
 * The migration plan of a Kryo-held Protobuf state, as `migration-plan` prints it (planKryoMigration): what a
 * State Processor API job reads with the old Kryo configuration and writes with flink-datastream-protobuf's
 * ProtobufTypeInformation, and which states of the operator it cannot carry (planned in the worker: getSnapshotFindings).
 * The message comes from the check (the schema the user dropped) when the inspection has none.
 */
export function KryoMigrationPlan({ operator, state }: { operator: InspectedOperator; state: InspectedState }) {
  const check = useCheck();
  const plan = useSnapshotFindings().data?.kryoMigrationPlans[operator.id];
  const step = plan?.states.find((s) => s.state === state.name);
  if (plan === undefined || step === undefined) return null;
  const reported = check.data?.states.find((s) => s.operator === operator.id && s.state === state.name && s.ruleSet !== undefined);
  const messageType = step.messageType ?? (reported?.savedRoot && reported.savedRoot !== step.valueClass ? reported.savedRoot : null);
  return (
    <section className="panel" data-testid="migration-plan">
      <header className="panel-head">
        <h2>Migration plan</h2>
      </header>
      <div className="panel-body">
        <p>
          This state is Protobuf held by Kryo: flink-datastream-protobuf cannot restore it in place. A State Processor API job reads it with the old Kryo
          configuration and writes a new savepoint whose state uses <span className="mono">ProtobufTypeInformation</span> (
          <span className="mono">savepoint-inspector migration-plan</span> prints the same plan for every operator).
        </p>
        <dl className="kv">
          <div className="kv-row">
            <dt>operator</dt>
            <dd className="mono">{plan.uid ? `${plan.uid} (${plan.operatorId})` : plan.operatorId}</dd>
          </div>
          <div className="kv-row">
            <dt>state</dt>
            <dd className="mono">
              {step.state} · {step.kind}
              {step.role !== 'VALUE_SERIALIZER' ? ` · ${step.role}` : ''}
            </dd>
          </div>
          <div className="kv-row">
            <dt>key type</dt>
            <dd className="mono">{step.keyType ?? '—'}</dd>
          </div>
          <div className="kv-row">
            <dt>value</dt>
            <dd className="mono" data-testid="migration-plan-value">
              {step.valueClass}
              {messageType ? ` = message ${messageType}` : ' (drop the job’s schema to name its message)'}
            </dd>
          </div>
          <div className="kv-row">
            <dt>Kryo, as found</dt>
            <dd>
              {step.kryo}
              <div className="mono small">registrations: {step.registrations.length > 0 ? step.registrations.join(', ') : 'none'}</div>
              {step.defaults.length > 0 ? <div className="mono small">defaults: {step.defaults.join(', ')}</div> : null}
            </dd>
          </div>
          <div className="kv-row">
            <dt>do</dt>
            <dd data-testid="migration-plan-action">{step.action}</dd>
          </div>
        </dl>
        {plan.notCarried.length > 0 ? (
          <>
            <h3>Not carried by the job</h3>
            <ul data-testid="migration-plan-not-carried">
              {plan.notCarried.map((n) => (
                <li key={n.state}>
                  <span className="mono">{n.state}</span>: {n.why}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  );
}
