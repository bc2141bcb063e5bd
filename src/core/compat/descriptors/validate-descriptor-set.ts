/**
 * Checks a FileDescriptorSet the way protoc's DescriptorBuilder does before anything is compared: a set
 * that protoc (or buf) could never have written is refused with the path of the offending element,
 * instead of being diffed as if it were a schema (a field numbered 0 would otherwise read as "field 1
 * removed, field 0 added").
 *
 * Checked, each with its own message: symbol names (letters, digits, underscores); every full name
 * declared once in the whole set (messages, enums, fields, oneofs, extensions, enum values in their
 * enclosing scope, services; a message and an enum of the same name included); field numbers 1 to
 * 536,870,911 outside 19,000–19,999 and outside the message's reserved ranges and names, unique per
 * message; field types 1–18 (written: protoc and buf always write it) and labels 0–3; message, group and enum fields
 * with a fully-qualified type name that names a declaration of the right kind; oneof indexes in range;
 * extension and reserved ranges with start < end within the field-number range; enums with at least
 * one value, a first value of 0 in proto3 files, no duplicate numbers without `allow_alias`.
 *
 * Linear in the set: one pass declares every symbol, a second resolves field types by map lookups.
 */
import { unreachableWireFailure, WireCursor } from '../../protobuf';
import type { DescriptorProto, EnumDescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet } from '@bufbuild/protobuf/wkt';

export interface DescriptorProblem {
  /** index of the file in the set */
  fileIndex: number;
  /** logical path of the element: file, then each enclosing declaration */
  path: string[];
  detail: string;
}

/** protoc's limits (descriptor.cc: FieldDescriptor::kMaxNumber, kFirstReservedNumber, kLastReservedNumber) */
const MAX_FIELD_NUMBER = 536_870_911;
const FIRST_RESERVED_NUMBER = 19_000;
const LAST_RESERVED_NUMBER = 19_999;
const SYMBOL = /^[A-Za-z0-9_]+$/;
const PACKAGE = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
const TYPE_GROUP = 10;
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const TYPE_MAX = 18;
const LABEL_MAX = 3;
/** FieldDescriptorProto's own field numbers of `label` and `type` */
const FIELD_LABEL_NUMBER = 4;
const FIELD_TYPE_NUMBER = 5;
/** nesting of message declarations, as normalizeForComparison allows */
const MAX_NESTING = 200;

type SymbolKind = 'message' | 'enum' | 'field' | 'oneof' | 'extension' | 'enum value' | 'service' | 'method';

interface Declared {
  kind: SymbolKind;
  file: string;
}

class ProblemFound {
  constructor(readonly problem: DescriptorProblem) {}
}

export function validateDescriptorSet(set: FileDescriptorSet): DescriptorProblem | undefined {
  const symbols = new Map<string, Declared>();
  try {
    set.file.forEach((file, i) => declareFile(file, i, symbols));
    set.file.forEach((file, i) => checkFile(file, i, symbols));
  } catch (e) {
    if (e instanceof ProblemFound) return e.problem;
    throw e;
  }
  return undefined;
}

/** path: the element's logical path, or its parent's path and the element's own segment (built only on failure) */
function fail(fileIndex: number, path: string[] | [string[], string], detail: string): never {
  const full = Array.isArray(path[0]) ? [...path[0], path[1] as string] : (path as string[]);
  throw new ProblemFound({ fileIndex, path: full, detail });
}

