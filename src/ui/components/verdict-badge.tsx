import type { Verdict } from '../../core/compat';

const LABELS: Record<Verdict, string> = {
  compatible: 'compatible',
  incompatible: 'incompatible',
  'not-restorable': 'not restorable',
  unknown: 'unknown',
};

export function VerdictBadge({ verdict, large }: { verdict: Verdict; large?: boolean }) {
  return (
    <span className={`verdict verdict-${verdict}${large ? ' large' : ''}`} data-testid="verdict" data-verdict={verdict}>
      {LABELS[verdict]}
    </span>
  );
}
