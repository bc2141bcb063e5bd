/**
 * Small accessors over descriptor.proto messages held as decoded trees (PbMessage), so that the
 * snapshot's descriptor bytes keep protobuf-java's view: unknown fields (custom options) and raw
 * proto2 strings survive normalization untouched.
 */
import { decodeUtf8 } from './decode-utf8';
import { isPbMessage } from './create-pb-message';
import type { PbElement, PbMessage } from './protobuf-message-types';

export function getTreeString(msg: PbMessage, no: number): string | undefined {
  const fv = msg.fields.get(no);
  if (fv?.kind !== 'singular' || !(fv.value instanceof Uint8Array)) return undefined;
  return decodeUtf8(fv.value, 0, fv.value.length, false);
}

export function getTreeList(msg: PbMessage, no: number): PbElement[] {
  const fv = msg.fields.get(no);
  return fv?.kind === 'list' ? fv.values : [];
}

export function getTreeMessages(msg: PbMessage, no: number): PbMessage[] {
  return getTreeList(msg, no).filter(isPbMessage);
}

export function getTreeStrings(msg: PbMessage, no: number): string[] {
  return getTreeList(msg, no).map((v) => (v instanceof Uint8Array ? decodeUtf8(v, 0, v.length, false)! : String(v)));
}

export function getTreeNumbers(msg: PbMessage, no: number): number[] {
  return getTreeList(msg, no).map((v) => Number(v));
}

/** A shallow copy whose field map can be changed without touching the original. */
export function copyTreeMessage(msg: PbMessage): PbMessage {
  return { kind: 'message', desc: msg.desc, fields: new Map(msg.fields), unknown: msg.unknown };
}

/** FileDescriptorProto / FileDescriptorSet field numbers used here. */
export const FILE_SET = { file: 1 } as const;
export const FILE = {
  name: 1,
  package: 2,
  dependency: 3,
  messageType: 4,
  enumType: 5,
  service: 6,
  extension: 7,
  options: 8,
  sourceCodeInfo: 9,
  publicDependency: 10,
  weakDependency: 11,
  syntax: 12,
} as const;
export const MESSAGE = { name: 1, field: 2, nestedType: 3, enumType: 4, extension: 6 } as const;
export const FIELD = { name: 1, number: 3, label: 4, type: 5, typeName: 6, extendee: 2, jsonName: 10 } as const;
