/**
 * The (operator, subtask) units a scan of these operators works on: the subtasks of the operator that
 * every read of the id finds (findOperator: the first one listed with it), once each, sized from the
 * savepoint's totals for balancing the workers. `_metadata` may list an id twice; a subtask listed
 * twice would be scanned, and its entries counted, twice.
 */
import { findOperator, type OpenedSavepoint } from '../../core/flink';
import type { ScanUnit } from './state-stats-types';

export function listScanUnits(opened: OpenedSavepoint, operatorIds: Iterable<string>): ScanUnit[] {
  const units: ScanUnit[] = [];
  for (const id of new Set(operatorIds)) {
    const op = findOperator(opened, id);
    if (op === undefined) continue;
    const sizes = new Map(opened.totals.operators[opened.metadata.operators.indexOf(op)]?.subtasks.map((t) => [t.index, t.stateSize]));
    for (const s of op.subtasks) units.push({ operatorId: id, subtask: s.index, bytes: sizes.get(s.index) ?? 0 });
  }
  return units;
}
