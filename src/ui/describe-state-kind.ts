import type { InspectedState } from '../core/flink';

/**
 * A state's kind in one phrase, its scope said once: "keyed value", "operator list", "union list",
 * "broadcast" — never the scope and Flink's kind constant side by side ("broadcast BROADCAST").
 */
export function describeStateKind(state: Pick<InspectedState, 'scope' | 'kind'>): string {
  if (state.kind === 'UNKNOWN') return `${state.scope} state (kind not recorded)`;
  if (state.kind === 'OPERATOR_UNION') return 'union list';
  const words = state.kind.toLowerCase().split('_');
  if (words[0] === state.scope) words.shift();
  return [state.scope, ...words].join(' ');
}
