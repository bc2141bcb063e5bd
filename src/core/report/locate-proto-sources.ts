/**
 * Where a declaration of the new schema is written: its `.proto` file and line, from the descriptor
 * set's source info (google.protobuf.SourceCodeInfo, which `buf build` and `protoc
 * --include_source_info` keep). The compatibility check drops source info (load-descriptor-set); SARIF
 * (`--format sarif`) reads it again from the same bytes to place each result on the line of the new
 * schema it names. A set without source info (a job jar's embedded descriptors, `buf build
 * --exclude-source-info`) gives no locator: the results are then located in the set or jar as a whole.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, type DescriptorProto, type EnumDescriptorProto, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';

/** A span of a `.proto` file, 1-based as SARIF's region counts lines and columns (the end column is exclusive). */
export interface ProtoSourceRegion {
  file: string;
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface ProtoSourceLocator {
  /** a message or enum by full name (no leading dot) */
  declaration(fullName: string): ProtoSourceRegion | undefined;
  /** a field of a message, or a value of an enum, by number */
  member(parentFullName: string, number: number): ProtoSourceRegion | undefined;
  /** a file of the set, by name, when it has source info (its first line) */
  file(name: string): ProtoSourceRegion | undefined;
}

// FileDescriptorProto.message_type = 4, .enum_type = 5; DescriptorProto.field = 2, .nested_type = 3, .enum_type = 4; EnumDescriptorProto.value = 2
const FILE_MESSAGE = 4;
const FILE_ENUM = 5;
const MESSAGE_FIELD = 2;
const MESSAGE_NESTED = 3;
const MESSAGE_ENUM = 4;
const ENUM_VALUE = 2;

/** The locator of a binary FileDescriptorSet's source info; undefined when no file carries any (or the bytes do not decode). */
export function createProtoSourceLocator(bytes: Uint8Array): ProtoSourceLocator | undefined {
  let set: FileDescriptorSet;
  try {
    set = fromBinary(FileDescriptorSetSchema, bytes);
  } catch {
    return undefined;
  }
  const declarations = new Map<string, ProtoSourceRegion>();
  const members = new Map<string, ProtoSourceRegion>();
  const files = new Map<string, ProtoSourceRegion>();
  for (const file of set.file) {
    const spans = new Map<string, readonly number[]>();
    for (const location of file.sourceCodeInfo?.location ?? []) {
      const key = location.path.join('.');
      // the first location of a path is the declaration's (later ones, if any, are its parts)
      if (location.span.length >= 3 && !spans.has(key)) spans.set(key, location.span);
    }
    if (spans.size === 0) continue;
    const region = (path: readonly number[]): ProtoSourceRegion | undefined => {
      const span = spans.get(path.join('.'));
      if (span === undefined) return undefined;
      // [startLine, startColumn, endLine, endColumn], or [line, startColumn, endColumn] on one line, all 0-based
      const [startLine, startColumn, a, b] = span as [number, number, number, number | undefined];
      return {
        file: file.name,
        startLine: startLine + 1,
        startColumn: startColumn + 1,
        endLine: (b === undefined ? startLine : a) + 1,
        endColumn: (b === undefined ? a : b) + 1,
      };
    };
    files.set(file.name, { file: file.name, startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 });
    const prefix = file.package ? `${file.package}.` : '';
    const addEnum = (e: EnumDescriptorProto, scope: string, path: readonly number[]): void => {
      const name = `${scope}${e.name}`;
      const at = region(path);
      if (at) declarations.set(name, at);
      e.value.forEach((v, i) => {
        const value = region([...path, ENUM_VALUE, i]);
        if (value && !members.has(`${name}#${v.number}`)) members.set(`${name}#${v.number}`, value);
      });
    };
    const addMessage = (m: DescriptorProto, scope: string, path: readonly number[]): void => {
      const name = `${scope}${m.name}`;
      const at = region(path);
      if (at) declarations.set(name, at);
      m.field.forEach((f, i) => {
        const field = region([...path, MESSAGE_FIELD, i]);
        if (field) members.set(`${name}#${f.number}`, field);
      });
      m.nestedType.forEach((n, i) => addMessage(n, `${name}.`, [...path, MESSAGE_NESTED, i]));
      m.enumType.forEach((e, i) => addEnum(e, `${name}.`, [...path, MESSAGE_ENUM, i]));
    };
    file.messageType.forEach((m, i) => addMessage(m, prefix, [FILE_MESSAGE, i]));
    file.enumType.forEach((e, i) => addEnum(e, prefix, [FILE_ENUM, i]));
  }
  if (files.size === 0) return undefined;
  const strip = (name: string): string => (name.startsWith('.') ? name.slice(1) : name);
  return {
    declaration: (fullName) => declarations.get(strip(fullName)),
    member: (parent, number) => members.get(`${strip(parent)}#${number}`),
    file: (name) => files.get(name),
  };
}
