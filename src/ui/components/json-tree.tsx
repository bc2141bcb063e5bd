const MAX_DEPTH = 40;
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

function Node({ value, path, depth, hoverPath, onHoverPath }: { value: unknown; path: string; depth: number; hoverPath: string | null; onHoverPath: (p: string | null) => void }) {
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
  return <span className={`jt-${value === null ? 'null' : typeof value}`}>{typeof value === 'string' ? JSON.stringify(value) : String(value)}</span>;
}
