/** protobuf-java's findMissingFields: paths of unset required fields, for `Message missing required fields: …`. */
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { isPbMessage } from './create-pb-message';
import type { PbMessage } from './protobuf-message-types';

export function findMissingRequiredFields(msg: PbMessage, prefix: string, out: string[]): void {
  for (const field of msg.desc.fields) {
    if (field.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED && !msg.fields.has(field.number)) out.push(prefix + field.name);
  }
  for (const value of msg.fields.values()) {
    if (value.kind === 'singular' && isPbMessage(value.value)) findMissingRequiredFields(value.value, `${prefix}${value.field.name}.`, out);
    else if (value.kind === 'list') {
      value.values.forEach((v, i) => {
        if (isPbMessage(v)) findMissingRequiredFields(v, `${prefix}${value.field.name}[${i}].`, out);
      });
    } else if (value.kind === 'map') {
      let i = 0;
      for (const e of value.entries.values()) {
        if (isPbMessage(e.value)) findMissingRequiredFields(e.value, `${prefix}${value.field.name}[${i}].value.`, out);
        i++;
      }
    }
  }
}
