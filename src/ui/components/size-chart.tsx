/**
 * "Where the bytes are": the savepoint's operators as sorted horizontal bars, each with its largest parts
 * (a state, or bytes several states share, or a stream's header) below it, split into subtask segments,
 * coloured by kind. Plain HTML and CSS (no chart library: sorted bars need none, and text labels stay
 * real text for screen readers and search). All bars share one scale: the largest operator.
 */
import type { SizeBreakdown, SizeKind, SizePart } from '../../worker';
import { formatBytes, formatCount } from '../format';

const OPERATORS_SHOWN = 8;
const PARTS_SHOWN = 5;

const KIND_LABEL: Record<SizeKind | 'header', string> = {
  keyed: 'keyed state',
  operator: 'operator state',
  timers: 'timers',
  protobuf: 'Protobuf values',
  header: 'stream header',
};

export function SizeChart({ breakdown }: { breakdown: SizeBreakdown }) {
  const ops = breakdown.operators;
  if (ops.length === 0) return null;
  const scale = Math.max(1, ops[0]!.bytes);
  const shown = ops.slice(0, OPERATORS_SHOWN);
  const rest = ops.slice(OPERATORS_SHOWN);
  const anyShared = ops.some((o) => o.parts.some((p) => p.attribution === 'shared'));
  return (
    <section className="panel size-chart" aria-labelledby="size-chart-title" data-testid="size-chart">
      <header className="panel-head">
        <h2 id="size-chart-title">Where the bytes are</h2>
        <span className="muted small">
          {formatBytes(breakdown.totalBytes)} of state by operator → state → subtask, from <span className="mono">_metadata</span>&apos;s handles (no state
          read)
        </span>
      </header>
      <ul className="size-legend small" aria-label="Colours">
        {(Object.keys(KIND_LABEL) as (SizeKind | 'header')[]).map((k) => (
          <li key={k}>
            <span className={`size-swatch size-${k}`} aria-hidden="true" /> {KIND_LABEL[k]}
          </li>
        ))}
        {anyShared ? (
          <li>
            <span className="size-swatch size-keyed shared" aria-hidden="true" /> shared by several states (the handles do not split it)
          </li>
        ) : null}
      </ul>
      <ol className="size-operators">
        {shown.map((op) => {
          const label = op.uid ?? op.name ?? `${op.operatorId.slice(0, 12)}…`;
          const parts = op.parts.slice(0, PARTS_SHOWN);
          const more = op.parts.slice(PARTS_SHOWN);
          return (
            <li key={op.operatorId} data-testid="size-operator">
              <div className="size-row size-op-row" title={`operator ${op.operatorId}: ${formatCount(op.bytes)} bytes`}>
                <span className="size-label">
                  <strong>{label}</strong>
                  {op.uid || op.name ? <span className="muted mono small"> {op.operatorId.slice(0, 8)}</span> : null}
                </span>
                <span className="size-track">
                  <span className="size-fill size-operator-fill" style={{ width: widthOf(op.bytes, scale) }} />
                </span>
                <span className="size-value mono">
                  {formatBytes(op.bytes)} <span className="muted">{percentOf(op.bytes, breakdown.totalBytes)}</span>
                </span>
              </div>
              <ol className="size-parts">
                {parts.map((p) => (
                  <PartRow key={`${p.scope}/${p.label}`} part={p} scale={scale} />
                ))}
                {more.length > 0 ? (
                  <li className="size-row muted small">
                    <span className="size-label">
                      {more.length} more part{more.length === 1 ? '' : 's'}
                    </span>
                    <span className="size-track" />
                    <span className="size-value mono">{formatBytes(more.reduce((s, p) => s + p.bytes, 0))}</span>
                  </li>
                ) : null}
              </ol>
              {op.keyGroups && op.keyGroups.withData > 1 ? (
                <p className="size-skew small" data-testid="size-key-groups">
                  Key groups: the largest, {op.keyGroups.largest.keyGroup}, holds {formatBytes(op.keyGroups.largest.bytes)} —{' '}
                  <strong className={op.keyGroups.skew >= 4 ? 'error-text' : undefined}>{formatRatio(op.keyGroups.skew)} the median</strong> (
                  {formatBytes(Math.round(op.keyGroups.median))}) of {formatCount(op.keyGroups.withData)} key groups with data
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      {rest.length > 0 ? (
        <p className="muted small">
          {rest.length} more operator{rest.length === 1 ? '' : 's'}, {formatBytes(rest.reduce((s, o) => s + o.bytes, 0))} together (the table below lists them
          all)
        </p>
      ) : null}
    </section>
  );
}

function PartRow({ part, scale }: { part: SizePart; scale: number }) {
  const kind = part.attribution === 'header' ? 'header' : part.kind;
  const shared = part.attribution === 'shared';
  const what = shared
    ? `shared by ${part.states.join(', ')}`
    : part.attribution === 'header'
      ? `the header of the stream of ${part.states.join(', ')}`
      : KIND_LABEL[kind];
  return (
    <li className="size-row" data-testid="size-part" data-kind={kind} data-attribution={part.attribution}>
      <span className="size-label" title={what}>
        {part.label}
        {shared ? null : <span className="muted small"> · {KIND_LABEL[kind]}</span>}
      </span>
      <span className="size-track" role="presentation">
        {part.subtasks.length > 0 ? (
          part.subtasks.map((t) => (
            <span
              key={t.subtask}
              className={`size-fill size-${kind}${shared ? ' shared' : ''}`}
              style={{ width: widthOf(t.bytes, scale) }}
              title={`subtask ${t.subtask}: ${formatBytes(t.bytes)}`}
            />
          ))
        ) : (
          <span className={`size-fill size-${kind}`} style={{ width: widthOf(part.bytes, scale) }} title={formatBytes(part.bytes)} />
        )}
      </span>
      <span className="size-value mono">
        {formatBytes(part.bytes)}
        {part.subtasks.length > 1 ? <span className="muted small"> · {part.subtasks.length} subtasks</span> : null}
      </span>
    </li>
  );
}

function widthOf(bytes: number, scale: number): string {
  return `${Math.max(0, Math.min(100, (bytes / scale) * 100)).toFixed(2)}%`;
}

function percentOf(n: number, total: number): string {
  return total > 0 ? `${((n / total) * 100).toFixed(1)}%` : '';
}

function formatRatio(r: number): string {
  return `${r.toFixed(r >= 10 ? 0 : 1)}×`;
}
