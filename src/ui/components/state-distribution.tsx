import type { InspectedOperator, InspectedState } from '../../core/flink';
import { describeEntryCount } from '../describe-entry-count';
import { formatBytes, formatCount } from '../format';
import { useState } from 'react';
import { AUTO_SCAN_BYTES } from '../state/scan-thresholds';
import { useStateStats } from '../state/use-state-stats';
import { ScanControls, describeScanCoverage } from './scan-controls';
import { BarChart, type Bar } from './bar-chart';
import { FailurePanel } from './failure-panel';
import { LargestValues } from './largest-values';
import { TtlValues } from './ttl-values';

/**
 * Entries per key group and per subtask, from the structural scan of the state: run at once when
 * the operator's state is small (AUTO_SCAN_BYTES), else when the user asks (Scan values).
 */
export function StateDistribution({ operator, state: inspected }: { operator: InspectedOperator; state: InspectedState }) {
  const state = inspected.name;
  const [asked, setAsked] = useState(false);
  const stats = useStateStats(operator.id, state, { enabled: asked || operator.stateSize <= AUTO_SCAN_BYTES });
  if (stats.isError) return <FailurePanel failure={stats.error} context={`scanning ${state}`} onRetry={() => void stats.refetch()} />;
  if (!stats.data) {
    return (
      <section className="panel" data-testid="distribution">
        <header className="panel-head">
          <h2>Distribution</h2>
        </header>
        <div className="panel-body">
          <ScanControls stats={undefined} />
          {stats.isFetching ? (
            <p className="muted">Scanning entries…</p>
          ) : (
            <p>
              <span className="muted">
                Not scanned: the operator holds {formatBytes(operator.stateSize)} of state. Entry counts, the distribution and the value statistics need a scan
                of the values.
              </span>{' '}
              <button type="button" className="btn small" onClick={() => setAsked(true)} data-testid="scan-values">
                Scan values
              </button>
            </p>
          )}
        </div>
      </section>
    );
  }
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
    for (const b of s.byKeyGroup)
      groups.push({ label: String(b.id), value: b.entries, title: `key group ${b.id}: ${b.entries} entries, ${formatBytes(b.bytes)}` });
  }
  const subtasks: Bar[] = s.bySubtask.map((b) => ({
    label: String(b.id),
    value: b.entries,
    title: `subtask ${b.id}: ${b.entries} entries, ${formatBytes(b.bytes)}`,
  }));
  return (
    <section className="panel" data-testid="distribution">
      <header className="panel-head">
        <h2>Distribution</h2>
        <span className="muted small" data-testid="distribution-count">
          {describeEntryCount(inspected, s)}
          {s.sample ? ` (${describeScanCoverage(s)})` : ''}
        </span>
      </header>
      <div className="panel-body">
        <ScanControls stats={s} />
      </div>
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
      <LargestValues stats={s} />
      <TtlValues stats={s} />
    </section>
  );
}
