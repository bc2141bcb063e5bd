/**
 * A compact per-message field table for the structural scan: for each declared field number the
 * wire types it accepts, whether it is repeated, bytes or string, and the message its
 * length-delimited (or group) value continues in. Map fields get a synthetic entry message
 * (key = 1, value = 2) whose other fields protobuf-java skips rather than keeps.
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { DecodeError } from '../io';
import { getAcceptedWireTypes, getScalarWireType } from './protobuf-field-wire';

/** bit 7 (no wire type 7 is ever accepted): a closed (proto2) enum; its numbers are in ScanMessageInfo.closedEnums */
export const SCAN_CLOSED_ENUM = 1 << 7;
export const SCAN_REPEATED = 1 << 8;
export const SCAN_BYTES = 1 << 9;
export const SCAN_STRING = 1 << 10;
export const SCAN_GROUP = 1 << 11;
/** bits 12-15: oneof index + 1 within the message (0: no oneof, or index ≥ 15) */
export const SCAN_ONEOF_SHIFT = 12;
/** bits 0-7: accepted wire types; SCAN_STRING only for strings that must be valid UTF-8; bits 16-31: child message index + 1 */
export const SCAN_CHILD_SHIFT = 16;

export interface ScanMessageInfo {
  typeName: string;
  /** field info by number for numbers below `small.length`; 0 = not declared */
  small: Int32Array;
  large: Map<number, number>;
  /** a synthetic map entry: unknown/mismatched fields are skipped (not kept) as protobuf-java does */
  mapEntry: boolean;
  /** declared numbers of closed enum fields, by field number */
  closedEnums: Map<number, Set<number>>;
}

export interface ProtobufScanIndex {
  messages: ScanMessageInfo[];
  /** index of the root message */
  root: number;
}

const SMALL_LIMIT = 64;

/** Message indexes are 16-bit in the field table: a schema reaching more message types than MAX_SCAN_MESSAGES is a `limit-exceeded` DecodeError (a limit of this inspector, met only by a crafted schema). */
export const MAX_SCAN_MESSAGES = 0xfffe;

const indexes = new WeakMap<DescMessage, ProtobufScanIndex>();

/** buildProtobufScanIndex, once per root message object (snapshots of one schema share their root: rememberNormalizedSchema). */
export function getProtobufScanIndex(root: DescMessage): ProtobufScanIndex {
  let index = indexes.get(root);
  if (index === undefined) indexes.set(root, (index = buildProtobufScanIndex(root)));
  return index;
}

export function buildProtobufScanIndex(root: DescMessage): ProtobufScanIndex {
  const messages: ScanMessageInfo[] = [];
  const indexOf = new Map<DescMessage, number>();
  const add = (desc: DescMessage): number => {
    const known = indexOf.get(desc);
    if (known !== undefined) return known;
    const i = messages.length;
    const info: ScanMessageInfo = { typeName: desc.typeName, small: new Int32Array(SMALL_LIMIT), large: new Map(), mapEntry: false, closedEnums: new Map() };
    messages.push(info);
    indexOf.set(desc, i);
    for (const field of desc.fields) {
      const oneofIndex = field.oneof === undefined ? -1 : desc.oneofs.indexOf(field.oneof);
      const oneofBits = oneofIndex >= 0 && oneofIndex < 15 ? (oneofIndex + 1) << SCAN_ONEOF_SHIFT : 0;
      const closed = (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) && !field.enum!.open;
      if (closed) info.closedEnums.set(field.number, new Set(field.enum!.values.map((v) => v.number)));
      setInfo(info, field.number, describeField(field, add, messages) | oneofBits | (closed ? SCAN_CLOSED_ENUM : 0));
    }
    return i;
  };
  const root0 = add(root);
  if (messages.length > MAX_SCAN_MESSAGES) {
    throw new DecodeError({
      code: 'limit-exceeded',
      detail: `expected at most ${MAX_SCAN_MESSAGES} message types reachable from ${root.typeName} (this inspector's cap for the value scan), found ${messages.length}`,
    });
  }
  return { messages, root: root0 };
}

function setInfo(info: ScanMessageInfo, no: number, value: number): void {
  if (no < SMALL_LIMIT) info.small[no] = value;
  else info.large.set(no, value);
}

function describeField(field: DescField, add: (d: DescMessage) => number, messages: ScanMessageInfo[]): number {
  let v = getAcceptedWireTypes(field);
  switch (field.fieldKind) {
    case 'scalar':
      if (field.scalar === ScalarType.BYTES) v |= SCAN_BYTES;
      if (field.scalar === ScalarType.STRING && field.utf8Validation) v |= SCAN_STRING;
      return v;
    case 'enum':
      return v;
    case 'message':
      return v | (field.delimitedEncoding ? SCAN_GROUP : 0) | ((add(field.message) + 1) << SCAN_CHILD_SHIFT);
    case 'list':
      v |= SCAN_REPEATED;
      if (field.listKind === 'message') return v | (field.delimitedEncoding ? SCAN_GROUP : 0) | ((add(field.message) + 1) << SCAN_CHILD_SHIFT);
      if (field.listKind === 'scalar' && field.scalar === ScalarType.BYTES) v |= SCAN_BYTES;
      if (field.listKind === 'scalar' && field.scalar === ScalarType.STRING && field.utf8Validation) v |= SCAN_STRING;
      return v;
    case 'map': {
      const entry: ScanMessageInfo = {
        typeName: `${field.parent.typeName}.${field.name}[entry]`,
        small: new Int32Array(3),
        large: new Map(),
        mapEntry: true,
        closedEnums: new Map(),
      };
      const entryIndex = messages.length;
      messages.push(entry);
      entry.small[1] = (1 << getScalarWireType(field.mapKey)) | (field.mapKey === ScalarType.STRING && field.utf8Validation ? SCAN_STRING : 0);
      if (field.mapKind === 'message') entry.small[2] = (1 << 2) | ((add(field.message) + 1) << SCAN_CHILD_SHIFT);
      else if (field.mapKind === 'enum') entry.small[2] = 1 << 0;
      else
        entry.small[2] =
          (1 << getScalarWireType(field.scalar)) |
          (field.scalar === ScalarType.BYTES ? SCAN_BYTES : 0) |
          (field.scalar === ScalarType.STRING && field.utf8Validation ? SCAN_STRING : 0);
      return v | SCAN_REPEATED | ((entryIndex + 1) << SCAN_CHILD_SHIFT);
    }
  }
}
