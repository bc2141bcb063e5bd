import { useEffect, useRef } from 'react';
import { VIEWS } from '../state/use-hash-route';

/** The keyboard help (`?`): every key the app answers to. Esc or the button closes it; focus returns where it was. */
export function KeyboardHelp({ onClose }: { onClose: () => void }) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      before?.focus();
    };
  }, [onClose]);
  return (
    <div className="modal-backdrop" onClick={onClose}>
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="keyboard-help-title"
        data-testid="keyboard-help"
        onClick={(e) => e.stopPropagation()}
      >
        <header className="panel-head">
          <h2 id="keyboard-help-title">Keyboard</h2>
          <button type="button" className="btn small" onClick={onClose} ref={closeRef}>
            Close (Esc)
          </button>
        </header>
        <table className="grid">
          <tbody>
            {VIEWS.map((v) => (
              <tr key={v.id}>
                <td>
                  <kbd>{v.key}</kbd>
                </td>
                <td>{v.label}</td>
              </tr>
            ))}
            <tr>
              <td>
                <kbd>↑</kbd> <kbd>↓</kbd>
              </td>
              <td>move the selected entry in the Values table</td>
            </tr>
            <tr>
              <td>
                <kbd>?</kbd>
              </td>
              <td>this help</td>
            </tr>
            <tr>
              <td>
                <kbd>Esc</kbd>
              </td>
              <td>close this help</td>
            </tr>
          </tbody>
        </table>
      </div>
    </div>
  );
}