function declareFile(file: FileDescriptorProto, fileIndex: number, symbols: Map<string, Declared>): void {
  const where = [file.name];
  if (file.package !== '' && !PACKAGE.test(file.package)) {
    fail(fileIndex, where, `Package "${file.package}" of ${file.name} is not a dotted name of letters, digits and underscores`);
  }
  const prefix = file.package ? `${file.package}.` : '';
  const declare = (name: string, scope: string, kind: SymbolKind, path: string[] | [string[], string], note = ''): string => {
    if (!SYMBOL.test(name)) {
      fail(
        fileIndex,
        path,
        name === ''
          ? `A ${kind} in ${scope || file.name} has an empty name`
          : `The ${kind} name "${name}" in ${scope || file.name} is not made of letters, digits and underscores only`,
      );
    }
    const fullName = scope ? `${scope}.${name}` : name;
    const before = symbols.get(fullName);
    if (before) {
      const place = before.file === file.name ? `in ${file.name}` : `in ${before.file} and in ${file.name}`;
      const kinds = before.kind === kind ? `twice as ${article(kind)} ${kind}` : `as ${article(before.kind)} ${before.kind} and as ${article(kind)} ${kind}`;
      fail(fileIndex, path, `${fullName} is declared ${kinds}, ${place}; protoc requires every full name to be declared once${note}`);
    }
    symbols.set(fullName, { kind, file: file.name });
    return fullName;
  };
  const declareEnum = (e: EnumDescriptorProto, scope: string, path: string[]): void => {
    const enumPath = [...path, `enum ${e.name}`];
    declare(e.name, scope, 'enum', enumPath);
    // enum values are siblings of their enum (C++ scoping), as protoc declares them
    for (const v of e.value) {
      declare(v.name, scope, 'enum value', [enumPath, `value ${v.name}`], '; enum values are scoped like C++ enumerators, as siblings of their enum');
    }
  };
  const declareMessage = (m: DescriptorProto, scope: string, path: string[]): void => {
    const messagePath = [...path, `message ${m.name}`];
    if (messagePath.length > MAX_NESTING + 1) {
      fail(fileIndex, messagePath.slice(0, 3), `Messages of ${file.name} are nested deeper than ${MAX_NESTING} levels, this inspector's limit`);
    }
    const fullName = declare(m.name, scope, 'message', messagePath);
    for (const f of m.field) declare(f.name, fullName, 'field', [messagePath, `field ${f.name}`]);
    for (const o of m.oneofDecl) declare(o.name, fullName, 'oneof', [messagePath, `oneof ${o.name}`]);
    for (const x of m.extension) declare(x.name, fullName, 'extension', [messagePath, `extension ${x.name}`]);
    for (const n of m.nestedType) declareMessage(n, fullName, messagePath);
    for (const e of m.enumType) declareEnum(e, fullName, messagePath);
  };
  const scope = prefix.slice(0, -1);
  for (const m of file.messageType) declareMessage(m, scope, where);
  for (const e of file.enumType) declareEnum(e, scope, where);
  for (const x of file.extension) declare(x.name, scope, 'extension', [...where, `extension ${x.name}`]);
  for (const s of file.service) {
    const servicePath = [...where, `service ${s.name}`];
    const serviceName = declare(s.name, scope, 'service', servicePath);
    for (const method of s.method) declare(method.name, serviceName, 'method', [...servicePath, `method ${method.name}`]);
  }
}

