import type { InspectorProgress } from '../../worker';
import { formatBytes } from '../format';

const PHASE_LABELS: Record<InspectorProgress['phase'], string> = {
  hashing: 'Hashing input',
  opening: 'Opening input',
  'reading-metadata': 'Reading _metadata',
  'reading-state-headers': 'Reading state files',
  'scanning-values': 'Scanning values',
  evaluating: 'Evaluating compatibility',
  'building-report': 'Building report',
};

/**
 * The running step's bar with Cancel. `what`: the step as its caller names it ("Loading rules"), shown
 * before and beside the worker's phase, so the bar and the text never say two things. `inline`: drawn
 * in a view's flow (the Query view) rather than over the top of the page's main area.
 */
export function ProgressBar({
  progress,
  onCancel,
  what,
  inline = false,
}: {
  progress: InspectorProgress | null;
  onCancel: () => void;
  what?: string;
  inline?: boolean;
}) {
  const total = progress?.bytesTotal ?? 0;
  const read = progress?.bytesRead ?? 0;
  const pct = total > 0 ? Math.min(100, (read / total) * 100) : undefined;
  const phase = progress ? PHASE_LABELS[progress.phase] : undefined;
  const label = what ?? phase ?? 'Starting';
  return (
    <div className={`progress${inline ? ' inline' : ''}`} role="status" aria-live="polite" data-testid="progress">
      <div className="progress-text">
        <span className="progress-phase">{label}</span>
        {what !== undefined && phase !== undefined ? <span className="progress-detail">{phase}</span> : null}
        {progress?.detail ? <span className="progress-detail mono">{progress.detail}</span> : null}
        <span className="progress-bytes mono">{total > 0 ? `${formatBytes(read)} / ${formatBytes(total)}` : read > 0 ? formatBytes(read) : ''}</span>
        <button type="button" className="btn small" onClick={onCancel} aria-label="Cancel the running step">
          Cancel
        </button>
      </div>
      <div
        className={`progress-track${pct === undefined ? ' indeterminate' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct === undefined ? undefined : Math.round(pct)}
      >
        <div className="progress-fill" style={{ width: pct === undefined ? '30%' : `${pct}%` }} />
      </div>
    </div>
  );
}
