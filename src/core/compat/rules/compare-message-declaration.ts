/**
 * Compares one reached message pair in the rules' order: construction
 * (PAYLOAD_NOT_PROTO3), message options, each saved field (removal rules, then retained-field
 * rules), added fields, field order, reservations, oneofs and any other difference. Returns the
 * retained fields so the walk can recurse into their types.
 */
import { DescriptorProtoSchema, MessageOptionsSchema, OneofOptionsSchema, type FieldDescriptorProto } from '@bufbuild/protobuf/wkt';
import { copyDescriptorMessage } from '../descriptors/copy-descriptor-message';
import { checkPayloadProto3 } from './check-payload-proto3';
import { compareReservations, isNumberReserved, type Reservations } from './compare-reservations';
import { compareRetainedField } from './compare-retained-field';
import { describeMessageChanges } from './describe-message-changes';
import { describeOrderChange } from './describe-order-change';
import { describeFieldType, isMapField, realOneofName } from './describe-descriptor-parts';
import { resolveTypeName, type MessageDeclaration } from '../descriptors/index-declarations';
import { addFinding, type WalkContext } from './walk-context';

export interface RetainedField {
  saved: FieldDescriptorProto;
  next: FieldDescriptorProto;
}

export function compareMessageDeclaration(ctx: WalkContext, saved: MessageDeclaration, next: MessageDeclaration): RetainedField[] {
  const m = saved.fullName;
  const payloadProblems = checkPayloadProto3(ctx, next);
  const optionChanges = describeMessageChanges(MessageOptionsSchema, saved.proto.options, next.proto.options, ctx.options);
  if (optionChanges) addFinding(ctx, 'MESSAGE_OPTION_CHANGED', m, { message: m, changes: optionChanges });

  const savedOneofs = saved.proto.oneofDecl.map((o) => o.name);
  const nextOneofs = next.proto.oneofDecl.map((o) => o.name);
  const nextByNumber = new Map(next.proto.field.map((f) => [f.number, f]));
  const savedNumbers = new Set(saved.proto.field.map((f) => f.number));
  const nextReservations = reservationsOf(next.proto);
  const savedReservations = reservationsOf(saved.proto);
  const retained: RetainedField[] = [];
  for (const s of saved.proto.field) {
    const n = nextByNumber.get(s.number);
    const base = { number: s.number, name: s.name, message: m };
    const path = `${m}.${s.name} (${s.number})`;
    if (n === undefined) {
      const reserved = isNumberReserved(s.number, nextReservations);
      addFinding(ctx, reserved ? 'FIELD_REMOVED_RESERVED' : 'FIELD_REMOVED_UNRESERVED', path, base);
      continue;
    }
    if (isUnrelatedField(ctx, s, n)) {
      addFinding(ctx, 'FIELD_NUMBER_REUSED', path, { ...base, from: describeTypeOf(s), newName: n.name, to: describeTypeOf(n) });
      continue;
    }
    compareRetainedField(ctx, { message: m, saved: s, next: n, savedOneofs, nextOneofs });
    retained.push({ saved: s, next: n });
  }
  const retainedNumbers = new Set(retained.map((r) => r.saved.number));
  for (const n of next.proto.field) {
    if (savedNumbers.has(n.number)) continue;
    const reused = isNumberReserved(n.number, savedReservations);
    addFinding(ctx, reused ? 'RESERVED_NUMBER_REUSED' : 'FIELD_ADDED', `${m}.${n.name} (${n.number})`, { number: n.number, name: n.name, message: m });
  }
  const savedOrder = retained.map((r) => r.saved.number);
  const nextOrder = next.proto.field.filter((f) => retainedNumbers.has(f.number)).map((f) => f.number);
  const names = new Map(saved.proto.field.map((f) => [f.number, f.name]));
  const moves = describeOrderChange(savedOrder, nextOrder, (no) => `${no} (${names.get(no)})`);
  if (moves) addFinding(ctx, 'FIELD_ORDER_CHANGED', m, { message: m, moves });
  compareReservations(ctx, m, savedReservations, nextReservations);
  compareOneofs(ctx, saved, next, savedNumbers);

  const rest = describeMessageChanges(DescriptorProtoSchema, remainder(saved.proto, payloadProblems), remainder(next.proto, payloadProblems));
  if (rest) addFinding(ctx, 'DECLARATION_CHANGED', m, { declaration: `Message ${m}`, what: rest });
  return retained;
}

/**
 * A field at a saved number whose name and type (message/enum type name for those) both differ is another field,
 * not the saved one renamed and retyped: the saved field is removed and the new one takes its number. A map field
 * renamed is not one: its entry type follows its name and is compared as the field's entry.
 */
function isUnrelatedField(ctx: WalkContext, s: FieldDescriptorProto, n: FieldDescriptorProto): boolean {
  if (s.name === n.name) return false;
  if (isMapField(s, ctx.saved) && isMapField(n, ctx.next)) return false;
  return s.type !== n.type || resolveTypeName(s.typeName) !== resolveTypeName(n.typeName);
}

/** `INT32`, or the full name of a message or enum type. */
function describeTypeOf(field: FieldDescriptorProto): string {
  return field.typeName ? resolveTypeName(field.typeName) : describeFieldType(field);
}

function reservationsOf(proto: MessageDeclaration['proto']): Reservations {
  return { ranges: proto.reservedRange, names: proto.reservedName, endExclusive: true };
}

function compareOneofs(ctx: WalkContext, saved: MessageDeclaration, next: MessageDeclaration, savedNumbers: ReadonlySet<number>): void {
  const m = saved.fullName;
  const nextOneofNames = next.proto.oneofDecl.map((o) => o.name);
  const realMembers = (index: number): FieldDescriptorProto[] =>
    next.proto.field.filter((f) => realOneofName(f, nextOneofNames) !== undefined && f.oneofIndex === index);
  next.proto.oneofDecl.forEach((oneof, index) => {
    const members = realMembers(index);
    if (members.length === 0) return; // synthetic oneof of a proto3 optional field
    const savedOneof = saved.proto.oneofDecl.find((o) => o.name === oneof.name);
    if (savedOneof === undefined) {
      if (members.every((f) => !savedNumbers.has(f.number))) addFinding(ctx, 'ONEOF_ADDED', m, { name: oneof.name, message: m });
      return;
    }
    const changes = describeMessageChanges(OneofOptionsSchema, savedOneof.options, oneof.options, ctx.options);
    if (changes) addFinding(ctx, 'DECLARATION_CHANGED', m, { declaration: `Oneof ${oneof.name} of ${m}`, what: `options: ${changes}` });
  });
}

/** The message without the parts the specific rules compare (nested declarations are compared only when reached). */
function remainder(proto: MessageDeclaration['proto'], dropExtensions: boolean): MessageDeclaration['proto'] {
  const copy = copyDescriptorMessage(proto);
  delete (copy as { name?: string }).name;
  copy.field = [];
  copy.nestedType = [];
  copy.enumType = [];
  copy.reservedRange = [];
  copy.reservedName = [];
  copy.oneofDecl = [];
  delete (copy as { options?: unknown }).options;
  if (dropExtensions) {
    copy.extension = [];
    copy.extensionRange = [];
  }
  return copy;
}
