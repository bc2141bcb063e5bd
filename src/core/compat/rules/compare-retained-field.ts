/**
 * The retained-field rules, in the table's order: type, type name,
 * cardinality, presence, oneof, name, default, json_name, options, then any other difference.
 */
import { FieldDescriptorProtoSchema, FieldOptionsSchema, type FieldDescriptorProto } from '@bufbuild/protobuf/wkt';
import { copyDescriptorMessage } from '../descriptors/copy-descriptor-message';
import { describeMessageChanges } from './describe-message-changes';
import {
  describeCardinality,
  describeFieldType,
  describeOneof,
  describeOptional,
  describePresence,
  isMapField,
  realOneofName,
} from './describe-descriptor-parts';
import { resolveTypeName } from '../descriptors/index-declarations';
import { isSet } from '../descriptors/normalize-for-comparison';
import { addFinding, type WalkContext } from './walk-context';

export interface FieldPair {
  message: string;
  saved: FieldDescriptorProto;
  next: FieldDescriptorProto;
  savedOneofs: readonly string[];
  nextOneofs: readonly string[];
}

export function compareRetainedField(ctx: WalkContext, pair: FieldPair): void {
  const { saved: s, next: n, message } = pair;
  const path = `${message}.${s.name} (${s.number})`;
  const base = { number: s.number, name: s.name, message };
  const typeChanged = s.type !== n.type;
  if (typeChanged) {
    addFinding(ctx, 'FIELD_TYPE_CHANGED', path, { ...base, from: describeFieldType(s), to: describeFieldType(n) });
  }
  const bothMaps = isMapField(s, ctx.saved) && isMapField(n, ctx.next);
  if (!typeChanged && !bothMaps && resolveTypeName(s.typeName) !== resolveTypeName(n.typeName)) {
    addFinding(ctx, 'FIELD_TYPE_NAME_CHANGED', path, { ...base, from: resolveTypeName(s.typeName), to: resolveTypeName(n.typeName) });
  }
  const fromCardinality = describeCardinality(s, ctx.saved);
  const toCardinality = describeCardinality(n, ctx.next);
  if (fromCardinality !== toCardinality) {
    addFinding(ctx, 'FIELD_CARDINALITY_CHANGED', path, { ...base, from: fromCardinality, to: toCardinality });
  }
  if (s.proto3Optional !== n.proto3Optional) {
    addFinding(ctx, 'FIELD_PRESENCE_CHANGED', path, { ...base, from: describePresence(s), to: describePresence(n) });
  }
  const fromOneof = realOneofName(s, pair.savedOneofs);
  const toOneof = realOneofName(n, pair.nextOneofs);
  if (fromOneof !== toOneof) {
    addFinding(ctx, 'FIELD_ONEOF_CHANGED', path, { ...base, from: describeOneof(fromOneof), to: describeOneof(toOneof) });
  }
  if (s.name !== n.name) addFinding(ctx, 'FIELD_RENAMED', path, { ...base, newName: n.name });
  const fromDefault = isSet(s, 'defaultValue') ? s.defaultValue : undefined;
  const toDefault = isSet(n, 'defaultValue') ? n.defaultValue : undefined;
  if (fromDefault !== toDefault) {
    addFinding(ctx, 'FIELD_DEFAULT_CHANGED', path, { ...base, from: describeOptional(fromDefault), to: describeOptional(toDefault) });
  }
  const fromJson = isSet(s, 'jsonName') ? s.jsonName : undefined;
  const toJson = isSet(n, 'jsonName') ? n.jsonName : undefined;
  if (fromJson !== toJson) {
    addFinding(ctx, 'FIELD_JSON_NAME_CHANGED', path, { ...base, from: describeOptional(fromJson), to: describeOptional(toJson) });
  }
  const optionChanges = describeMessageChanges(FieldOptionsSchema, s.options, n.options, ctx.options);
  if (optionChanges) addFinding(ctx, 'FIELD_OPTION_CHANGED', path, { ...base, changes: optionChanges });
  const rest = mayDifferElsewhere(s, n)
    ? describeMessageChanges(FieldDescriptorProtoSchema, remainder(s, fromCardinality !== toCardinality), remainder(n, fromCardinality !== toCardinality))
    : undefined;
  if (rest) addFinding(ctx, 'DECLARATION_CHANGED', path, { declaration: `Field ${s.number} (${s.name}) of ${message}`, what: rest });
}

/** Cheap pre-check of the attributes `remainder` keeps (label, extendee, unknown fields), so most fields skip the generic comparison. */
function mayDifferElsewhere(a: FieldDescriptorProto, b: FieldDescriptorProto): boolean {
  return a.label !== b.label || a.extendee !== b.extendee || (a.$unknown?.length ?? 0) > 0 || (b.$unknown?.length ?? 0) > 0;
}

/** The field without the attributes that the specific rules compare. */
function remainder(field: FieldDescriptorProto, cardinalityReported: boolean): FieldDescriptorProto {
  const copy = copyDescriptorMessage(field);
  const drop = ['name', 'number', 'type', 'typeName', 'oneofIndex', 'proto3Optional', 'defaultValue', 'jsonName', 'options'];
  if (cardinalityReported) drop.push('label');
  for (const key of drop) delete (copy as unknown as Record<string, unknown>)[key];
  return copy;
}
