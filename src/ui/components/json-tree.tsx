import { useState } from 'react';

const MAX_DEPTH = 40;
/** strings longer than this are collapsed to their first LONG_TEXT_SHOWN characters */
const LONG_TEXT = 256;
const LONG_TEXT_SHOWN = 96;
const MAX_ITEMS = 200;

/**
 * A decoded value as a tree. Each field knows its path (`location.lat`); hovering it reports the
 * path so the hex view highlights its bytes, and the hovered path from the hex view is marked here.
 */
export function JsonTree({ value, hoverPath, onHoverPath }: { value: unknown; hoverPath: string | null; onHoverPath: (p: string | null) => void }) {
  return (
    <div className="json-tree mono" data-testid="json-tree" onMouseLeave={() => onHoverPath(null)}>
      <Node value={value} path="" depth={0} hoverPath={hoverPath} onHoverPath={onHoverPath} />
    </div>
  );
}

function Node({
  value,
  path,
  depth,
  hoverPath,
  onHoverPath,
}: {
  value: unknown;
  path: string;
  depth: number;
  hoverPath: string | null;
  onHoverPath: (p: string | null) => void;
}) {
  if (depth > MAX_DEPTH) return <span className="muted">…</span>;
  if (Array.isArray(value)) {
    return (
      <ul className="jt-list">
        {value.slice(0, MAX_ITEMS).map((v, i) => (
          <li key={i}>
            <span className="jt-index">[{i}]</span> <Node value={v} path={path} depth={depth + 1} hoverPath={hoverPath} onHoverPath={onHoverPath} />
          </li>
        ))}
        {value.length > MAX_ITEMS ? <li className="muted">… {value.length - MAX_ITEMS} more</li> : null}
      </ul>
    );
  }
  if (value !== null && typeof value === 'object') {
    return (
      <ul className="jt-object">
        {Object.entries(value as Record<string, unknown>).map(([k, v]) => {
          const p = path ? `${path}.${k}` : k;
          const hot = hoverPath !== null && (hoverPath === p || hoverPath.startsWith(`${p}.`));
          return (
            <li key={k}>
              <span
                className={`jt-key${hot ? ' hot' : ''}`}
                data-path={p}
                onMouseEnter={(e) => {
                  e.stopPropagation();
                  onHoverPath(p);
                }}
              >
                {k}
              </span>
              : <Node value={v} path={p} depth={depth + 1} hoverPath={hoverPath} onHoverPath={onHoverPath} />
            </li>
          );
        })}
      </ul>
    );
  }
  if (typeof value === 'string' && value.length > LONG_TEXT) return <LongText text={value} />;
  return <span className={`jt-${value === null ? 'null' : typeof value}`}>{typeof value === 'string' ? JSON.stringify(value) : String(value)}</span>;
}

/** A long string (a bytes field's base64, a big text) collapsed to its start, with its length and a way to see it all. */
function LongText({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <span className="jt-string jt-long" data-testid="jt-long">
      {open ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, LONG_TEXT_SHOWN)).slice(0, -1)}…"`}{' '}
      <button type="button" className="btn small link" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="jt-long-toggle">
        {open ? 'collapse' : `${text.length.toLocaleString('en-US')} characters: show all`}
      </button>
    </span>
  );
}
