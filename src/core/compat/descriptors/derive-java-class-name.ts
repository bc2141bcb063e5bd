/**
 * The Java binary class name protoc generates for a message (protoc's Java naming rules):
 * java_package (else the proto package), then either the message itself (java_multiple_files) or
 * the outer class (java_outer_classname, else the file's base name in CamelCase, plus
 * `OuterClass` when a type of the file has that name); nested classes are joined with `$`.
 */
import type { DescriptorProto, EnumDescriptorProto, FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { indexDeclarations } from './index-declarations';

export function deriveJavaClassName(set: FileDescriptorSet, messageFullName: string): string | undefined {
  const decl = indexDeclarations(set).byName.get(messageFullName);
  if (decl?.kind !== 'message') return undefined;
  const file = decl.file;
  const javaPackage = file.options?.javaPackage || file.package;
  const simpleNames = [...decl.enclosing.map((e) => e.proto.name), decl.proto.name];
  const classes = file.options?.javaMultipleFiles ? simpleNames : [outerClassName(file), ...simpleNames];
  return (javaPackage ? `${javaPackage}.` : '') + classes.join('$');
}

function outerClassName(file: FileDescriptorSet['file'][number]): string {
  if (file.options?.javaOuterClassname) return file.options.javaOuterClassname;
  const base = file.name.replace(/^.*\//, '').replace(/\.proto$/, '');
  const name = underscoresToCamelCase(base);
  return hasTypeNamed(file.messageType, file.enumType, name) || file.service.some((s) => s.name === name) ? `${name}OuterClass` : name;
}

/** protoc's UnderscoresToCamelCase(name, cap_first_letter = true). */
export function underscoresToCamelCase(input: string): string {
  let out = '';
  let capNext = true;
  for (const ch of input) {
    if (ch >= 'a' && ch <= 'z') {
      out += capNext ? ch.toUpperCase() : ch;
      capNext = false;
    } else if (ch >= 'A' && ch <= 'Z') {
      out += ch;
      capNext = false;
    } else if (ch >= '0' && ch <= '9') {
      out += ch;
      capNext = true;
    } else {
      capNext = true;
    }
  }
  return out;
}

function hasTypeNamed(messages: readonly DescriptorProto[], enums: readonly EnumDescriptorProto[], name: string): boolean {
  if (enums.some((e) => e.name === name)) return true;
  return messages.some((m) => m.name === name || hasTypeNamed(m.nestedType, m.enumType, name));
}
