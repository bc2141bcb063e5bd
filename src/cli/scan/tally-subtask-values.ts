/**
 * A value scan worker's share of `check`: evaluate the states as the main thread did, then tally
 * the value warnings of every Protobuf state for each of the given subtasks of its operator (one
 * pass per subtask over the operator's states), one tally per (state, subtask) so the main thread
 * can merge them in subtask order.
 */
import { createStateValueScanner, evaluateSavepointStates, groupStatesByOperator } from '../../core/report';
import { openNodeInput, type ReopenOptions } from '../sources';
import type { SubtaskValueTally, WorkerCheckInput } from './run-parallel-value-scan';
import type { ScanUnit } from './state-stats-types';

export async function tallySubtaskValues(
  input: string,
  check: WorkerCheckInput,
  units: readonly ScanUnit[],
  inputOptions: ReopenOptions = {},
): Promise<SubtaskValueTally[]> {
  const files = await openNodeInput(input, inputOptions);
  const evaluated = await evaluateSavepointStates({ ...check, files });
  const scanner = createStateValueScanner(evaluated);
  const byOperator = groupStatesByOperator(evaluated);
  const out: SubtaskValueTally[] = [];
  for (const unit of units) {
    // the operator's states in one pass over this subtask's streams
    const indexes = byOperator.get(unit.operatorId);
    if (indexes === undefined) continue;
    const tallies = await scanner.scanOperator(
      indexes.map((i) => evaluated.protobuf[i]!),
      [unit.subtask],
    );
    indexes.forEach((i, k) => {
      const state = evaluated.protobuf[i]!;
      out.push({ state: i, operatorId: state.found.operator.id, stateName: state.found.state.name, subtask: unit.subtask, result: tallies[k] });
    });
  }
  return out;
}
