/**
 * The CI conditions of `diff`: `--fail-on-growth` (a state's bytes grew by more than the ratio: each operator
 * or broadcast state, the keyed state of each operator taken together, and with values each keyed state's
 * value bytes; from nothing counts as growth), `--fail-on-removed-state` (a state of a matched operator, or an
 * operator holding state, is gone). Two savepoints with no operator in common always fail (nothing could be
 * compared); with a condition asked for, so does any part that could not be compared (a gate never passes
 * on state it could not check).
 */
import type { Change, DiffFailure, SavepointDiff } from './savepoint-diff-types';

export interface DiffFailOptions {
  /** ratio: 0.5 for `--fail-on-growth 50%` */
  growth?: number;
  removedState?: boolean;
}

export function evaluateDiffFailures(diff: SavepointDiff, options: DiffFailOptions): DiffFailure[] {
  const failures: DiffFailure[] = [];
  if (diff.relation === 'different-jobs')
    failures.push({ condition: 'different-jobs', message: 'no operator holding state is in both savepoints: nothing could be compared' });
  const limit = options.growth;
  if (limit !== undefined) {
    const over = (c: Change | undefined) => c !== undefined && c.newer > c.older && (c.growth === null || c.growth > limit);
    for (const op of diff.operators) {
      const who = describeOperatorName(op.newer);
      if (over(op.keyedSize)) failures.push({ condition: 'growth', message: `keyed state of ${who} grew ${describeChange(op.keyedSize!)}` });
      for (const s of op.states) {
        if (over(s.size)) failures.push({ condition: 'growth', message: `state ${s.name} of ${who} grew ${describeChange(s.size!)}` });
        else if (s.scope === 'keyed' && over(s.values?.valueBytes))
          failures.push({ condition: 'growth', message: `value bytes of state ${s.name} of ${who} grew ${describeChange(s.values!.valueBytes)}` });
      }
    }
  }
  if (options.removedState === true) {
    for (const op of diff.operators)
      for (const s of op.statesRemoved) failures.push({ condition: 'removed-state', message: `state ${s} of ${describeOperatorName(op.older)} was removed` });
    for (const op of diff.operatorsRemoved)
      failures.push({ condition: 'removed-state', message: `operator ${describeOperatorName(op)} and its ${op.states.length} state(s) were removed` });
  }
  if ((limit !== undefined || options.removedState === true) && diff.notCompared.length > 0)
    failures.push({ condition: 'not-compared', message: `${diff.notCompared.length} part(s) of the savepoints could not be compared (listed above)` });
  return failures;
}

export function describeOperatorName(op: { id: string; uid?: string; name?: string }): string {
  return op.uid ? `uid ${op.uid}` : op.name ? `"${op.name}" (${op.id})` : op.id;
}

/** `4.0 KiB → 6.5 KiB (+62.5%)` */
export function describeChange(c: Change, unit: 'bytes' | 'count' = 'bytes'): string {
  const f = unit === 'bytes' ? formatSize : String;
  return `${f(c.older)} → ${f(c.newer)} (${describeGrowth(c)})`;
}

export function describeGrowth(c: Change): string {
  if (c.growth === null) return 'new';
  if (c.growth === 0) return c.older === c.newer ? 'same' : '±0%';
  const pct = Math.round(c.growth * 1000) / 10;
  return `${pct > 0 ? '+' : ''}${pct}%`;
}

export function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}
