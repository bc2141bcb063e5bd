/** The value tallies of every evaluated Protobuf state, in order: one pass per operator over its streams. */
import type { EvaluatedSavepoint, StateValuesNotRead, StateValueTally, ValueScanner } from './check-savepoint-types';
import { createStateValueScanner, type StateValueScanner } from './create-state-value-scanner';

/** `check`'s value scan in this thread: the savepoint the evaluation opened, one operator after another. */
export const IN_THREAD_VALUE_SCANNER: ValueScanner = {
  scanValues: (evaluated, signal) => scanValuesByOperator(createStateValueScanner(evaluated, signal), evaluated),
};

export async function scanValuesByOperator(
  scanner: StateValueScanner,
  evaluated: EvaluatedSavepoint,
): Promise<(StateValueTally | StateValuesNotRead | undefined)[]> {
  const out = new Array<StateValueTally | StateValuesNotRead | undefined>(evaluated.protobuf.length);
  for (const indexes of groupStatesByOperator(evaluated).values()) {
    const tallies = await scanner.scanOperator(indexes.map((i) => evaluated.protobuf[i]!));
    indexes.forEach((i, k) => (out[i] = tallies[k]));
  }
  return out;
}

/** The indexes (in EvaluatedSavepoint.protobuf) of each operator's Protobuf states, by operator id, in first-seen order. */
export function groupStatesByOperator(evaluated: EvaluatedSavepoint): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  evaluated.protobuf.forEach((s, i) => groups.set(s.found.operator.id, [...(groups.get(s.found.operator.id) ?? []), i]));
  return groups;
}
