/**
 * What the new schema makes of an unknown field number of a saved message,
 * from a state's schema diff: read as the declared field (its type accepts the wire type, as
 * protobuf-java's parser merges it), still unknown because the declared field has another wire type,
 * or not declared at all. The app shows it next to the unknown fields a scan found.
 */
import { FieldDescriptorProto_Type } from '@bufbuild/protobuf/wkt';
import type { SchemaDiff } from './build-schema-diff';
import type { MemberSummary } from './describe-declaration-members';
import { acceptsWireTypeOf } from '../rules/evaluate-value-warnings';

export type NewDeclaration =
  /** the diff does not reach the message: nothing known */
  | { kind: 'unknown-message' }
  | { kind: 'undeclared' }
  | { kind: 'read-as'; name: string; type: string; label?: string }
  | { kind: 'wire-type-mismatch'; name: string; type: string; label?: string }
  /** declared, with a type number protobuf does not define (the diff shows `type <n>`) */
  | { kind: 'declared'; name: string; type: string; label?: string };

export function describeNewDeclaration(diff: SchemaDiff | undefined, message: string, number: number, wireType: number): NewDeclaration {
  if (!diff?.declarations.some((d) => d.kind === 'message' && d.savedName === message)) return { kind: 'unknown-message' };
  const field = findNewField(diff, message, number);
  if (!field?.name || !field.type) return { kind: 'undeclared' };
  const label = field.label && field.label !== 'singular' ? { label: field.label } : {};
  // the diff's type text is describeFieldType's: the type's name, then the message or enum name
  const type = FieldDescriptorProto_Type[field.type.split(' ')[0] as keyof typeof FieldDescriptorProto_Type];
  if (typeof type !== 'number') return { kind: 'declared', name: field.name, type: field.type, ...label };
  const accepted = acceptsWireTypeOf(type, field.label === 'repeated', wireType);
  return { kind: accepted ? 'read-as' : 'wire-type-mismatch', name: field.name, type: field.type, ...label };
}

/** The new side of field `number` of saved message `message` in a schema diff, as the diff shows it. */
export function findNewField(diff: SchemaDiff | undefined, message: string, number: string | number): MemberSummary | undefined {
  const decl = diff?.declarations.find((d) => d.kind === 'message' && d.savedName === message);
  return decl?.rows.find((r) => r.kind === 'field' && r.key === String(number))?.new;
}
