import type { NewDeclaration } from '../../core/compat';
import type { NewFieldDeclarations } from '../../core/report';
import type { SavepointInspection } from '../../core/flink';
import { WIRE_TYPE_NAMES } from '../../worker';
import { FailurePanel } from '../components/failure-panel';
import { formatBytes, formatCount, formatPercent } from '../format';
import { useStateStats } from '../state/use-state-stats';
import { protobufStatsOf } from '../state/protobuf-stats-of';
import { useAppStore } from '../state/app-store';
import { useCheck } from '../state/use-check';
import { StateList, findState } from './state-view';
import { ScanControls, ScanPending } from '../components/scan-controls';

export function UnknownFieldsView({ inspection, params }: { inspection: SavepointInspection; params: Record<string, string> }) {
  const found = findState(inspection, params.op, params.state);
  return (
    <div className="view split" data-testid="unknown-view">
      <StateList inspection={inspection} view="unknown" selected={found ? { op: found.operator.id, state: found.state.name } : null} />
      <div className="split-main">
        {found ? (
          <UnknownFields
            operatorId={found.operator.id}
            state={found.state.name}
            copies={found.state.scope === 'broadcast' ? found.state.subtasks.length : 1}
            keyed={found.state.scope === 'keyed'}
          />
        ) : (
          <p className="muted">Pick a state on the left.</p>
        )}
      </div>
    </div>
  );
}

function UnknownFields({ operatorId, state, copies, keyed }: { operatorId: string; state: string; copies: number; keyed: boolean }) {
  const stats = useStateStats(operatorId, state);
  const hasSchema = useAppStore((s) => s.session?.descriptorSetName != null);
  const check = useCheck();
  const reportIndex = check.data?.states.findIndex((s) => s.operator === operatorId && s.state === state) ?? -1;
  const newFields = reportIndex < 0 ? undefined : check.data?.view.states[reportIndex]?.newFields;
  if (stats.isError) return <FailurePanel failure={stats.error} context={`scanning ${state}`} onRetry={() => void stats.refetch()} />;
  if (!stats.data) return <ScanPending />;
  const pb = protobufStatsOf(stats.data);
  return (
    <>
      <h1>Unknown fields · {state}</h1>
      <ScanControls stats={stats.data} />
      {pb === null ? (
        <p className="muted">This state holds no Protobuf values, so it has no unknown fields.</p>
      ) : (
        <>
          <p className="lead">
            <strong>{formatCount(pb.valuesWithUnknownFields)}</strong> of {formatCount(pb.values)} <span className="mono">{pb.typeName}</span> values (
            {formatPercent(pb.valuesWithUnknownFields, pb.values)}) carry unknown fields: numbers the saved schema does not declare. They are kept and written
            back by every later savepoint.
            {copies > 1 ? (
              <span data-testid="broadcast-counting">
                {' '}
                Broadcast state: every one of the {copies} subtasks holds a full copy; one copy is counted here, as in the state&apos;s entry count and the
                value warnings (the Values view lists every copy).
              </span>
            ) : null}
          </p>
          {pb.unknownFields.length === 0 ? (
            <p className="muted">No value carries an unknown field.</p>
          ) : (
            <section className="panel scroll-x">
              <table className="grid unknown-table" data-testid="unknown-stats">
                <thead>
                  <tr>
                    <th>Message</th>
                    <th className="num">Number</th>
                    <th>Wire type</th>
                    {hasSchema ? <th>New schema</th> : null}
                    <th className="num">Values</th>
                    <th>Share of values</th>
                    <th className="num">Occur&shy;rences</th>
                    <th className="num">Bytes</th>
                    <th>Example keys</th>
                  </tr>
                </thead>
                <tbody>
                  {pb.unknownFields.map((u) => (
                    <tr key={`${u.message}|${u.number}|${u.wireType}`} data-testid="unknown-stat">
                      <td className="mono">{u.message}</td>
                      <td className="num mono">{u.number}</td>
                      <td className="mono">{WIRE_TYPE_NAMES[u.wireType] ?? u.wireType}</td>
                      {/* what the new schema makes of the number comes first after it: the column users open this view for */}
                      {hasSchema ? (
                        <td className="new-field" data-testid="unknown-new-field">
                          {newFields ? (
                            <NewFieldText d={findNewDeclaration(newFields, u.message, u.number, u.wireType)} />
                          ) : check.isError ? (
                            <span className="muted">check failed</span>
                          ) : !check.targetChosen ? (
                            <span className="muted">choose the library line (Overview) to see what the new schema makes of it</span>
                          ) : (
                            <span className="muted">checking…</span>
                          )}
                        </td>
                      ) : null}
                      <td className="num">{formatCount(u.values)}</td>
                      <td className="nowrap">
                        <span className="share">
                          <span className="share-fill" style={{ width: `${(u.values / pb.values) * 100}%` }} />
                        </span>{' '}
                        {formatPercent(u.values, pb.values)}
                      </td>
                      <td className="num">{formatCount(u.occurrences)}</td>
                      <td className="num">{formatBytes(u.bytes)}</td>
                      {/* an operator list's entries have no key: said once, with why, not one "(no key)" per example (a broadcast state's map keys show) */}
                      <td className="mono examples">
                        {[...new Set(u.examples)].map((k) => (!keyed && k === '(no key)' ? '(no key: operator state has no key)' : k)).join(', ')}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
        </>
      )}
    </>
  );
}

/** What the new schema makes of an unknown field number, from the check's report view (core/compat describeNewDeclaration, run in the worker). */
function findNewDeclaration(fields: NewFieldDeclarations, message: string, number: number, wireType: number): NewDeclaration {
  if (!fields.reachedMessages.includes(message)) return { kind: 'unknown-message' };
  return fields.fields.find((f) => f.message === message && f.number === number && f.wireType === wireType)?.declaration ?? { kind: 'undeclared' };
}

function NewFieldText({ d }: { d: NewDeclaration }) {
  const type = (x: { type: string; label?: string }) => [x.label, x.type].filter(Boolean).join(' ').toLowerCase();
  switch (d.kind) {
    case 'read-as':
      return (
        <span className="tag-line">
          <span className="tag warn">would be read as</span> <span className="mono">{d.name}</span> ({type(d)})
        </span>
      );
    case 'wire-type-mismatch':
      return (
        <span>
          declared as <span className="mono">{d.name}</span> ({type(d)}) with another wire type: stays unknown
        </span>
      );
    case 'declared':
      return (
        <span>
          declared as <span className="mono">{d.name}</span> ({type(d)})
        </span>
      );
    case 'undeclared':
      return <span className="muted">not declared: stays unknown</span>;
    case 'unknown-message':
      return <span className="muted">message not reached by the new schema</span>;
  }
}
