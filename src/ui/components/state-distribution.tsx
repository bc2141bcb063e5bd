import type { InspectedOperator, InspectedState } from '../../core/flink';
import { describeEntryCount } from '../describe-entry-count';
import { formatBytes, formatCount } from '../format';
import { useStateStats } from '../state/use-state-stats';
import { BarChart, type Bar } from './bar-chart';
import { FailurePanel } from './failure-panel';

/** Entries per key group and per subtask, from a scan of the state. */
export function StateDistribution({ operator, state: inspected }: { operator: InspectedOperator; state: InspectedState }) {
  const state = inspected.name;
  const stats = useStateStats(operator.id, state);
  if (stats.isError) return <FailurePanel failure={stats.error} context={`scanning ${state}`} onRetry={() => void stats.refetch()} />;
  if (!stats.data) return <p className="muted">Scanning entries…</p>;
  const s = stats.data;
  const keyed = s.byKeyGroup.some((b) => b.id >= 0);
  const groups: Bar[] = [];
  if (keyed && operator.maxParallelism <= 512) {
    const by = new Map(s.byKeyGroup.map((b) => [b.id, b]));
    for (let g = 0; g < operator.maxParallelism; g++) {
      const b = by.get(g);
      groups.push({ label: String(g), value: b?.entries ?? 0, title: `key group ${g}: ${b?.entries ?? 0} entries, ${formatBytes(b?.bytes ?? 0)}` });
    }
  } else if (keyed) {
    for (const b of s.byKeyGroup) groups.push({ label: String(b.id), value: b.entries, title: `key group ${b.id}: ${b.entries} entries, ${formatBytes(b.bytes)}` });
  }
  const subtasks: Bar[] = s.bySubtask.map((b) => ({ label: String(b.id), value: b.entries, title: `subtask ${b.id}: ${b.entries} entries, ${formatBytes(b.bytes)}` }));
  return (
    <section className="panel" data-testid="distribution">
      <header className="panel-head">
        <h2>Distribution</h2>
        <span className="muted small" data-testid="distribution-count">
          {describeEntryCount(inspected, s.entries)}
          {s.truncated ? ' (scan stopped at the entry cap)' : ''}
        </span>
      </header>
      {s.entries === 0 ? (
        <p className="muted">No entries.</p>
      ) : (
        <div className="chart-row">
          {groups.length > 0 ? (
            <figure>
              <figcaption>Entries per key group (max parallelism {operator.maxParallelism})</figcaption>
              <BarChart bars={groups} ariaLabel="Entries per key group" formatValue={formatCount} />
            </figure>
          ) : null}
          <figure>
            <figcaption>
              {inspected.scope === 'broadcast' ? 'Entries per subtask copy' : 'Entries per subtask'} (parallelism {operator.parallelism})
            </figcaption>
            <BarChart bars={subtasks} ariaLabel="Entries per subtask" formatValue={formatCount} />
          </figure>
        </div>
      )}
    </section>
  );
}
