export interface Bar {
  label: string;
  value: number;
  /** tooltip */
  title?: string;
  tone?: 'default' | 'warn' | 'bad' | 'ok';
}

/**
 * Vertical bars drawn as SVG, with a value scale and optional vertical marker line between bars
 * (e.g. the 4 KiB aliasing threshold): `markerAfter` is the index of the bar left of the marker.
 */
export function BarChart({
  bars,
  height = 160,
  formatValue = String,
  markerAfter,
  markerLabel,
  ariaLabel,
}: {
  bars: readonly Bar[];
  height?: number;
  formatValue?: (v: number) => string;
  markerAfter?: number;
  markerLabel?: string;
  ariaLabel: string;
}) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = Math.max(14, Math.min(48, Math.floor(880 / Math.max(1, bars.length))));
  const left = 44;
  const top = 16;
  const plotH = height - 40;
  const width = left + bars.length * slot + 8;
  const ticks = max <= 4 ? Array.from({ length: max + 1 }, (_, i) => i) : [...new Set([0, Math.round(max / 2), max])];
  const labelEvery = Math.ceil(bars.length / 24);
  return (
    <svg className="chart" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={ariaLabel} data-testid="bar-chart">
      {ticks.map((t) => {
        const y = top + plotH - (t / max) * plotH;
        return (
          <g key={t}>
            <line x1={left} x2={width - 4} y1={y} y2={y} className="grid-line" />
            <text x={left - 6} y={y + 4} className="axis" textAnchor="end">
              {formatValue(t)}
            </text>
          </g>
        );
      })}
      {bars.map((b, i) => {
        const h = (b.value / max) * plotH;
        const x = left + i * slot + 2;
        return (
          <g key={i}>
            <rect x={x} y={top + plotH - h} width={slot - 4} height={Math.max(h, b.value > 0 ? 1 : 0)} className={`bar bar-${b.tone ?? 'default'}`}>
              <title>{b.title ?? `${b.label}: ${formatValue(b.value)}`}</title>
            </rect>
            {i % labelEvery === 0 ? (
              <text x={x + (slot - 4) / 2} y={top + plotH + 14} className="axis" textAnchor="middle">
                {b.label}
              </text>
            ) : null}
          </g>
        );
      })}
      {markerAfter !== undefined ? (
        <g>
          <line x1={left + (markerAfter + 1) * slot} x2={left + (markerAfter + 1) * slot} y1={top - 6} y2={top + plotH} className="marker" />
          {markerLabel ? (
            <text x={left + (markerAfter + 1) * slot + 4} y={top + 4} className="marker-label">
              {markerLabel}
            </text>
          ) : null}
        </g>
      ) : null}
    </svg>
  );
}

/** Horizontal comparison bars (e.g. memory with aliasing on vs off). */
export function CompareBars({
  rows,
  formatValue,
  ariaLabel,
}: {
  rows: readonly { label: string; value: number; tone?: Bar['tone'] }[];
  formatValue: (v: number) => string;
  ariaLabel: string;
}) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <div className="compare-bars" role="img" aria-label={ariaLabel}>
      {rows.map((r) => (
        <div className="compare-row" key={r.label}>
          <span className="compare-label">{r.label}</span>
          <span className="compare-track">
            <span className={`compare-fill bar-${r.tone ?? 'default'}`} style={{ width: `${(r.value / max) * 100}%` }} />
          </span>
          <span className="compare-value mono">{formatValue(r.value)}</span>
        </div>
      ))}
    </div>
  );
}
