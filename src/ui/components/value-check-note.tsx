import { formatBytes } from '../format';
import type { CheckResult } from '../state/use-check';

/**
 * Where the value warnings stand: the verdicts come from the headers at once; the value warnings
 * need a scan of every value, run at once for small savepoints and on request for large ones.
 */
export function ValueCheckNote({ values }: { values: CheckResult['values'] }) {
  if (values.status === 'done') return null;
  return (
    <div className="notice value-check" data-testid="value-check-note" data-status={values.status}>
      {values.status === 'running' ? (
        <span>Verdicts from _metadata and the state headers. Scanning every value for the value warnings… (Cancel stops it.)</span>
      ) : (
        <>
          <span>
            Verdicts from _metadata and the state headers only.{' '}
            {values.status === 'failed'
              ? 'The value scan failed or was cancelled.'
              : `The value warnings need a scan of every value (${formatBytes(values.savepointBytes)}).`}
          </span>{' '}
          <button type="button" className="btn small" onClick={values.request} data-testid="scan-values-check">
            {values.status === 'failed' ? 'Scan values again' : 'Scan values'}
          </button>
        </>
      )}
    </div>
  );
}
