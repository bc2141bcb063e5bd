/**
 * Normalizes a descriptor set to what generated code embeds (compatibility-rules.md §4): drops
 * source_code_info, a field's json_name when it equals the name protoc derives, and the image
 * extension (field 8042 of FileDescriptorProto, an unknown field) that `buf build` adds. Applied to
 * both sides so the comparison sees only real schema differences. Returns a copy.
 */
import { clone } from '@bufbuild/protobuf';
import {
  FileDescriptorSetSchema,
  type DescriptorProto,
  type FieldDescriptorProto,
  type FileDescriptorSet,
} from '@bufbuild/protobuf/wkt';

export const BUF_IMAGE_EXTENSION_FIELD = 8042;

export function normalizeForComparison(set: FileDescriptorSet): FileDescriptorSet {
  const copy = clone(FileDescriptorSetSchema, set);
  for (const file of copy.file) {
    file.sourceCodeInfo = undefined;
    if (file.$unknown) {
      const kept = file.$unknown.filter((u) => u.no !== BUF_IMAGE_EXTENSION_FIELD);
      file.$unknown = kept.length > 0 ? kept : undefined;
    }
    for (const message of file.messageType) dropDerivedJsonNames(message, 0);
    for (const ext of file.extension) dropDerivedJsonName(ext);
  }
  return copy;
}

const MAX_NESTING = 200;

function dropDerivedJsonNames(message: DescriptorProto, depth: number): void {
  if (depth > MAX_NESTING) throw new Error(`Message nesting deeper than ${MAX_NESTING} at ${message.name}`);
  for (const field of [...message.field, ...message.extension]) dropDerivedJsonName(field);
  for (const nested of message.nestedType) dropDerivedJsonNames(nested, depth + 1);
}

function dropDerivedJsonName(field: FieldDescriptorProto): void {
  // descriptor.proto is proto2: a set optional field is an own property in protobuf-es;
  // deleting it falls back to the prototype's default (unset).
  if (isSet(field, 'jsonName') && field.jsonName === deriveJsonName(field.name)) {
    delete (field as { jsonName?: string }).jsonName;
  }
}

/** proto2 presence of a descriptor field (own property in protobuf-es). */
export function isSet(message: object, localName: string): boolean {
  return Object.prototype.hasOwnProperty.call(message, localName) && (message as Record<string, unknown>)[localName] !== undefined;
}

/** protoc's ToJsonName: drop underscores, upper-case the letter after each one. */
export function deriveJsonName(name: string): string {
  let out = '';
  let upper = false;
  for (const ch of name) {
    if (ch === '_') {
      upper = true;
    } else if (upper) {
      out += ch.toUpperCase();
      upper = false;
    } else {
      out += ch;
    }
  }
  return out;
}
