import { useMemo } from 'react';

export interface HexRange {
  offset: number;
  length: number;
  /** the decoded-tree path this range belongs to */
  path: string;
  known: boolean;
}

const ROW = 16;
/** Larger frames show their first bytes only; the tree and unknown-field list still cover all. */
export const MAX_HEX_BYTES = 64 * 1024;

/**
 * Hex dump of one value's frame. Hovering a byte reports the innermost field range that holds it
 * (so the tree can highlight that field); bytes of the hovered path are highlighted here.
 */
export function HexView({
  bytes,
  baseOffset,
  ranges,
  hoverPath,
  onHoverPath,
}: {
  bytes: Uint8Array;
  baseOffset: number;
  ranges: readonly HexRange[];
  hoverPath: string | null;
  onHoverPath: (path: string | null) => void;
}) {
  const shown = bytes.length > MAX_HEX_BYTES ? bytes.subarray(0, MAX_HEX_BYTES) : bytes;
  // per byte: index of the innermost range (smallest) that contains it, -1 for none
  const owner = useMemo(() => {
    const own = new Int32Array(shown.length).fill(-1);
    const order = ranges.map((r, i) => i).sort((a, b) => ranges[b].length - ranges[a].length);
    for (const i of order) {
      const r = ranges[i];
      for (let b = Math.max(0, r.offset); b < Math.min(shown.length, r.offset + r.length); b++) own[b] = i;
    }
    return own;
  }, [ranges, shown.length]);
  const lines: number[] = [];
  for (let at = 0; at < shown.length; at += ROW) lines.push(at);
  const classOf = (b: number): string => {
    if (b < 4) return 'hx-frame';
    const i = owner[b];
    if (i < 0) return '';
    const r = ranges[i];
    const hot = hoverPath !== null && (r.path === hoverPath || r.path.startsWith(`${hoverPath}.`));
    return `${r.known ? 'hx-known' : 'hx-unknown'}${hot ? ' hx-hot' : ''}`;
  };
  return (
    <div className="hex" role="table" aria-label="Value bytes" onMouseLeave={() => onHoverPath(null)} data-testid="hex-view">
      {lines.map((at) => (
        <div className="hex-line" role="row" key={at}>
          <span className="hex-off">{(baseOffset + at).toString(16).padStart(8, '0')}</span>
          <span className="hex-bytes">
            {Array.from(shown.subarray(at, at + ROW), (v, k) => {
              const b = at + k;
              const i = owner[b];
              return (
                <span
                  key={k}
                  className={`hx ${classOf(b)}`}
                  data-offset={b}
                  title={b < 4 ? 'frame length (4-byte big-endian)' : i >= 0 ? `${ranges[i].path} @ ${b}` : `byte ${b}`}
                  onMouseEnter={() => onHoverPath(b < 4 || i < 0 ? null : ranges[i].path)}
                >
                  {v.toString(16).padStart(2, '0')}
                </span>
              );
            })}
          </span>
          <span className="hex-ascii">
            {Array.from(shown.subarray(at, at + ROW), (v) => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '·')).join('')}
          </span>
        </div>
      ))}
      {bytes.length > shown.length ? <div className="muted small">showing the first {MAX_HEX_BYTES} of {bytes.length} bytes</div> : null}
    </div>
  );
}
