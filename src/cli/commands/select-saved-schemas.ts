/**
 * Which saved schemas an `export-schema` selection names: operator by id (any case), stored uid or
 * uid hashed to an id (as `dump` finds operators), state by name, serializer role, root message.
 */
import type { SavedSchema } from '../../core/compat';
import { computeOperatorId } from '../../core/flink';

export interface SavedSchemaSelection {
  operator?: string;
  state?: string;
  role?: string;
  root?: string;
}

export type SelectedSavedSchemas =
  | { kind: 'none' }
  /** one saved schema, held by every selected state */
  | { kind: 'one'; schema: SavedSchema; states: SavedSchema[] }
  | { kind: 'several'; states: SavedSchema[]; schemas: number };

export function selectSavedSchemas(all: readonly SavedSchema[], selection: SavedSchemaSelection): SelectedSavedSchemas {
  const { operator, state, role, root } = selection;
  const hashed = operator === undefined ? undefined : computeOperatorId(operator);
  const states = all.filter(
    (s) =>
      (operator === undefined || s.operatorId === operator.toLowerCase() || s.operatorUid === operator || s.operatorId === hashed) &&
      (state === undefined || s.state === state) &&
      (role === undefined || s.role === role) &&
      (root === undefined || s.rootFullName === root),
  );
  if (states.length === 0) return { kind: 'none' };
  const schemas = new Set(states.map((s) => s.descriptorSha256)).size;
  return schemas === 1 ? { kind: 'one', schema: states[0]!, states } : { kind: 'several', states, schemas };
}
