/**
 * Compares two descriptor sub-messages (options, or what is left of a declaration after the
 * specific rules) as decoded messages, known fields and unknown fields alike, and describes the
 * differences as `name: old → new` items. Custom options (unknown fields of an options message) are
 * named after their declaration when a compared set declares them, down to each changed leaf
 * (`(validate.rules).string.min_len: 1 → 3`); otherwise they stay `#<number>` with their wire type and
 * content (a length-delimited field's content without its length prefix).
 */
import { getExtension, isMessage, toJson, type DescExtension, type DescField, type DescMessage, type Message, type MessageShape } from '@bufbuild/protobuf';
import { isReflectList, isReflectMap, isReflectMessage, reflect, type ReflectMessage } from '@bufbuild/protobuf/reflect';
import type { OptionExtensionFinder } from './find-option-extension';
import { haveSameContent } from './have-same-content';
import { formatHex, readVarintAt, varintCursor } from '../../io';

const UNSET = 'unset';

interface UnknownField {
  no: number;
  wireType: number;
  data: Uint8Array;
}

/** The option declarations each side's options are read with (absent: every custom option numbered). */
export interface OptionFinders {
  saved: OptionExtensionFinder;
  next: OptionExtensionFinder;
}

/** Flattens a message into `name → value text`: known fields by proto name, custom options by name or as `#<number>`. */
export function flattenMessage<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc> | undefined,
  findExtension?: OptionExtensionFinder,
): Map<string, string> {
  const out = new Map<string, string>();
  if (message === undefined) return out;
  const json = toJson(schema, message, { useProtoFieldName: true }) as Record<string, unknown>;
  for (const key of Object.keys(json).sort()) out.set(key, JSON.stringify(json[key]));
  const unknown = (message as { $unknown?: UnknownField[] }).$unknown ?? [];
  const named = new Set<number>();
  for (const u of unknown) {
    if (named.has(u.no)) continue;
    const extension = findExtension?.(schema.typeName, u.no);
    if (extension !== undefined && flattenExtension(message as Message, extension, out)) {
      named.add(u.no);
      continue;
    }
    const key = `#${u.no}`;
    const text = describeUnknownField(u);
    out.set(key, out.has(key) ? `${out.get(key)}, ${text}` : text);
  }
  return out;
}

/** `wire 0 0x01`; a length-delimited field shows its content, without the length prefix. */
export function describeUnknownField(u: UnknownField): string {
  return `wire ${u.wireType} 0x${formatHex(u.wireType === 2 ? withoutLengthPrefix(u.data) : u.data)}`;
}

/** `deprecated: unset → true; #50000: … → …`, or undefined when both are equal. */
export function describeMessageChanges<Desc extends DescMessage>(
  schema: Desc,
  saved: MessageShape<Desc> | undefined,
  next: MessageShape<Desc> | undefined,
  finders?: OptionFinders,
): string | undefined {
  // most compared parts are equal: skip the two toJson renderings when the content is the same
  if (haveSameContent(saved, next)) return undefined;
  const named = listChanges(flattenMessage(schema, saved, finders?.saved), flattenMessage(schema, next, finders?.next));
  // options whose bytes differ but read alike by name (another encoding of the same values) still differ for
  // the serializer, which compares them as unknown fields: then they are shown by number
  if (named === undefined && finders !== undefined) return listChanges(flattenMessage(schema, saved), flattenMessage(schema, next));
  return named;
}

function listChanges(a: Map<string, string>, b: Map<string, string>): string | undefined {
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  const changes: string[] = [];
  for (const key of keys) {
    const from = a.get(key) ?? UNSET;
    const to = b.get(key) ?? UNSET;
    if (from !== to) changes.push(`${key}: ${from} → ${to}`);
  }
  return changes.length > 0 ? changes.join('; ') : undefined;
}

/** Adds the extension's value as `(name)` or, for a message, one `(name).a.b` entry per set leaf; false when its bytes do not decode. */
function flattenExtension(options: Message, extension: DescExtension, out: Map<string, string>): boolean {
  let value: unknown;
  try {
    value = getExtension(options, extension);
  } catch {
    return false;
  }
  const key = `(${extension.typeName})`;
  if (extension.fieldKind === 'message' && isMessage(value)) flattenReflected(reflect(extension.message, value), key, out);
  else out.set(key, describeValue(extension, value));
  return true;
}

function flattenReflected(message: ReflectMessage, prefix: string, out: Map<string, string>): void {
  for (const field of message.fields) {
    if (!message.isSet(field)) continue;
    const value = message.get(field);
    const key = `${prefix}.${field.name}`;
    if (isReflectMessage(value)) flattenReflected(value, key, out);
    else out.set(key, describeValue(field, value));
  }
  const unknown = (message.message as { $unknown?: UnknownField[] }).$unknown ?? [];
  for (const u of unknown) out.set(`${prefix}.#${u.no}`, describeUnknownField(u));
  if (message.fields.every((f) => !message.isSet(f)) && unknown.length === 0) out.set(prefix, '{}');
}

/** A scalar, enum, list or map value as text: strings quoted, bytes in hex, enums by name, messages as JSON. */
function describeValue(field: DescField | DescExtension, value: unknown): string {
  if (isReflectList(value)) return `[${[...value].map((v) => describeItem(field, v)).join(', ')}]`;
  if (isReflectMap(value)) return `{${[...value].map(([k, v]) => `${String(k)}: ${describeItem(field, v)}`).join(', ')}}`;
  if (Array.isArray(value)) return `[${value.map((v) => describeItem(field, v)).join(', ')}]`;
  return describeItem(field, value);
}

function describeItem(field: DescField | DescExtension, value: unknown): string {
  if (isReflectMessage(value)) return JSON.stringify(toJson(value.desc, value.message));
  if (isMessage(value) && field.message) return JSON.stringify(toJson(field.message, value));
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Uint8Array) return `0x${formatHex(value)}`;
  if (typeof value === 'number' && field.enum) return field.enum.values.find((v) => v.number === value)?.name ?? String(value);
  return String(value);
}

function withoutLengthPrefix(data: Uint8Array): Uint8Array {
  const length = readVarintAt(data, 0);
  return length >= 0 && length === data.length - varintCursor.next ? data.subarray(varintCursor.next) : data;
}
