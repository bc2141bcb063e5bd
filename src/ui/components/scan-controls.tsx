import type { StateSample } from '../../core/flink';
import type { StateStatsDetail as StateStats } from '../../worker';
import { formatBytes, formatCount } from '../format';
import { useAppStore } from '../state/app-store';
import { selectSample } from '../state/select-sample';

const CHOICES: { id: string; label: string; sample: StateSample | null }[] = [
  { id: 'all', label: 'all entries', sample: null },
  { id: 'kg-4', label: 'every 4th key group', sample: { kind: 'key-groups', every: 4 } },
  { id: 'kg-16', label: 'every 16th key group', sample: { kind: 'key-groups', every: 16 } },
  { id: 'first-1000', label: 'first 1,000 entries per state', sample: { kind: 'first-entries', count: 1000 } },
  { id: 'first-10000', label: 'first 10,000 entries per state', sample: { kind: 'first-entries', count: 10_000 } },
];

function choiceOf(sample: StateSample | null): string {
  return CHOICES.find((c) => JSON.stringify(c.sample) === JSON.stringify(sample))?.id ?? 'all';
}

/** What a scan read, next to its figures: "sampled: 16 of 128 key groups", "first 10,000 entries". */
export function describeScanCoverage(stats: Pick<StateStats, 'sample' | 'entries'>): string {
  const s = stats.sample;
  if (!s) return 'all entries';
  if (s.sample.kind === 'key-groups')
    return `sampled: ${formatCount(s.keyGroupsRead)} of ${formatCount(s.keyGroupsWithData)} key groups (every ${s.sample.every}th)`;
  return s.limited
    ? `first ${formatCount(s.sample.count)} entries`
    : `first ${formatCount(s.sample.count)} entries: the whole state (${formatCount(stats.entries)})`;
}

/** The scan mode (whole state or a sample) of the statistics views and the values table, and what the last scan covered. */
export function ScanControls({ stats }: { stats: StateStats | undefined }) {
  const sample = useAppStore((s) => s.sample);
  return (
    <div className="scan-controls" data-testid="scan-controls">
      <label>
        <span className="chip-label">read</span>{' '}
        <select
          value={choiceOf(sample)}
          onChange={(e) => selectSample(CHOICES.find((c) => c.id === e.currentTarget.value)?.sample ?? null)}
          aria-label="Read the whole state or a sample"
          data-testid="sample-select"
        >
          {CHOICES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {stats ? (
        <span className={`muted small${stats.sample ? ' sampled' : ''}`} data-testid="scan-coverage">
          {describeScanCoverage(stats)} · {formatCount(stats.entries)} entries · {formatBytes(stats.bytesRead)} read
        </span>
      ) : null}
    </div>
  );
}

/** A statistics view while its scan runs: the scan mode, and that the values are being scanned. */
export function ScanPending() {
  return (
    <>
      <ScanControls stats={undefined} />
      <p className="muted">Scanning values…</p>
    </>
  );
}
