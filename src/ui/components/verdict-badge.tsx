import type { Verdict } from '../../core/compat';

/** A verdict in words (never the raw enum string). */
export const VERDICT_WORDS: Record<Verdict, string> = {
  compatible: 'compatible',
  incompatible: 'incompatible',
  'not-restorable': 'not restorable',
  unknown: 'unknown',
};

/** `label` replaces the verdict's words where they would mislead (a savepoint with nothing to check is not "unknown"). */
export function VerdictBadge({ verdict, large, label }: { verdict: Verdict; large?: boolean; label?: string | undefined }) {
  return (
    <span className={`verdict verdict-${verdict}${large ? ' large' : ''}`} data-testid="verdict" data-verdict={verdict}>
      {label ?? VERDICT_WORDS[verdict]}
    </span>
  );
}
