/**
 * An input that holds several savepoints (a folder or archive with several `_metadata` files) is never read
 * as whichever comes first: the worker refuses it (UsageError `several-savepoints`, with the candidates) and
 * this panel lets the user pick the one to open.
 */
export function SavepointPicker({
  candidates,
  onPick,
  onDismiss,
}: {
  candidates: readonly string[];
  onPick: (metadataPath: string) => void;
  onDismiss: () => void;
}) {
  return (
    <section className="failure failure-input savepoint-picker" aria-labelledby="savepoint-picker-title" data-testid="savepoint-picker">
      <header>
        <strong id="savepoint-picker-title">Pick one savepoint</strong>
        <button type="button" className="btn small ghost" onClick={onDismiss} aria-label="Dismiss this message">
          ✕
        </button>
      </header>
      <p className="failure-message">
        This input holds {candidates.length} savepoints or checkpoints (one <span className="mono">_metadata</span> file each). Nothing was opened: choose the
        one to inspect.
      </p>
      <ul className="savepoint-candidates">
        {candidates.map((c) => (
          <li key={c}>
            <button type="button" className="btn small mono" onClick={() => onPick(c)} data-testid="savepoint-candidate">
              {c}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
