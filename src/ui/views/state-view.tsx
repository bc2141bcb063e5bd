import type { InspectedOperator, InspectedState, SavepointInspection } from '../../core/flink';
import { KryoMigrationPlan } from '../components/kryo-migration-plan';
import { SnapshotTree } from '../components/snapshot-tree';
import { StateReadingTag } from '../components/state-reading-tag';
import { describeStateReading } from '../describe-state-reading';
import { StateDistribution } from '../components/state-distribution';
import { describeDistributionMode, describeEntryCount } from '../describe-entry-count';
import { formatHashRoute } from '../state/use-hash-route';
import { useStateStats } from '../state/use-state-stats';
import { describeStateKind } from '../describe-state-kind';

export function findState(
  inspection: SavepointInspection,
  op: string | undefined,
  state: string | undefined,
): { operator: InspectedOperator; state: InspectedState } | null {
  for (const o of inspection.operators) {
    if (op !== undefined && o.id !== op) continue;
    for (const s of o.states) if (state === undefined || s.name === state) return { operator: o, state: s };
  }
  return null;
}

/** The list of all states, grouped by operator, as links that keep the current view. */
export function StateList({
  inspection,
  view,
  selected,
}: {
  inspection: SavepointInspection;
  view: 'state' | 'compat' | 'diff' | 'values' | 'unknown' | 'aliasing';
  selected: { op: string; state: string } | null;
}) {
  const withStates = inspection.operators.filter((o) => o.states.length > 0);
  return (
    <aside className="state-list" aria-label="States">
      {withStates.length === 0 ? <p className="muted">This savepoint has no state.</p> : null}
      {withStates.map((o) => (
        <div key={o.id} className="state-group">
          <div className="state-group-head" title={o.id}>
            {o.uid || o.name || <span className="mono">{o.id.slice(0, 12)}…</span>}
          </div>
          <ul>
            {o.states.map((s) => {
              const active = selected?.op === o.id && selected.state === s.name;
              return (
                <li key={`${s.scope}:${s.name}`}>
                  <a
                    href={formatHashRoute(view, { op: o.id, state: s.name })}
                    className={active ? 'active' : undefined}
                    aria-current={active ? 'true' : undefined}
                  >
                    <span className="state-name">{s.name}</span>
                    {(() => {
                      // the sidebar flags what is not (fully) read; the state's page and the Overview say it for every state
                      const r = describeStateReading(o, s);
                      return r.kind === 'not-read' || r.kind === 'partly' ? (
                        <span className={`tag ${r.kind === 'not-read' ? 'bad' : 'warn'}`} title={r.detail} data-testid="sidebar-reading">
                          {r.label}
                        </span>
                      ) : (
                        <span className="tag muted">{s.kind}</span>
                      );
                    })()}
                  </a>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </aside>
  );
}

export function StateView({ inspection, params }: { inspection: SavepointInspection; params: Record<string, string> }) {
  const found = findState(inspection, params.op, params.state);
  return (
    <div className="view split" data-testid="state-view">
      <StateList inspection={inspection} view="state" selected={found ? { op: found.operator.id, state: found.state.name } : null} />
      <div className="split-main">
        {found === null ? <p className="muted">Pick a state on the left.</p> : <StateDetails operator={found.operator} state={found.state} />}
      </div>
    </div>
  );
}

function StateDetails({ operator, state }: { operator: InspectedOperator; state: InspectedState }) {
  // the inspection reads headers only: entry counts come from a scan of the state, once there is one
  const scanned = useStateStats(operator.id, state.name, { enabled: false }).data;
  const entries = state.entries ?? scanned?.entries;
  return (
    <>
      <h1>
        {state.name} <span className="tag muted">{describeStateKind(state)}</span>
      </h1>
      <dl className="kv inline">
        <dt>operator</dt>
        <dd className="mono">{operator.id}</dd>
        {operator.uid ? (
          <>
            <dt>uid</dt>
            <dd className="mono">{operator.uid}</dd>
          </>
        ) : null}
        <dt>backend state type</dt>
        <dd>{state.backendStateType}</dd>
        <dt>status</dt>
        <dd>
          <span className={`tag ${state.status === 'ok' ? 'ok' : state.status === 'unknown' ? 'warn' : 'bad'}`}>{state.status}</span>
          {state.statusReason ? <span className="muted"> {state.statusReason}</span> : null}
        </dd>
        <dt>read</dt>
        <dd>
          <StateReadingTag operator={operator} state={state} withDetail />
        </dd>
        <dt>entries</dt>
        <dd data-testid="state-entries">
          {entries === undefined ? (
            <span className="muted">not scanned</span>
          ) : (
            describeEntryCount(state, { entries, ...(state.entries === undefined && scanned ? { rows: scanned.rows } : {}) })
          )}
          {state.entries === undefined && scanned?.sample ? <span className="muted"> in the sample</span> : null}
        </dd>
        <dt>subtasks</dt>
        <dd className="mono">{state.subtasks.join(', ') || '—'}</dd>
        {state.scope === 'keyed' ? (
          <>
            <dt>keyed format</dt>
            <dd>{operator.keyedFormat}</dd>
          </>
        ) : (
          <>
            <dt>distribution mode</dt>
            <dd className="mono" data-testid="distribution-mode">
              {describeDistributionMode(state) ?? <span className="muted">not recorded</span>}
            </dd>
          </>
        )}
      </dl>
      {state.status === 'ok' ? <StateDistribution operator={operator} state={state} /> : null}
      <section className="panel">
        <header className="panel-head">
          <h2>Value serializer</h2>
        </header>
        {state.valueSerializer ? <SnapshotTree snapshot={state.valueSerializer} /> : <p className="muted">not recorded</p>}
      </section>
      <KryoMigrationPlan operator={operator} state={state} />
      {state.keySerializer ? (
        <section className="panel">
          <header className="panel-head">
            <h2>Key serializer</h2>
          </header>
          <SnapshotTree snapshot={state.keySerializer} />
        </section>
      ) : null}
      {state.namespaceSerializer ? (
        <section className="panel">
          <header className="panel-head">
            <h2>Namespace serializer</h2>
          </header>
          <SnapshotTree snapshot={state.namespaceSerializer} />
        </section>
      ) : null}
    </>
  );
}
