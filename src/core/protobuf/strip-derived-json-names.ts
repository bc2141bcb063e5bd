/**
 * Removes json_name from every field whose json_name is the one protoc derives from the field
 * name. protoc/buf descriptor sets carry it; the descriptors that Java gencode embeds (and the
 * serializer snapshots) do not. A json_name set explicitly to the
 * derived value cannot be told apart and is removed as well.
 */
import { copyTreeMessage, FIELD, FILE, FILE_SET, getTreeMessages, getTreeString, MESSAGE } from './descriptor-tree';
import type { PbMessage } from './protobuf-message-types';

export function stripDerivedJsonNames(set: PbMessage): PbMessage {
  return replaceMessages(set, FILE_SET.file, (file) => {
    let out = replaceMessages(file, FILE.messageType, stripMessage);
    out = replaceMessages(out, FILE.extension, stripField);
    return out;
  });
}

function stripMessage(msg: PbMessage): PbMessage {
  let out = replaceMessages(msg, MESSAGE.field, stripField);
  out = replaceMessages(out, MESSAGE.extension, stripField);
  return replaceMessages(out, MESSAGE.nestedType, stripMessage);
}

function stripField(field: PbMessage): PbMessage {
  const name = getTreeString(field, FIELD.name);
  const json = getTreeString(field, FIELD.jsonName);
  if (name === undefined || json === undefined || json !== deriveJsonName(name)) return field;
  const out = copyTreeMessage(field);
  out.fields.delete(FIELD.jsonName);
  return out;
}

function replaceMessages(msg: PbMessage, no: number, fn: (m: PbMessage) => PbMessage): PbMessage {
  const fv = msg.fields.get(no);
  if (fv?.kind !== 'list') return msg;
  const out = copyTreeMessage(msg);
  out.fields.set(no, { ...fv, values: getTreeMessages(msg, no).map(fn) });
  return out;
}

/** protoc's ToJsonName: drop each '_' and upper-case the letter after it. */
export function deriveJsonName(name: string): string {
  let out = '';
  let upper = false;
  for (const ch of name) {
    if (ch === '_') upper = true;
    else if (upper) {
      out += ch.toUpperCase();
      upper = false;
    } else out += ch;
  }
  return out;
}
