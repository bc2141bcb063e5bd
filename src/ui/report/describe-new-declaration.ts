/**
 * What the new schema makes of an unknown field number of a saved message:
 * read as a declared field (when the wire type fits, the core's acceptsWireType), still unknown
 * because the declared field has another wire type, or not declared at all.
 */
import { create } from '@bufbuild/protobuf';
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type, FieldDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { acceptsWireType } from '../../core/compat';
import type { ReportState } from '../../core/report';
import { findNewField } from './collect-value-alerts';

export type NewDeclaration =
  /** the diff does not reach the message: nothing known */
  | { kind: 'unknown-message' }
  | { kind: 'undeclared' }
  | { kind: 'read-as'; name: string; type: string; label?: string }
  | { kind: 'wire-type-mismatch'; name: string; type: string; label?: string }
  /** declared, with a type this UI cannot judge (a type number it does not know) */
  | { kind: 'declared'; name: string; type: string; label?: string };

export function describeNewDeclaration(state: ReportState, message: string, number: number, wireType: number): NewDeclaration {
  const decl = state.diff?.declarations.find((d) => d.kind === 'message' && d.savedName === message);
  if (!decl) return { kind: 'unknown-message' };
  const field = findNewField(state, message, number);
  if (!field?.name || !field.type) return { kind: 'undeclared' };
  const label = field.label && field.label !== 'singular' ? { label: field.label } : {};
  const typeName = field.type.split(' ')[0];
  const type = FieldDescriptorProto_Type[typeName as keyof typeof FieldDescriptorProto_Type];
  if (typeof type !== 'number') return { kind: 'declared', name: field.name, type: field.type, ...label };
  const proto = create(FieldDescriptorProtoSchema, {
    type,
    label: field.label === 'repeated' ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
  });
  return { kind: acceptsWireType(proto, wireType) ? 'read-as' : 'wire-type-mismatch', name: field.name, type: field.type, ...label };
}
