import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, type MouseEvent } from 'react';
import { formatHex } from '../../worker';

export interface HexRange {
  offset: number;
  length: number;
  /** the decoded-tree path this range belongs to */
  path: string;
  known: boolean;
}

const ROW = 16;
/** px per line (the stylesheet's .hex line-height) */
const LINE_HEIGHT = 18;
/** lines drawn beyond the visible ones */
const OVERSCAN = 8;
/** Larger frames show their first bytes only; the tree and unknown-field list still cover all. */
export const MAX_HEX_BYTES = 64 * 1024;

/**
 * Hex dump of one value's frame, virtualized: only the lines in view are in the DOM (a 20 KB value is
 * about 40 lines, not 25,000 nodes), and one delegated hover handler serves every byte. Hovering a byte
 * reports the innermost field range that holds it (so the tree can highlight that field); bytes of the
 * hovered path are highlighted here.
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
    const order = ranges.map((r, i) => i).sort((a, b) => ranges[b]!.length - ranges[a]!.length);
    for (const i of order) {
      const r = ranges[i]!;
      own.fill(i, Math.max(0, r.offset), Math.min(shown.length, r.offset + r.length));
    }
    return own;
  }, [ranges, shown.length]);
  const lines = Math.ceil(shown.length / ROW);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: lines, getScrollElement: () => scrollRef.current, estimateSize: () => LINE_HEIGHT, overscan: OVERSCAN });
  const onOver = (e: MouseEvent<HTMLDivElement>) => {
    const at = (e.target as HTMLElement).dataset['offset'];
    if (at === undefined) return;
    const b = Number(at);
    const i = owner[b] ?? -1;
    onHoverPath(b < 4 || i < 0 ? null : ranges[i]!.path);
  };
  return (
    <div
      className="hex"
      role="table"
      aria-label="Value bytes"
      onMouseOver={onOver}
      onMouseLeave={() => onHoverPath(null)}
      data-testid="hex-view"
      ref={scrollRef}
    >
      <div className="hex-space" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <HexLine
            key={item.index}
            at={item.index * ROW}
            top={item.start}
            shown={shown}
            baseOffset={baseOffset}
            owner={owner}
            ranges={ranges}
            hoverPath={hoverPath}
          />
        ))}
      </div>
      {bytes.length > shown.length ? (
        <div className="muted small">
          showing the first {MAX_HEX_BYTES} of {bytes.length} bytes
        </div>
      ) : null}
    </div>
  );
}

/** One line: re-drawn only when the hover changes what it highlights. */
const HexLine = memo(function HexLine({
  at,
  top,
  shown,
  baseOffset,
  owner,
  ranges,
  hoverPath,
}: {
  at: number;
  top: number;
  shown: Uint8Array;
  baseOffset: number;
  owner: Int32Array;
  ranges: readonly HexRange[];
  hoverPath: string | null;
}) {
  const line = shown.subarray(at, at + ROW);
  const classOf = (b: number): string => {
    if (b < 4) return 'hx-frame';
    const i = owner[b] ?? -1;
    if (i < 0) return '';
    const r = ranges[i]!;
    const hot = hoverPath !== null && (r.path === hoverPath || r.path.startsWith(`${hoverPath}.`));
    return `${r.known ? 'hx-known' : 'hx-unknown'}${hot ? ' hx-hot' : ''}`;
  };
  return (
    <div className="hex-line" role="row" style={{ transform: `translateY(${top}px)` }}>
      <span className="hex-off">{(baseOffset + at).toString(16).padStart(8, '0')}</span>
      <span className="hex-bytes">
        {Array.from(line, (v, k) => {
          const b = at + k;
          const i = owner[b] ?? -1;
          return (
            <span
              key={k}
              className={`hx ${classOf(b)}`}
              data-offset={b}
              title={b < 4 ? 'frame length (4-byte big-endian)' : i >= 0 ? `${ranges[i]!.path} @ ${b}` : `byte ${b}`}
            >
              {formatHex([v])}
            </span>
          );
        })}
      </span>
      <span className="hex-ascii">{Array.from(line, (v) => (v >= 0x20 && v < 0x7f ? String.fromCharCode(v) : '·')).join('')}</span>
    </div>
  );
});
