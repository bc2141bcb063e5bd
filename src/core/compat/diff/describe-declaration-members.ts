/** Side-by-side rows of a message's or an enum's members, for the schema diff view. */
import {
  EnumOptionsSchema,
  EnumValueOptionsSchema,
  FieldOptionsSchema,
  MessageOptionsSchema,
  FieldDescriptorProto_Label,
  type FieldDescriptorProto,
} from '@bufbuild/protobuf/wkt';
import { describeFieldType, describeOptional, describeRange, realOneofName } from '../rules/describe-descriptor-parts';
import { flattenMessage, type OptionFinders } from '../rules/describe-message-changes';
import type { OptionExtensionFinder } from '../rules/find-option-extension';
import { haveSameContent } from '../rules/have-same-content';
import { resolveTypeName, type Declaration } from '../descriptors/index-declarations';
import { isSet } from '../descriptors/normalize-for-comparison';

/** One member as attribute → text; absent attributes are omitted. */
export type MemberSummary = Record<string, string>;

export interface MemberRow {
  kind: 'field' | 'enum-value' | 'reserved' | 'oneof' | 'options';
  /** stable key: field/value number, range text, oneof name, `options` */
  key: string;
  saved?: MemberSummary;
  new?: MemberSummary;
}

export function describeDeclarationMembers(saved: Declaration | undefined, next: Declaration | undefined, finders?: OptionFinders): MemberRow[] {
  const rows = new Map<string, MemberRow>();
  const put = (side: 'saved' | 'new', kind: MemberRow['kind'], key: string, summary: MemberSummary): void => {
    const id = `${kind}|${key}`;
    const row = rows.get(id) ?? { kind, key };
    row[side] = summary;
    rows.set(id, row);
  };
  // most reached declarations are unchanged: describe such a pair once and show the same summaries on both sides
  const same = saved !== undefined && next !== undefined && saved.kind === next.kind && haveSameContent(saved.proto, next.proto);
  for (const [side, decl] of [
    ['saved', saved],
    ['new', next],
  ] as const) {
    if (!decl) continue;
    const find = side === 'saved' ? finders?.saved : finders?.next;
    if (same && side === 'new') {
      for (const row of rows.values()) if (row.saved) row.new = row.saved;
      break;
    }
    const options = describeOptions(decl, find);
    if (options) put(side, 'options', 'options', { options });
    if (decl.kind === 'message') {
      const oneofs = decl.proto.oneofDecl.map((o) => o.name);
      for (const f of decl.proto.field) put(side, 'field', String(f.number), summarizeField(f, oneofs, find));
      for (const r of decl.proto.reservedRange) put(side, 'reserved', describeRange(r.start, r.end, true), { reserved: describeRange(r.start, r.end, true) });
      for (const o of decl.proto.oneofDecl) put(side, 'oneof', o.name, { oneof: o.name });
    } else {
      for (const v of decl.proto.value) {
        const opts = [...flattenMessage(EnumValueOptionsSchema, v.options, find)].map(([k, x]) => `${k}=${x}`).join(', ');
        const key = rows.has(`enum-value|${v.number}`) && rows.get(`enum-value|${v.number}`)![side] ? `${v.number} ${v.name}` : String(v.number);
        put(side, 'enum-value', key, { number: String(v.number), name: v.name, ...(opts ? { options: opts } : {}) });
      }
      for (const r of decl.proto.reservedRange) put(side, 'reserved', describeRange(r.start, r.end, false), { reserved: describeRange(r.start, r.end, false) });
    }
    for (const name of decl.proto.reservedName) put(side, 'reserved', JSON.stringify(name), { reserved: JSON.stringify(name) });
  }
  return [...rows.values()];
}

function summarizeField(f: FieldDescriptorProto, oneofs: readonly string[], find: OptionExtensionFinder | undefined): MemberSummary {
  const options = [...flattenMessage(FieldOptionsSchema, f.options, find)].map(([k, v]) => `${k}=${v}`).join(', ');
  const oneof = realOneofName(f, oneofs);
  return {
    number: String(f.number),
    name: f.name,
    type: f.typeName ? `${describeFieldType(f)} ${resolveTypeName(f.typeName)}` : describeFieldType(f),
    label:
      f.label === FieldDescriptorProto_Label.REPEATED
        ? 'repeated'
        : f.label === FieldDescriptorProto_Label.REQUIRED
          ? 'required'
          : f.proto3Optional
            ? 'optional'
            : 'singular',
    ...(oneof ? { oneof } : {}),
    ...(isSet(f, 'jsonName') ? { jsonName: describeOptional(f.jsonName) } : {}),
    ...(isSet(f, 'defaultValue') ? { default: describeOptional(f.defaultValue) } : {}),
    ...(options ? { options } : {}),
  };
}

function describeOptions(decl: Declaration, find: OptionExtensionFinder | undefined): string {
  const entries =
    decl.kind === 'message' ? flattenMessage(MessageOptionsSchema, decl.proto.options, find) : flattenMessage(EnumOptionsSchema, decl.proto.options, find);
  return [...entries].map(([k, v]) => `${k}=${v}`).join(', ');
}
