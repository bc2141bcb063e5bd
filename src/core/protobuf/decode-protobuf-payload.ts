/**
 * Descriptor-guided decoding of one Protobuf payload with protobuf-java semantics
 * (library-format.md §1.2): unknown fields kept in wire order, a wire type the declared field
 * does not accept makes the field unknown, packed and unpacked repeated both accepted, last value
 * wins for singular scalars, message fields merge, proto3 strings must be valid UTF-8, closed
 * enums put unknown numbers into the unknown fields, required fields are enforced, and depth is
 * counted as the serializer counts it (root 0; each message, group and map entry +1).
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { decodeUtf8 } from './decode-utf8';
import { findFieldByNumber, getAcceptedWireTypes, getScalarWireType } from './protobuf-field-wire';
import { JAVA_PARSE_MESSAGES as M, ProtobufParseError } from './protobuf-errors';
import type { DecodedProtobufPayload, PbElement, PbMessage, PbScalar, PbUnknownField } from './protobuf-message-types';
import { toBigInt64, WireInput, WIRE_END_GROUP, WIRE_LEN, WIRE_START_GROUP } from './wire-input';

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

export function createPbMessage(desc: DescMessage): PbMessage {
  return { kind: 'message', desc, fields: new Map(), unknown: [] };
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
    value = field.mapKind === 'message' ? createPbMessage(field.message) : field.mapKind === 'enum' ? (field.enum.values[0]?.number ?? 0) : getScalarDefault(field.scalar);
  }
  if (field.mapKind === 'enum' && !field.enum.open && field.enum.value[value as number] === undefined) {
    msg.unknown.push({ number: field.number, wireType: WIRE_LEN, value: input.buf.subarray(entryStart, entryStart + length), range: { offset: start, length: input.pos - start } });
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

/** CodedInputStream.skipField: false for END_GROUP. */
function skipField(input: WireInput, tag: number, nesting: number): boolean {
  switch (tag & 7) {
    case 0:
      input.readVarint64();
      return true;
    case 1:
      input.skip(8);
      return true;
    case 2:
      input.skip(input.readLength());
      return true;
    case 3: {
      if (nesting >= 2000) throw new ProtobufParseError('expected at most 2000 nested groups in a map entry, found more', input.tagStart, 'limit-exceeded');
      for (;;) {
        const t = input.readTag();
        if (t === 0 || !skipField(input, t, nesting + 1)) break;
      }
      input.checkLastTagWas(((tag >>> 3) << 3) | WIRE_END_GROUP);
      return true;
    }
    case 4:
      return false;
    case 5:
      input.skip(4);
      return true;
    default:
      throw new ProtobufParseError(M.invalidWireType, input.tagStart);
  }
}

/** UnknownFieldSet.mergeFieldFrom: false for END_GROUP. */
function readUnknownField(input: WireInput, into: PbUnknownField[], no: number, wt: number, start: number): boolean {
  switch (wt) {
    case 0: {
      const lo = input.readVarint64();
      into.push({ number: no, wireType: 0, value: toBigInt64(lo, input.hi, false), range: { offset: start, length: input.pos - start } });
      return true;
    }
    case 1: {
      const lo = input.readFixed64();
      into.push({ number: no, wireType: 1, value: toBigInt64(lo, input.hi, false), range: { offset: start, length: input.pos - start } });
      return true;
    }
    case 2: {
      const value = input.readBytes(input.readLength());
      into.push({ number: no, wireType: 2, value, range: { offset: start, length: input.pos - start } });
      return true;
    }
    case 3: {
      const children: PbUnknownField[] = [];
      input.enter(start);
      for (;;) {
        const tag = input.readTag();
        if (tag === 0 || !readUnknownField(input, children, tag >>> 3, tag & 7, input.tagStart)) break;
      }
      input.checkLastTagWas((no << 3) | WIRE_END_GROUP);
      input.leave();
      into.push({ number: no, wireType: 3, value: children, range: { offset: start, length: input.pos - start } });
      return true;
    }
    case 4:
      return false;
    case 5: {
      const value = input.readFixed32();
      into.push({ number: no, wireType: 5, value, range: { offset: start, length: input.pos - start } });
      return true;
    }
    default:
      throw new ProtobufParseError(M.invalidWireType, start);
  }
}

const scratch = new DataView(new ArrayBuffer(8));

function readScalar(input: WireInput, type: ScalarType, validateUtf8: boolean): PbScalar {
  switch (type) {
    case ScalarType.INT32:
      return input.readVarint32();
    case ScalarType.UINT32:
      return input.readVarint32() >>> 0;
    case ScalarType.SINT32: {
      const n = input.readVarint32();
      return (n >>> 1) ^ -(n & 1);
    }
    case ScalarType.INT64:
      return toBigInt64(input.readVarint64(), input.hi, true);
    case ScalarType.UINT64:
      return toBigInt64(input.readVarint64(), input.hi, false);
    case ScalarType.SINT64: {
      const u = toBigInt64(input.readVarint64(), input.hi, false);
      return (u >> 1n) ^ -(u & 1n);
    }
    case ScalarType.BOOL: {
      const lo = input.readVarint64();
      return lo !== 0 || input.hi !== 0;
    }
    case ScalarType.FIXED32:
      return input.readFixed32();
    case ScalarType.SFIXED32:
      return input.readFixed32() | 0;
    case ScalarType.FLOAT:
      scratch.setUint32(0, input.readFixed32());
      return scratch.getFloat32(0);
    case ScalarType.FIXED64:
      return toBigInt64(input.readFixed64(), input.hi, false);
    case ScalarType.SFIXED64:
      return toBigInt64(input.readFixed64(), input.hi, true);
    case ScalarType.DOUBLE: {
      const lo = input.readFixed64();
      scratch.setUint32(0, input.hi);
      scratch.setUint32(4, lo);
      return scratch.getFloat64(0);
    }
    case ScalarType.STRING: {
      const at = input.pos;
      const bytes = input.readBytes(input.readLength());
      if (validateUtf8 && decodeUtf8(bytes) === undefined) throw new ProtobufParseError(M.invalidUtf8, at);
      return bytes;
    }
    case ScalarType.BYTES:
      return input.readBytes(input.readLength());
  }
}

export function getScalarDefault(type: ScalarType): PbScalar {
  switch (type) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 0n;
    case ScalarType.BOOL:
      return false;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return new Uint8Array(0);
    default:
      return 0;
  }
}

export function formatMapKey(key: PbScalar): string {
  if (key instanceof Uint8Array) return decodeUtf8(key, 0, key.length, false)!;
  return String(key);
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

function findMissingRequiredFields(msg: PbMessage, prefix: string, out: string[]): void {
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

export function isPbMessage(v: unknown): v is PbMessage {
  return typeof v === 'object' && v !== null && (v as PbMessage).kind === 'message';
}
