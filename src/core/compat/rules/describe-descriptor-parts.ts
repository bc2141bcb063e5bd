/** Readable names for descriptor parts used in messages: types, cardinality, syntax, ranges. */
import { Edition, FieldDescriptorProto_Label, FieldDescriptorProto_Type, type FieldDescriptorProto, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { isSet } from '../descriptors/normalize-for-comparison';
import { resolveTypeName, type DeclarationIndex } from '../descriptors/index-declarations';

export const MAX_FIELD_NUMBER = 536_870_911;

/** `INT32`, `SINT32`, `MESSAGE` … as in the serializer's messages. */
export function describeFieldType(field: FieldDescriptorProto): string {
  const name = FieldDescriptorProto_Type[field.type];
  return name ? name.replace(/^TYPE_/, '') : `type ${field.type}`;
}

export function isMapField(field: FieldDescriptorProto, index: DeclarationIndex): boolean {
  if (field.label !== FieldDescriptorProto_Label.REPEATED || field.type !== FieldDescriptorProto_Type.MESSAGE) return false;
  const decl = index.byName.get(resolveTypeName(field.typeName));
  return decl?.kind === 'message' && decl.proto.options?.mapEntry === true;
}

export function describeCardinality(field: FieldDescriptorProto, index: DeclarationIndex): 'singular' | 'repeated' | 'map' {
  if (field.label !== FieldDescriptorProto_Label.REPEATED) return 'singular';
  return isMapField(field, index) ? 'map' : 'repeated';
}

export function describePresence(field: FieldDescriptorProto): string {
  return field.proto3Optional ? 'explicit (optional)' : 'implicit';
}

/** The name of the real (non-synthetic) oneof a field belongs to, or undefined. */
export function realOneofName(field: FieldDescriptorProto, oneofNames: readonly string[]): string | undefined {
  if (field.proto3Optional || !isSet(field, 'oneofIndex')) return undefined;
  return oneofNames[field.oneofIndex] ?? `#${field.oneofIndex}`;
}

export function describeOneof(name: string | undefined): string {
  return name === undefined ? 'no oneof' : `oneof ${name}`;
}

export function describeSyntax(file: FileDescriptorProto): string {
  if (file.syntax === 'editions') return `editions (${Edition[file.edition] ?? String(file.edition)})`;
  return file.syntax === '' ? 'proto2' : file.syntax;
}

/** `5`, `5 to 7`, `5 to max` from a [start, end) range (exclusive: messages) or [start, end] (enums). */
export function describeRange(start: number, end: number, endExclusive: boolean): string {
  const last = endExclusive ? end - 1 : end;
  if (last === start) return String(start);
  const lastText = endExclusive && end > MAX_FIELD_NUMBER ? 'max' : !endExclusive && end === 2147483647 ? 'max' : String(last);
  return `${start} to ${lastText}`;
}

export function describeOptional(value: string | undefined): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}
