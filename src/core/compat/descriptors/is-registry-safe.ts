/**
 * Whether @bufbuild/protobuf's createFileRegistry surely accepts these files (in import order),
 * checked without building the registry. loadDescriptorSet builds that registry only to reject a
 * set it cannot resolve, with the library's own message; for a large set that construction is most
 * of the load (a DescField with closures per field, ~30 ms per 6,000 fields in a cold process), so
 * a set that passes this check skips it, and any other set still gets the registry and its message.
 *
 * Conservative by construction: it answers true only for sets within what the registry
 * (registry.js, 2.17.0) resolves without throwing — proto2/proto3 files, Protobuf identifiers as
 * names, every dependency earlier in the order, every message and enum field type resolving to a
 * declaration the registry holds at that point (a map entry only from a repeated field of its own
 * file, with exactly a scalar key and a singular value), oneof indexes in range, extensions (custom
 * options) of messages it holds, services whose methods take and return messages it holds, unique full
 * names of types, extensions and services — and false for everything it does not model
 * (editions, `features` options, the JSON-name option of enum values), which then go
 * through the registry. A property test holds it
 * to the registry over mutated sets (is-registry-safe.test.ts).
 */
import type { DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { resolveTypeName } from './index-declarations';

const IDENTIFIER = /^[A-Za-z0-9_]+$/;
// FieldDescriptorProto.Type / Label numbers
const TYPE_DOUBLE = 1;
const TYPE_FLOAT = 2;
const TYPE_GROUP = 10;
const TYPE_MESSAGE = 11;
const TYPE_BYTES = 12;
const TYPE_ENUM = 14;
const TYPE_MAX = 18;
const LABEL_REPEATED = 3;
/** extend EnumValueOptions { JsonEnumValueOptions json = 998; }, read by the registry from unknown fields */
const ENUM_VALUE_JSON_EXTENSION = 998;

type Kind = 'message' | 'map-entry' | 'enum' | 'extension' | 'service';

export function isRegistrySafe(orderedFiles: readonly FileDescriptorProto[]): boolean {
  // what the registry holds: declarations of the files added so far (map entries stay per file)
  const kinds = new Map<string, Kind>();
  /** the file declaring each map entry, by full name */
  const mapEntryFiles = new Map<string, FileDescriptorProto>();
  const seenFiles = new Set<string>();
  for (const file of orderedFiles) {
    if (file.syntax !== '' && file.syntax !== 'proto2' && file.syntax !== 'proto3') return false;
    if (file.options?.features) return false;
    for (const dep of file.dependency) if (!seenFiles.has(dep)) return false;
    const messages: { proto: DescriptorProto }[] = [];
    const extensions: FieldDescriptorProto[] = [];
    // the registry keeps extensions in the same name table as types: one named like a type hides it
    const addExtensions = (list: readonly FieldDescriptorProto[], scope: string): boolean => {
      for (const ext of list) {
        if (!declare(scope + ext.name, 'extension')) return false;
        extensions.push(ext);
      }
      return true;
    };
    const prefix = file.package ? `${file.package}.` : '';
    const declare = (fullName: string, kind: Kind): boolean => {
      if (kinds.has(fullName)) return false;
      kinds.set(fullName, kind);
      return true;
    };
    const addEnum = (e: EnumDescriptorProto, fullName: string): boolean => {
      if (!IDENTIFIER.test(e.name) || e.options?.features || !declare(fullName, 'enum')) return false;
      for (const v of e.value) {
        if (!IDENTIFIER.test(v.name) || v.options?.features) return false;
        if (v.options?.$unknown?.some((u) => u.no === ENUM_VALUE_JSON_EXTENSION)) return false;
      }
      return true;
    };
    const addMessage = (m: DescriptorProto, fullName: string, depth: number): boolean => {
      if (depth > 100 || !IDENTIFIER.test(m.name) || m.options?.features) return false;
      const mapEntry = m.options?.mapEntry === true;
      // a map entry as protoc writes it: key and value, nothing nested (the registry builds the entries' fields in
      // turn, so a map field inside an entry would look up another entry's fields before they exist)
      // (every entry is built, referenced or not: its key and value must have that shape, neither a map field itself)
      if (mapEntry && (m.nestedType.length > 0 || m.enumType.length > 0 || m.oneofDecl.length > 0 || m.extension.length > 0 || !hasMapEntryShape(m)))
        return false;
      if (!addExtensions(m.extension, `${fullName}.`)) return false;
      if (!declare(fullName, mapEntry ? 'map-entry' : 'message')) return false;
      if (mapEntry) mapEntryFiles.set(fullName, file);
      for (const o of m.oneofDecl) if (!IDENTIFIER.test(o.name) || o.options?.features) return false;
      messages.push({ proto: m });
      for (const e of m.enumType) if (!addEnum(e, `${fullName}.${e.name}`)) return false;
      for (const n of m.nestedType) if (!addMessage(n, `${fullName}.${n.name}`, depth + 1)) return false;
      return true;
    };
    for (const e of file.enumType) if (!addEnum(e, prefix + e.name)) return false;
    for (const m of file.messageType) if (!addMessage(m, prefix + m.name, 0)) return false;
    if (!addExtensions(file.extension, prefix)) return false;
    // fields and extensions resolve against every declaration of this file and the earlier ones
    for (const ext of extensions) if (!isExtensionSafe(ext, kinds)) return false;
    for (const { proto } of messages) {
      for (const field of proto.field) {
        if (!isFieldSafe(field, proto, file, kinds, mapEntryFiles)) return false;
      }
    }
    // services (the registry adds them after the file's messages): each method's input and output a message it holds
    for (const service of file.service) {
      if (!IDENTIFIER.test(service.name) || service.options?.features || !declare(prefix + service.name, 'service')) return false;
      for (const method of service.method) {
        if (method.options?.features) return false;
        if (kinds.get(resolveTypeName(method.inputType)) !== 'message' || kinds.get(resolveTypeName(method.outputType)) !== 'message') return false;
      }
    }
    seenFiles.add(file.name);
  }
  return true;
}

function isFieldSafe(
  field: FieldDescriptorProto,
  message: DescriptorProto,
  file: FileDescriptorProto,
  kinds: ReadonlyMap<string, Kind>,
  mapEntryFiles: ReadonlyMap<string, FileDescriptorProto>,
): boolean {
  if (!IDENTIFIER.test(field.name) || field.options?.features) return false;
  if (field.type < 1 || field.type > TYPE_MAX) return false;
  if (Object.prototype.hasOwnProperty.call(field, 'oneofIndex') && field.oneofIndex !== undefined && !field.proto3Optional) {
    if (!Number.isInteger(field.oneofIndex) || field.oneofIndex < 0 || field.oneofIndex >= message.oneofDecl.length) return false;
  }
  if (field.type !== TYPE_MESSAGE && field.type !== TYPE_GROUP && field.type !== TYPE_ENUM) return true;
  const target = resolveTypeName(field.typeName);
  const kind = kinds.get(target);
  if (field.type === TYPE_ENUM) return kind === 'enum';
  if (kind === 'message') return true;
  // a map field: a repeated message field whose entry the same file declares (every entry was held to hasMapEntryShape
  // when declared, and its key and value fields are checked here like any message's)
  return kind === 'map-entry' && field.type === TYPE_MESSAGE && field.label === LABEL_REPEATED && mapEntryFiles.get(target) === file;
}

/** An extension: extends a message the registry holds; its own type resolves as a field's, never as a map. */
function isExtensionSafe(ext: FieldDescriptorProto, kinds: ReadonlyMap<string, Kind>): boolean {
  if (!IDENTIFIER.test(ext.name) || ext.options?.features) return false;
  if (ext.type < 1 || ext.type > TYPE_MAX) return false;
  if (kinds.get(resolveTypeName(ext.extendee)) !== 'message') return false;
  if (ext.type === TYPE_ENUM) return kinds.get(resolveTypeName(ext.typeName)) === 'enum';
  if (ext.type === TYPE_MESSAGE || ext.type === TYPE_GROUP) return kinds.get(resolveTypeName(ext.typeName)) === 'message';
  return true;
}

/** Exactly a singular scalar key 1 (not bytes, float or double) and a singular value 2. */
function hasMapEntryShape(entry: DescriptorProto): boolean {
  if (entry.field.length !== 2) return false;
  const [key, value] = entry.field[0]!.number === 1 ? entry.field : [entry.field[1]!, entry.field[0]!];
  if (key?.number !== 1 || value?.number !== 2) return false;
  if (key.label === LABEL_REPEATED || key.type === TYPE_MESSAGE || key.type === TYPE_GROUP || key.type === TYPE_ENUM) return false;
  if (key.type === TYPE_BYTES || key.type === TYPE_FLOAT || key.type === TYPE_DOUBLE) return false;
  return value.label !== LABEL_REPEATED;
}
