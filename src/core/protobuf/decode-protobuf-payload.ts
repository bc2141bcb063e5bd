/**
 * Descriptor-guided decoding of one Protobuf payload with protobuf-java semantics: unknown fields
 * kept in wire order, a wire type the declared field
 * does not accept makes the field unknown, packed and unpacked repeated both accepted, last value
 * wins for singular scalars, message fields merge, proto3 strings must be valid UTF-8, closed
 * enums put unknown numbers into the unknown fields, required fields are enforced, and depth is
 * counted as the serializer counts it (root 0; each message, group and map entry +1).
 */
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { createPbMessage, isPbMessage } from './create-pb-message';
import { findMissingRequiredFields } from './find-missing-required-fields';
import { formatMapKey, getScalarDefault, readScalar } from './read-protobuf-scalar';
import { readUnknownField, skipField } from './read-unknown-protobuf-field';
import { findFieldByNumber, getAcceptedWireTypes, getScalarWireType } from './protobuf-field-wire';
import { JAVA_PARSE_MESSAGES as M, ProtobufParseError } from './protobuf-errors';
import type { DecodedProtobufPayload, PbElement, PbMessage, PbScalar } from './protobuf-message-types';
import { WireInput, WIRE_END_GROUP, WIRE_LEN } from './wire-input';

export interface DecodeProtobufPayloadOptions {
  maxMessageSize: number;
  recursionLimit: number;
  /** declared payload length N when fewer bytes are present (default: payload.length) */
  frameLength?: number;
}

export function decodeProtobufPayload(payload: Uint8Array, desc: DescMessage, options: DecodeProtobufPayloadOptions): DecodedProtobufPayload {
  const frameLength = options.frameLength ?? payload.length;
  const input = new WireInput(payload, frameLength, options.maxMessageSize, options.recursionLimit);
  const message = createPbMessage(desc);
  mergeMessage(input, message);
  input.checkLastTagWas(0);
  const missing: string[] = [];
  findMissingRequiredFields(message, '', missing);
  if (missing.length > 0) throw new ProtobufParseError(`Message missing required fields: ${missing.join(', ')}`, 0);
  return { typeName: desc.typeName, message, payloadSize: frameLength, depth: input.maxDepth };
}

/** Parses fields until the end of the current limit or an END_GROUP tag (left in lastTag). */
function mergeMessage(input: WireInput, msg: PbMessage): void {
  for (;;) {
    const tag = input.readTag();
    if (tag === 0) return;
    const start = input.tagStart;
    const no = tag >>> 3;
    const wt = tag & 7;
    const field = findFieldByNumber(msg.desc, no);
    if (field !== undefined && (getAcceptedWireTypes(field) & (1 << wt)) !== 0) {
      readKnownField(input, msg, field, wt, start);
      continue;
    }
    if (!readUnknownField(input, msg.unknown, no, wt, start)) return;
  }
}

function readKnownField(input: WireInput, msg: PbMessage, field: DescField, wt: number, start: number): void {
  switch (field.fieldKind) {
    case 'scalar': {
      const value = readScalar(input, field.scalar, field.utf8Validation);
      setSingular(msg, field, value, start, input.pos);
      return;
    }
    case 'enum': {
      const value = input.readVarint32();
      if (!field.enum.open && field.enum.value[value] === undefined) {
        msg.unknown.push({ number: field.number, wireType: 0, value: BigInt(value), range: { offset: start, length: input.pos - start } });
        return;
      }
      setSingular(msg, field, value, start, input.pos);
      return;
    }
    case 'message': {
      const existing = msg.fields.get(field.number);
      const target = existing?.kind === 'singular' ? (existing.value as PbMessage) : createPbMessage(field.message);
      readSubMessage(input, target, field.delimitedEncoding ? field.number : -1, start);
      setSingular(msg, field, target, start, input.pos);
      return;
    }
    case 'list': {
      const list = getList(msg, field);
      if (field.listKind === 'message') {
        const target = createPbMessage(field.message);
        readSubMessage(input, target, field.delimitedEncoding ? field.number : -1, start);
        list.values.push(target);
      } else if (wt === WIRE_LEN && (field.listKind === 'enum' || getScalarWireType(field.scalar) !== WIRE_LEN)) {
        const length = input.readLength();
        const old = input.pushLimit(length);
        while (input.pos < input.limit) {
          const elementStart = input.pos;
          if (field.listKind === 'enum') {
            const value = input.readVarint32();
            if (!field.enum.open && field.enum.value[value] === undefined) {
              msg.unknown.push({ number: field.number, wireType: 0, value: BigInt(value), range: { offset: elementStart, length: input.pos - elementStart } });
            } else list.values.push(value);
          } else list.values.push(readScalar(input, field.scalar, false));
        }
        input.popLimit(old);
      } else if (field.listKind === 'enum') {
        const value = input.readVarint32();
        if (!field.enum.open && field.enum.value[value] === undefined) {
          msg.unknown.push({ number: field.number, wireType: 0, value: BigInt(value), range: { offset: start, length: input.pos - start } });
          return;
        }
        list.values.push(value);
      } else {
        list.values.push(readScalar(input, field.scalar, field.utf8Validation));
      }
      list.ranges.push({ offset: start, length: input.pos - start });
      return;
    }
    case 'map':
      readMapEntry(input, msg, field, start);
      return;
  }
}

