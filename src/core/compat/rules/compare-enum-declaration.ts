/** Compares one reached enum pair: options, each saved value (removed, renamed, options), added values, order, reservations. */
import { EnumDescriptorProtoSchema, EnumOptionsSchema, EnumValueOptionsSchema, type EnumValueDescriptorProto } from '@bufbuild/protobuf/wkt';
import { copyDescriptorMessage } from '../descriptors/copy-descriptor-message';
import { compareReservations } from './compare-reservations';
import { describeMessageChanges } from './describe-message-changes';
import { describeOrderChange } from './describe-order-change';
import type { EnumDeclaration } from '../descriptors/index-declarations';
import { addFinding, type WalkContext } from './walk-context';

export function compareEnumDeclaration(ctx: WalkContext, saved: EnumDeclaration, next: EnumDeclaration): void {
  const e = saved.fullName;
  const optionChanges = describeMessageChanges(EnumOptionsSchema, saved.proto.options, next.proto.options, ctx.options);
  if (optionChanges) addFinding(ctx, 'ENUM_OPTION_CHANGED', e, { enum: e, changes: optionChanges });
  const used = new Set<EnumValueDescriptorProto>();
  const retained: [EnumValueDescriptorProto, EnumValueDescriptorProto][] = [];
  for (const s of saved.proto.value) {
    const path = `${e}.${s.name} (${s.number})`;
    const base = { number: s.number, name: s.name, enum: e };
    const sameNumber = next.proto.value.filter((v) => v.number === s.number && !used.has(v));
    const n = sameNumber.find((v) => v.name === s.name) ?? sameNumber[0];
    if (n === undefined) {
      addFinding(ctx, 'ENUM_VALUE_REMOVED', path, base);
      continue;
    }
    used.add(n);
    retained.push([s, n]);
    if (n.name !== s.name) addFinding(ctx, 'ENUM_VALUE_RENAMED', path, { ...base, newName: n.name });
    const changes = describeMessageChanges(EnumValueOptionsSchema, s.options, n.options, ctx.options);
    if (changes) addFinding(ctx, 'ENUM_VALUE_OPTION_CHANGED', path, { ...base, changes });
  }
  for (const n of next.proto.value) {
    if (!used.has(n)) addFinding(ctx, 'ENUM_VALUE_ADDED', `${e}.${n.name} (${n.number})`, { number: n.number, name: n.name, enum: e });
  }
  const savedOrder = retained.map(([s]) => s.name);
  const nextOrder = next.proto.value.filter((v) => used.has(v)).map((v) => retained.find(([, n]) => n === v)![0].name);
  const moves = describeOrderChange(savedOrder, nextOrder, (name) => name);
  if (moves) addFinding(ctx, 'ENUM_VALUE_ORDER_CHANGED', e, { enum: e, moves });
  compareReservations(
    ctx,
    e,
    { ranges: saved.proto.reservedRange, names: saved.proto.reservedName, endExclusive: false },
    { ranges: next.proto.reservedRange, names: next.proto.reservedName, endExclusive: false },
  );
  const rest = describeMessageChanges(EnumDescriptorProtoSchema, remainder(saved.proto), remainder(next.proto));
  if (rest) addFinding(ctx, 'DECLARATION_CHANGED', e, { declaration: `Enum ${e}`, what: rest });
}

function remainder(proto: EnumDeclaration['proto']): EnumDeclaration['proto'] {
  const copy = copyDescriptorMessage(proto);
  delete (copy as { name?: string }).name;
  copy.value = [];
  copy.reservedRange = [];
  copy.reservedName = [];
  delete (copy as { options?: unknown }).options;
  return copy;
}
