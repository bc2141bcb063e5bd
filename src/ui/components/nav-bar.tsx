import { VIEWS, formatHashRoute, type ViewId } from '../state/use-hash-route';

export function NavBar({ current, params }: { current: ViewId; params: Record<string, string> }) {
  // keep the selected operator/state when switching views, so a link stays meaningful
  const keep = { op: params.op, state: params.state };
  return (
    <nav className="nav" aria-label="Views">
      <ul>
        {VIEWS.map((v) => (
          <li key={v.id}>
            <a
              href={formatHashRoute(v.id, keep)}
              className={v.id === current ? 'active' : undefined}
              aria-current={v.id === current ? 'page' : undefined}
              data-testid={`nav-${v.id}`}
            >
              <span className="nav-key mono" aria-hidden="true">
                {v.key}
              </span>
              {v.label}
            </a>
          </li>
        ))}
      </ul>
      <p className="nav-note">Everything is decoded in this browser tab. Nothing is uploaded.</p>
    </nav>
  );
}
