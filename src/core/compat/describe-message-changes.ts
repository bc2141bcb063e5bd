/**
 * Compares two descriptor sub-messages (options, or what is left of a declaration after the
 * specific rules) as decoded messages, known fields and unknown fields alike, and describes the
 * differences as `name: old → new` items.
 */
import { toJson, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { haveSameContent } from './have-same-content';

const UNSET = 'unset';

/** Flattens a message into `name → value text`: known fields by proto name, unknown ones as `#<number>`. */
export function flattenMessage<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (message === undefined) return out;
  const json = toJson(schema, message, { useProtoFieldName: true }) as Record<string, unknown>;
  for (const key of Object.keys(json).sort()) out.set(key, JSON.stringify(json[key]));
  const unknown = (message as { $unknown?: { no: number; wireType: number; data: Uint8Array }[] }).$unknown ?? [];
  for (const u of unknown) {
    const key = `#${u.no}`;
    const text = `wire ${u.wireType} 0x${Array.from(u.data, (b) => b.toString(16).padStart(2, '0')).join('')}`;
    out.set(key, out.has(key) ? `${out.get(key)}, ${text}` : text);
  }
  return out;
}

/** `deprecated: unset → true; #50000: … → …`, or undefined when both are equal. */
export function describeMessageChanges<Desc extends DescMessage>(
  schema: Desc,
  saved: MessageShape<Desc> | undefined,
  next: MessageShape<Desc> | undefined,
): string | undefined {
  // most compared parts are equal: skip the two toJson renderings when the content is the same
  if (haveSameContent(saved, next)) return undefined;
  const a = flattenMessage(schema, saved);
  const b = flattenMessage(schema, next);
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  const changes: string[] = [];
  for (const key of keys) {
    const from = a.get(key) ?? UNSET;
    const to = b.get(key) ?? UNSET;
    if (from !== to) changes.push(`${key}: ${from} → ${to}`);
  }
  return changes.length > 0 ? changes.join('; ') : undefined;
}