/** readMessage / readGroup: depth check, limit, merge, end-tag check. groupNumber -1 = length-delimited. */
function readSubMessage(input: WireInput, target: PbMessage, groupNumber: number, start: number): void {
  if (groupNumber >= 0) {
    input.enter(start);
    mergeMessage(input, target);
    input.checkLastTagWas((groupNumber << 3) | WIRE_END_GROUP);
    input.leave();
    return;
  }
  const length = input.readLength();
  input.enter(start);
  const old = input.pushLimit(length);
  mergeMessage(input, target);
  input.checkLastTagWas(0);
  input.leave();
  if (input.pos !== input.limit) throw new ProtobufParseError(M.truncated, input.pos);
  input.popLimit(old);
}

function readMapEntry(input: WireInput, msg: PbMessage, field: DescField & { fieldKind: 'map' }, start: number): void {
  const length = input.readLength();
  input.enter(start);
  const old = input.pushLimit(length);
  const entryStart = input.pos;
  const keyTag = (1 << 3) | getScalarWireType(field.mapKey);
  const valueTag = (2 << 3) | (field.mapKind === 'scalar' ? getScalarWireType(field.scalar) : field.mapKind === 'enum' ? 0 : WIRE_LEN);
  let key: PbScalar | undefined;
  let value: PbElement | undefined;
  for (;;) {
    const tag = input.readTag();
    if (tag === 0) break;
    if (tag === keyTag) key = readScalar(input, field.mapKey, field.utf8Validation);
    else if (tag === valueTag) {
      if (field.mapKind === 'scalar') value = readScalar(input, field.scalar, field.utf8Validation);
      else if (field.mapKind === 'enum') value = input.readVarint32();
      else {
        const target = value instanceof Object && (value as PbMessage).kind === 'message' ? (value as PbMessage) : createPbMessage(field.message);
        readSubMessage(input, target, -1, input.tagStart);
        value = target;
      }
    } else if (!skipField(input, tag, 0)) break;
  }
  input.checkLastTagWas(0);
  input.leave();
  if (input.pos !== input.limit) throw new ProtobufParseError(M.truncated, input.pos);
  input.popLimit(old);
  key ??= getScalarDefault(field.mapKey);
  if (value === undefined) {
    value =
      field.mapKind === 'message'
        ? createPbMessage(field.message)
        : field.mapKind === 'enum'
          ? (field.enum.values[0]?.number ?? 0)
          : getScalarDefault(field.scalar);
  }
  if (field.mapKind === 'enum' && !field.enum.open && field.enum.value[value as number] === undefined) {
    msg.unknown.push({
      number: field.number,
      wireType: WIRE_LEN,
      value: input.buf.subarray(entryStart, entryStart + length),
      range: { offset: start, length: input.pos - start },
    });
    return;
  }
  let map = msg.fields.get(field.number);
  if (map === undefined || map.kind !== 'map') {
    map = { kind: 'map', field, entries: new Map(), ranges: [] };
    msg.fields.set(field.number, map);
  }
  map.entries.set(formatMapKey(key), { key, value });
  map.ranges.push({ offset: start, length: input.pos - start });
}

function setSingular(msg: PbMessage, field: DescField, value: PbElement, start: number, end: number): void {
  const existing = msg.fields.get(field.number);
  if (field.oneof !== undefined) {
    for (const member of field.oneof.fields) if (member.number !== field.number) msg.fields.delete(member.number);
  }
  if (existing !== undefined && existing.kind === 'singular') {
    existing.value = value;
    existing.ranges.push({ offset: start, length: end - start });
    return;
  }
  msg.fields.set(field.number, { kind: 'singular', field, value, ranges: [{ offset: start, length: end - start }] });
}

function getList(msg: PbMessage, field: DescField): { values: PbElement[]; ranges: { offset: number; length: number }[] } {
  const existing = msg.fields.get(field.number);
  if (existing !== undefined && existing.kind === 'list') return existing;
  const list = { kind: 'list' as const, field, values: [] as PbElement[], ranges: [] as { offset: number; length: number }[] };
  msg.fields.set(field.number, list);
  return list;
}

export { createPbMessage, isPbMessage, getScalarDefault, formatMapKey };
