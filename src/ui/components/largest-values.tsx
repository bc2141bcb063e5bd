/**
 * After a value scan of a state: its largest values (key as `stats` prints it, value size, key group,
 * subtask) and its key-group skew (the key group with the most value bytes against the median of those
 * with entries). Both from core/report's value-size tally, which the worker keeps as the CLI's `stats` does.
 */
import type { StateStatsDetail } from '../../worker';
import { formatBytes, formatCount } from '../format';

export function LargestValues({ stats }: { stats: StateStatsDetail }) {
  const largest = stats.largestValues ?? [];
  const skew = stats.keyGroupSkew;
  if (largest.length === 0) return null;
  const keyed = largest.some((v) => v.keyGroup >= 0);
  return (
    <div className="largest-values" data-testid="largest-values">
      <h3 className="largest-values-title">
        Largest values <span className="muted small">{stats.sample ? '(of the sample)' : `(top ${largest.length} of ${formatCount(stats.entries)})`}</span>
      </h3>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col" className="num">
              Value size
            </th>
            {keyed ? (
              <th scope="col" className="num">
                Key group
              </th>
            ) : null}
            <th scope="col" className="num">
              Subtask
            </th>
          </tr>
        </thead>
        <tbody>
          {largest.map((v, i) => (
            <tr key={i} data-testid="largest-value">
              <td className="mono largest-key" title={v.key}>
                {v.key}
              </td>
              <td className="num mono" title={`${formatCount(v.valueBytes)} bytes`}>
                {formatBytes(v.valueBytes)}
              </td>
              {keyed ? <td className="num mono">{v.keyGroup}</td> : null}
              <td className="num mono">{v.subtask}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {skew && skew.keyGroups > 1 ? (
        <p className="small key-group-skew" data-testid="key-group-skew">
          Key groups: the largest, {skew.largest.keyGroup}, holds {formatBytes(skew.largest.valueBytes)} in {formatCount(skew.largest.entries)}{' '}
          {skew.largest.entries === 1 ? 'entry' : 'entries'} —{' '}
          <strong className={skew.skew >= 4 ? 'error-text' : undefined}>{formatRatio(skew.skew)} the median</strong> (
          {formatBytes(Math.round(skew.medianValueBytes))}) of {formatCount(skew.keyGroups)} key groups with entries
        </p>
      ) : null}
    </div>
  );
}

function formatRatio(r: number): string {
  return `${r.toFixed(r >= 10 ? 0 : 1)}×`;
}
