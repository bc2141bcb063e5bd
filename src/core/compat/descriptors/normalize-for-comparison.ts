/**
 * Normalizes a descriptor set to what generated code embeds: drops
 * source_code_info, a field's json_name when it equals the name protoc derives, and the image
 * extension (field 8042 of FileDescriptorProto, an unknown field) that `buf build` adds. Applied to
 * both sides so the comparison sees only real schema differences.
 *
 * Returns a new set that shares every sub-message it does not change with the input (files,
 * messages and fields are shallow copies; options, enums and the rest are shared), so neither the
 * input nor the result may be mutated afterwards. The result is remembered per input object (and a
 * normalized set normalizes to itself), so a check normalizes each descriptor set once, however
 * many states and rules look at it.
 *
 * `keepJsonNames`: when both sides are what generated code embeds (a savepoint's saved schema and a
 * job jar's descriptors), no json_name is derived: each one present was written in the .proto, and
 * dropping it would hide an explicit json_name being added or removed. Then only source info and
 * buf's extension go.
 */
import type { DescriptorProto, FieldDescriptorProto, FileDescriptorProto, FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { copyDescriptorMessage } from './copy-descriptor-message';

export const BUF_IMAGE_EXTENSION_FIELD = 8042;

const normalizedSets = new WeakMap<FileDescriptorSet, FileDescriptorSet>();
const keptJsonNameSets = new WeakMap<FileDescriptorSet, FileDescriptorSet>();

export interface NormalizeOptions {
  keepJsonNames?: boolean;
}

export function normalizeForComparison(set: FileDescriptorSet, options: NormalizeOptions = {}): FileDescriptorSet {
  const keep = options.keepJsonNames === true;
  const cache = keep ? keptJsonNameSets : normalizedSets;
  const cached = cache.get(set);
  if (cached !== undefined) return cached;
  const copy = copyDescriptorMessage(set);
  copy.file = set.file.map((f) => normalizeFileOnce(f, keep));
  cache.set(set, copy);
  cache.set(copy, copy);
  return copy;
}

const normalizedFiles = new WeakMap<FileDescriptorProto, FileDescriptorProto>();
const keptJsonNameFiles = new WeakMap<FileDescriptorProto, FileDescriptorProto>();

/** A file shared by two sets (loadDescriptorSet's file cache) normalizes to one object for both. */
function normalizeFileOnce(original: FileDescriptorProto, keepJsonNames: boolean): FileDescriptorProto {
  const files = keepJsonNames ? keptJsonNameFiles : normalizedFiles;
  let file = files.get(original);
  if (file === undefined) {
    file = normalizeFile(original, keepJsonNames);
    files.set(original, file);
  }
  return file;
}

function normalizeFile(original: FileDescriptorProto, keepJsonNames: boolean): FileDescriptorProto {
  const file = copyDescriptorMessage(original);
  file.sourceCodeInfo = undefined;
  if (file.$unknown) {
    const kept = file.$unknown.filter((u) => u.no !== BUF_IMAGE_EXTENSION_FIELD);
    file.$unknown = kept.length > 0 ? kept : undefined;
  }
  if (keepJsonNames) return file;
  file.messageType = file.messageType.map((m) => normalizeMessage(m, 0));
  file.extension = file.extension.map(normalizeField);
  return file;
}

const MAX_NESTING = 200;

function normalizeMessage(original: DescriptorProto, depth: number): DescriptorProto {
  if (depth > MAX_NESTING) throw new Error(`Message nesting deeper than ${MAX_NESTING} at ${original.name}`);
  const message = copyDescriptorMessage(original);
  message.field = message.field.map(normalizeField);
  message.extension = message.extension.map(normalizeField);
  message.nestedType = message.nestedType.map((n) => normalizeMessage(n, depth + 1));
  return message;
}

/** The field without a json_name equal to the derived one (a copy only when one is dropped). */
function normalizeField(field: FieldDescriptorProto): FieldDescriptorProto {
  // descriptor.proto is proto2: a set optional field is an own property in protobuf-es;
  // deleting it falls back to the prototype's default (unset).
  if (!isSet(field, 'jsonName') || field.jsonName !== deriveJsonName(field.name)) return field;
  const copy = copyDescriptorMessage(field);
  delete (copy as { jsonName?: string }).jsonName;
  return copy;
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
