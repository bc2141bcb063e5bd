import type { InspectedOperator, InspectedState } from '../../core/flink';

/** A state's SQL table name: `<operator uid or id prefix>__<state>`, letters, digits and `_` only (so no quoting is needed). */
export function nameStateTable(op: InspectedOperator, state: InspectedState): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_]/g, '_');
  const base = `${clean(op.uid ?? `op_${op.id.slice(0, 8)}`)}__${clean(state.name)}`;
  return /^[0-9]/.test(base) ? `t_${base}` : base;
}
