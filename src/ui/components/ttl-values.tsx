/**
 * After a value scan of a state with time-to-live: its TTL values (how many, in how many entries, the
 * oldest and newest last access) and, under a TTL the user types (not in the savepoint), how many had
 * expired at the newest access or at a time the user gives. Parsed and counted by the core functions
 * `stats --ttl`/`--ttl-at` use, from the access times the worker kept: a new TTL reads nothing again.
 */
import { useState, type ReactNode } from 'react';
import { countTtlExpired, parseTtlAt, parseTtlDuration, type StateStatsDetail } from '../../worker';
import { formatCount } from '../format';

export function TtlValues({ stats }: { stats: StateStatsDetail }) {
  const t = stats.ttl;
  if (!t) return null;
  const inEntries = t.values === t.entries ? '' : ` in ${formatCount(t.entries)} entries`;
  const noun = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
  return (
    <div className="ttl-values" data-testid="ttl-values">
      <h3 className="largest-values-title">Time-to-live {stats.sample ? <span className="muted small">(of the sample)</span> : null}</h3>
      <p className="small" data-testid="ttl-tally">
        {noun(t.values, 'TTL value', 'TTL values')}
        {inEntries}
        {t.oldestAccess !== null && t.newestAccess !== null ? (
          <>
            , last access <span className="mono">{new Date(t.oldestAccess).toISOString()}</span> to{' '}
            <span className="mono">{new Date(t.newestAccess).toISOString()}</span>
          </>
        ) : (
          ': no last-access time readable (their timestamps are not longs)'
        )}
      </p>
      {t.newestAccess !== null && stats.ttlAccess ? <TtlExpiryForm stats={stats} newest={t.newestAccess} /> : null}
    </div>
  );
}

function TtlExpiryForm({ stats, newest }: { stats: StateStatsDetail; newest: number }) {
  const [ttlText, setTtlText] = useState('');
  const [atText, setAtText] = useState('');
  const t = stats.ttl!;
  const ttlMs = ttlText.trim() === '' ? null : parseTtlDuration(ttlText);
  const givenAt = atText.trim() === '' ? null : parseTtlAt(atText);
  const atMs = atText.trim() === '' ? newest : givenAt;
  let result: ReactNode;
  if (ttlText.trim() === '')
    result = <span className="muted">The TTL is not in the savepoint (Flink writes only its serializers): type it to count the expired values.</span>;
  else if (ttlMs === null)
    result = <span className="error-text">The TTL expects a time-to-live such as 7d, 12h, 30m, 45s or 500ms (at least 1 ms), found ‘{ttlText}’.</span>;
  else if (atMs === null)
    result = (
      <span className="error-text">The time expects an ISO 8601 time with its zone (2026-12-01T00:00:00Z) or epoch milliseconds, found ‘{atText}’.</span>
    );
  else {
    const c = countTtlExpired(stats.ttlAccess!, { ttlMs, atMs });
    const range = (n: number, undecided: number) => (undecided === 0 ? formatCount(n) : `between ${formatCount(n)} and ${formatCount(n + undecided)}`);
    result = (
      <>
        <strong>
          {range(c.expiredValues, c.undecidedValues)} of {formatCount(t.values)} values expired
        </strong>
        {t.values === t.entries ? null : ` (${range(c.expiredEntries, c.undecidedEntries)} of ${formatCount(t.entries)} entries wholly)`} at{' '}
        <span className="mono">{new Date(atMs).toISOString()}</span>
        {givenAt === null ? ", the newest last access of this state's values" : ''}: expired when last access + TTL ≤ that time
        {c.undecidedValues + c.undecidedEntries > 0
          ? ` (access times kept in ${formatCount(stats.ttlAccess!.widthMs)} ms buckets: the values of the bucket the time falls in may or may not have expired)`
          : ''}
      </>
    );
  }
  return (
    <>
      <div className="ttl-controls small">
        <label>
          TTL <input data-testid="ttl-input" className="mono" size={8} placeholder="e.g. 7d" value={ttlText} onChange={(e) => setTtlText(e.target.value)} />
        </label>
        <label>
          judged at{' '}
          <input
            data-testid="ttl-at-input"
            className="mono"
            size={26}
            placeholder={new Date(newest).toISOString()}
            title="ISO 8601 with its zone, or epoch milliseconds; empty: the newest last access of this state's values (stats --ttl without --ttl-at takes the newest of all the savepoint's TTL states)"
            value={atText}
            onChange={(e) => setAtText(e.target.value)}
          />
        </label>
      </div>
      <p className="small" data-testid="ttl-expired">
        {result}
      </p>
    </>
  );
}
