/** One connector view's problem (ConnectorProblem), as the Kafka and the file connector readers report it. */
import type { DecodeError, DecodeErrorJson } from '../../io';
import type { ConnectorProblem } from '../savepoint/connector-types';

export function connectorProblem(
  kind: ConnectorProblem['kind'],
  state: string,
  subtask: number | null,
  element: number | null,
  message: string,
  error?: DecodeError,
): ConnectorProblem {
  return { kind, state, subtask, element, message, error: error ? (error.toJSON() as DecodeErrorJson) : null };
}
