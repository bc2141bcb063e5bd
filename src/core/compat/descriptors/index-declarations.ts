/**
 * Indexes the messages and enums of a descriptor set by full name (no leading dot), with their
 * declaring file and enclosing messages, so the walk can resolve field type names in O(1).
 */
import type { DescriptorProto, EnumDescriptorProto, FileDescriptorProto, FileDescriptorSet } from '@bufbuild/protobuf/wkt';

interface DeclarationBase {
  fullName: string;
  file: FileDescriptorProto;
  /** enclosing messages, outermost first, with their full names */
  enclosing: { fullName: string; proto: DescriptorProto }[];
}
export interface MessageDeclaration extends DeclarationBase {
  kind: 'message';
  proto: DescriptorProto;
}
export interface EnumDeclaration extends DeclarationBase {
  kind: 'enum';
  proto: EnumDescriptorProto;
}
export type Declaration = MessageDeclaration | EnumDeclaration;

export interface DeclarationIndex {
  /** the indexed set */
  set: FileDescriptorSet;
  byName: ReadonlyMap<string, Declaration>;
  /** all declarations in file order, depth first */
  all: readonly Declaration[];
}

const MAX_NESTING = 200;

const indexes = new WeakMap<FileDescriptorSet, DeclarationIndex>();

/** Remembered per set object (descriptor sets are not mutated once loaded), so each set is indexed once per check. */
export function indexDeclarations(set: FileDescriptorSet): DeclarationIndex {
  const cached = indexes.get(set);
  if (cached !== undefined) return cached;
  const index = buildIndex(set);
  indexes.set(set, index);
  return index;
}

function buildIndex(set: FileDescriptorSet): DeclarationIndex {
  const byName = new Map<string, Declaration>();
  const all: Declaration[] = [];
  const add = (d: Declaration): void => {
    if (!byName.has(d.fullName)) byName.set(d.fullName, d);
    all.push(d);
  };
  const visit = (file: FileDescriptorProto, prefix: string, enclosing: MessageDeclaration['enclosing'], message: DescriptorProto): void => {
    if (enclosing.length > MAX_NESTING) throw new Error(`Messages nest deeper than ${MAX_NESTING} in ${file.name}`);
    const fullName = prefix + message.name;
    add({ kind: 'message', fullName, file, enclosing, proto: message });
    const inner = [...enclosing, { fullName, proto: message }];
    for (const e of message.enumType) add({ kind: 'enum', fullName: `${fullName}.${e.name}`, file, enclosing: inner, proto: e });
    for (const nested of message.nestedType) visit(file, `${fullName}.`, inner, nested);
  };
  for (const file of set.file) {
    const prefix = file.package ? `${file.package}.` : '';
    for (const e of file.enumType) add({ kind: 'enum', fullName: prefix + e.name, file, enclosing: [], proto: e });
    for (const m of file.messageType) visit(file, prefix, [], m);
  }
  return { set, byName, all };
}

/** A field's type_name as a full name: protoc and generated code write `.pkg.Type`. */
export function resolveTypeName(typeName: string): string {
  return typeName.startsWith('.') ? typeName.slice(1) : typeName;
}
