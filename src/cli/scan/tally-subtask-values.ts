/**
 * A value scan worker's share of `check`: evaluate the states as the main thread did, then tally
 * the value warnings of every Protobuf state for each of the given subtasks of its operator, one
 * tally per (state, subtask) so the main thread can merge them in subtask order.
 */
import { createStateValueScanner, evaluateSavepointStates } from '../../core/report';
import { openNodeInput } from '../sources';
import type { SubtaskValueTally, WorkerCheckInput } from './run-parallel-value-scan';
import type { ScanUnit } from './state-stats-types';

export async function tallySubtaskValues(input: string, check: WorkerCheckInput, units: readonly ScanUnit[]): Promise<SubtaskValueTally[]> {
  const files = await openNodeInput(input);
  const evaluated = await evaluateSavepointStates({ ...check, files });
  const scanner = await createStateValueScanner(files, evaluated);
  const out: SubtaskValueTally[] = [];
  for (const [i, state] of evaluated.protobuf.entries()) {
    const subtasks = units.filter((u) => u.operatorId === state.found.operator.id).map((u) => u.subtask).sort((a, b) => a - b);
    for (const subtask of subtasks) {
      out.push({ state: i, operatorId: state.found.operator.id, stateName: state.found.state.name, subtask, result: await scanner.scan(state, [subtask]) });
    }
  }
  return out;
}
