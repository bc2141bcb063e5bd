import { findOperator, type OpenedSavepoint, type OperatorState } from '../core/flink';
import { wrongInput } from '../core/io';

/** The operator with this id or uid, or a `not-found` UsageError naming the operators there are. */
export function requireOperator(opened: OpenedSavepoint, operatorId: string): OperatorState {
  const op = findOperator(opened, operatorId);
  if (!op) {
    throw wrongInput(
      'not-found',
      `expected an operator id or uid of this savepoint, found ${operatorId} (operators: ${opened.metadata.operators.map((o) => o.id).join(', ')})`,
    );
  }
  return op;
}