function checkFile(file: FileDescriptorProto, fileIndex: number, symbols: Map<string, Declared>): void {
  const where = [file.name];
  for (const i of [...file.publicDependency, ...file.weakDependency]) {
    if (i < 0 || i >= file.dependency.length) {
      fail(fileIndex, where, `${file.name} names dependency index ${i}, but it imports ${file.dependency.length} file(s)`);
    }
  }
  const proto3 = file.syntax === 'proto3';
  const scope = file.package;
  const checkField = (f: FieldDescriptorProto, owner: string, path: string[], isExtension: boolean): void => {
    const fieldPath: [string[], string] = [path, `${isExtension ? 'extension' : 'field'} ${f.name}`];
    const fullName = owner ? `${owner}.${f.name}` : f.name;
    if (f.number < 1 || f.number > MAX_FIELD_NUMBER) {
      fail(fileIndex, fieldPath, `Field ${fullName} has number ${f.number}; protoc requires field numbers from 1 to 536,870,911`);
    }
    if (f.number >= FIRST_RESERVED_NUMBER && f.number <= LAST_RESERVED_NUMBER) {
      fail(fileIndex, fieldPath, `Field ${fullName} has number ${f.number}; numbers 19,000 to 19,999 are reserved for the Protobuf implementation`);
    }
    // protobuf-es reads an absent proto2 enum as its first value (TYPE_DOUBLE): only an own property was written
    // and keeps a number outside the closed enum among the unknown fields
    const type = Object.hasOwn(f, 'type') ? (f.type as number) : readUnknownEnum(f, FIELD_TYPE_NUMBER);
    if (type === undefined || type < 1 || type > TYPE_MAX) {
      fail(
        fileIndex,
        fieldPath,
        `Field ${fullName} has ${type === undefined ? 'no type' : `type ${type}`}; expected a FieldDescriptorProto.Type from 1 to 18, as protoc and buf write it`,
      );
    }
    const label = Object.hasOwn(f, 'label') ? (f.label as number) : readUnknownEnum(f, FIELD_LABEL_NUMBER);
    if (label !== undefined && (label < 1 || label > LABEL_MAX)) {
      fail(fileIndex, fieldPath, `Field ${fullName} has label ${label}; expected a FieldDescriptorProto.Label from 1 to 3`);
    }
    if (isExtension && f.extendee === '') fail(fileIndex, fieldPath, `Extension ${fullName} names no extended message (extendee)`);
    if (type === TYPE_MESSAGE || type === TYPE_GROUP || type === TYPE_ENUM) {
      const typeLabel = type === TYPE_ENUM ? 'TYPE_ENUM' : type === TYPE_GROUP ? 'TYPE_GROUP' : 'TYPE_MESSAGE';
      if (f.typeName === '') fail(fileIndex, fieldPath, `Field ${fullName} has ${typeLabel} but an empty type name`);
      if (!f.typeName.startsWith('.')) {
        fail(
          fileIndex,
          fieldPath,
          `Field ${fullName} has the relative type name "${f.typeName}"; expected a fully-qualified name with a leading "." as protoc and buf write it`,
        );
      }
      const target = symbols.get(f.typeName.slice(1));
      if (!target) fail(fileIndex, fieldPath, `Field ${fullName} has type ${f.typeName}, which no file of the set declares`);
      const wanted = type === TYPE_ENUM ? 'enum' : 'message';
      if (target.kind !== wanted) {
        fail(
          fileIndex,
          fieldPath,
          `Field ${fullName} has ${typeLabel}, but ${f.typeName} is ${article(target.kind)} ${target.kind} (declared in ${target.file}), not ${article(wanted)} ${wanted}`,
        );
      }
    }
    if (f.extendee !== '') {
      if (!f.extendee.startsWith('.')) {
        fail(fileIndex, fieldPath, `Extension ${fullName} extends the relative name "${f.extendee}"; expected a fully-qualified name with a leading "."`);
      }
      const target = symbols.get(f.extendee.slice(1));
      if (!target || target.kind !== 'message') {
        fail(
          fileIndex,
          fieldPath,
          `Extension ${fullName} extends ${f.extendee}, which ${target ? `is ${article(target.kind)} ${target.kind}, not a message` : 'no file of the set declares'}`,
        );
      }
    }
  };
  const checkRanges = (ranges: readonly { start: number; end: number }[], what: string, owner: string, path: string[]): void => {
    for (const r of ranges) {
      // DescriptorProto ranges are [start, end): end may be MAX_FIELD_NUMBER + 1
      if (r.start < 1 || r.end <= r.start || r.end > MAX_FIELD_NUMBER + 1) {
        fail(fileIndex, path, `${what} ${r.start} to ${r.end - 1} of ${owner} is not within 1 to 536,870,911 with its start before its end`);
      }
    }
  };
  const checkEnum = (e: EnumDescriptorProto, owner: string, path: string[]): void => {
    const fullName = owner ? `${owner}.${e.name}` : e.name;
    const enumPath = [...path, `enum ${e.name}`];
    if (e.value.length === 0) fail(fileIndex, enumPath, `Enum ${fullName} has no values; protoc requires at least one`);
    if (proto3 && e.value[0]!.number !== 0) {
      fail(fileIndex, [...enumPath, `value ${e.value[0]!.name}`], `The first value of enum ${fullName} is ${e.value[0]!.number}; proto3 requires it to be 0`);
    }
    if (e.options?.allowAlias !== true) {
      const numbers = new Map<number, string>();
      for (const v of e.value) {
        const other = numbers.get(v.number);
        if (other !== undefined) {
          fail(fileIndex, [...enumPath, `value ${v.name}`], `Enum ${fullName} gives number ${v.number} to both ${other} and ${v.name} without allow_alias`);
        }
        numbers.set(v.number, v.name);
      }
    }
  };
  const checkMessage = (m: DescriptorProto, owner: string, path: string[]): void => {
    const fullName = owner ? `${owner}.${m.name}` : m.name;
    const messagePath = [...path, `message ${m.name}`];
    checkRanges(m.reservedRange, 'Reserved range', fullName, messagePath);
    checkRanges(m.extensionRange, 'Extension range', fullName, messagePath);
    const reservedNames = new Set(m.reservedName);
    const isReserved = indexRanges(m.reservedRange);
    const numbers = new Map<number, string>();
    for (const f of m.field) {
      checkField(f, fullName, messagePath, false);
      const fieldPath: [string[], string] = [messagePath, `field ${f.name}`];
      const other = numbers.get(f.number);
      if (other !== undefined) fail(fileIndex, fieldPath, `Fields ${other} and ${f.name} of ${fullName} both have number ${f.number}`);
      numbers.set(f.number, f.name);
      if (isReserved(f.number)) {
        fail(fileIndex, fieldPath, `Field ${fullName}.${f.name} uses number ${f.number}, which ${fullName} reserves`);
      }
      if (reservedNames.has(f.name)) fail(fileIndex, fieldPath, `Field ${fullName}.${f.name} uses the name "${f.name}", which ${fullName} reserves`);
      if (Object.hasOwn(f, 'oneofIndex') && (f.oneofIndex < 0 || f.oneofIndex >= m.oneofDecl.length)) {
        fail(fileIndex, fieldPath, `Field ${fullName}.${f.name} has oneof index ${f.oneofIndex}, but ${fullName} declares ${m.oneofDecl.length} oneof(s)`);
      }
    }
    for (const x of m.extension) checkField(x, fullName, messagePath, true);
    for (const n of m.nestedType) checkMessage(n, fullName, messagePath);
    for (const e of m.enumType) checkEnum(e, fullName, messagePath);
  };
  for (const m of file.messageType) checkMessage(m, scope, where);
  for (const e of file.enumType) checkEnum(e, scope, where);
  for (const x of file.extension) checkField(x, scope, where, true);
}

/** Reads the unknown enum varints (never fails: varintAt only). */
const enumWire = new WireCursor(unreachableWireFailure);

/** The last value of a closed-enum field that protobuf-es kept among the unknown fields (a varint outside the enum). */
function readUnknownEnum(f: FieldDescriptorProto, fieldNumber: number): number | undefined {
  let value: number | undefined;
  for (const u of f.$unknown ?? []) {
    if (u.no !== fieldNumber || u.data.length === 0) continue;
    // an int32 enum written negative is a 10-byte varint: its low 32 bits
    if (enumWire.varintAt(u.data, 0, u.data.length) >= 0) value = enumWire.lo | 0;
  }
  return value;
}

/** Membership in [start, end) ranges by binary search over the sorted starts: linear in fields plus ranges, however many ranges. */
function indexRanges(ranges: readonly { start: number; end: number }[]): (n: number) => boolean {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  // the furthest end reached by any range up to each index, for overlapping ranges
  const reach: number[] = [];
  for (const [i, r] of sorted.entries()) reach.push(Math.max(r.end, i > 0 ? reach[i - 1]! : r.end));
  return (n) => {
    let lo = 0;
    let hi = sorted.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]!.start <= n) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return last >= 0 && reach[last]! > n;
  };
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
