/** protobuf-java's findMissingFields: paths of unset required fields, for `Message missing required fields: …`. */
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { isPbMessage } from './create-pb-message';
import type { PbMessage } from './protobuf-message-types';

export function findMissingRequiredFields(msg: PbMessage, prefix: string, out: string[]): void {
  // most schemas (every proto3 one) declare no required field anywhere below the root: nothing to walk
  if (!mayHaveRequiredFields(msg.desc)) return;
  for (const field of msg.desc.fields) {
    if (field.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED && !msg.fields.has(field.number)) out.push(prefix + field.name);
  }
  for (const value of msg.fields.values()) {
    if (value.kind === 'singular' && isPbMessage(value.value)) findMissingRequiredFields(value.value, `${prefix}${value.field.name}.`, out);
    else if (value.kind === 'list') {
      if (!mayHaveRequiredFields(value.field.message)) continue;
      value.values.forEach((v, i) => {
        if (isPbMessage(v)) findMissingRequiredFields(v, `${prefix}${value.field.name}[${i}].`, out);
      });
    } else if (value.kind === 'map') {
      if (!mayHaveRequiredFields(value.field.message)) continue;
      let i = 0;
      for (const e of value.entries.values()) {
        if (isPbMessage(e.value)) findMissingRequiredFields(e.value, `${prefix}${value.field.name}[${i}].value.`, out);
        i++;
      }
    }
  }
}

const mayHave = new WeakMap<DescMessage, boolean>();

/** Whether a message of this type, or any message reachable through its fields, declares a required field. */
function mayHaveRequiredFields(desc: DescMessage | undefined): boolean {
  if (desc === undefined) return false;
  const known = mayHave.get(desc);
  if (known !== undefined) return known;
  // one traversal of the reachable types (cycles included); the answer is the same for all of them when any is required,
  // so only the start type is remembered as true, and every type is remembered as false when none is
  const seen = new Set<DescMessage>([desc]);
  const pending: DescMessage[] = [desc];
  let found = false;
  while (pending.length > 0 && !found) {
    const m = pending.pop()!;
    for (const field of m.fields) {
      if (field.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED) {
        found = true;
        break;
      }
      const sub = messageOf(field);
      if (sub !== undefined && !seen.has(sub) && mayHave.get(sub) !== false) {
        if (mayHave.get(sub) === true) {
          found = true;
          break;
        }
        seen.add(sub);
        pending.push(sub);
      }
    }
  }
  if (found) mayHave.set(desc, true);
  else for (const m of seen) mayHave.set(m, false);
  return found;
}

function messageOf(field: DescField): DescMessage | undefined {
  return field.message;
}
