/**
 * Encodes a decoded message the way protobuf-java serializes it: known fields in field-number
 * order (implicit-presence defaults omitted, packed fields packed, map entries with both key and
 * value), then unknown fields by ascending number, per number varint, fixed32, fixed64,
 * length-delimited, group (UnknownFieldSet order). Used for round trips and for the normalized
 * descriptor bytes of a snapshot.
 */
import { ScalarType, type DescField } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { getScalarWireType } from './protobuf-field-wire';
import type { PbElement, PbMessage, PbScalar, PbUnknownField } from './protobuf-message-types';
import { isPbMessage } from './create-pb-message';
import { ProtoBytesWriter } from './proto-bytes-writer';

export function encodeProtobufMessage(msg: PbMessage): Uint8Array {
  const w = new ProtoBytesWriter();
  writeMessage(w, msg, 0);
  return w.finish();
}

function writeMessage(w: ProtoBytesWriter, msg: PbMessage, depth: number): void {
  if (depth > 10_000) throw new RangeError('message nesting too deep to encode');
  const numbers = [...msg.fields.keys()].sort((a, b) => a - b);
  for (const no of numbers) {
    const fv = msg.fields.get(no)!;
    const field = fv.field;
    if (fv.kind === 'singular') {
      if (!isSingularPresent(field, fv.value)) continue;
      writeElement(w, field, no, fv.value, depth);
    } else if (fv.kind === 'list') {
      if (fv.values.length === 0) continue;
      if (field.fieldKind === 'list' && field.packed && field.listKind !== 'message') {
        w.tag(no, 2);
        const at = w.beginLength();
        for (const v of fv.values) writeScalarValue(w, field.listKind === 'enum' ? ScalarType.INT32 : field.scalar!, v as PbScalar);
        w.endLength(at);
      } else {
        for (const v of fv.values) writeElement(w, field, no, v, depth);
      }
    } else {
      if (field.fieldKind !== 'map') continue;
      for (const { key, value } of fv.entries.values()) {
        w.tag(no, 2);
        const entryAt = w.beginLength();
        w.tag(1, getScalarWireType(field.mapKey));
        writeScalarValue(w, field.mapKey, key);
        if (field.mapKind === 'message') {
          w.tag(2, 2);
          const at = w.beginLength();
          writeMessage(w, value as PbMessage, depth + 1);
          w.endLength(at);
        } else {
          const t = field.mapKind === 'enum' ? ScalarType.INT32 : field.scalar;
          w.tag(2, getScalarWireType(t));
          writeScalarValue(w, t, value as PbScalar);
        }
        w.endLength(entryAt);
      }
    }
  }
  writeUnknownFields(w, msg.unknown, depth);
}

function writeElement(w: ProtoBytesWriter, field: DescField, no: number, value: PbElement, depth: number): void {
  if (isPbMessage(value)) {
    const delimited = (field as { delimitedEncoding?: boolean }).delimitedEncoding === true;
    if (delimited) {
      w.tag(no, 3);
      writeMessage(w, value, depth + 1);
      w.tag(no, 4);
      return;
    }
    // written in place; the length is filled in after (no writer and no copy per sub-message)
    w.tag(no, 2);
    const at = w.beginLength();
    writeMessage(w, value, depth + 1);
    w.endLength(at);
    return;
  }
  const type = field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum') ? ScalarType.INT32 : field.scalar!;
  w.tag(no, getScalarWireType(type));
  writeScalarValue(w, type, value);
}

/** Java hasField: explicit presence → set; implicit presence → not the default (raw bits for floats). */
export function isSingularPresent(field: DescField, value: PbElement): boolean {
  if (isPbMessage(value)) return true;
  if (field.oneof !== undefined || field.presence !== FeatureSet_FieldPresence.IMPLICIT) return true;
  if (typeof value === 'number') return value !== 0 || Object.is(value, -0);
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'boolean') return value;
  return value.length > 0;
}

const scratch = new DataView(new ArrayBuffer(8));

function writeScalarValue(w: ProtoBytesWriter, type: ScalarType, v: PbScalar): void {
  switch (type) {
    case ScalarType.INT32: {
      const n = v as number;
      // a negative int32 is sign-extended to ten bytes; others are the plain varint
      if (n >= 0) w.varint(n);
      else w.varint64(BigInt(n));
      return;
    }
    case ScalarType.UINT32:
      w.varint((v as number) >>> 0);
      return;
    case ScalarType.SINT32: {
      const n = v as number;
      w.varint(((n << 1) ^ (n >> 31)) >>> 0);
      return;
    }
    case ScalarType.INT64:
    case ScalarType.UINT64:
      w.varint64(v as bigint);
      return;
    case ScalarType.SINT64: {
      const n = BigInt.asIntN(64, v as bigint);
      w.varint64((n << 1n) ^ (n >> 63n));
      return;
    }
    case ScalarType.BOOL:
      w.varint(v ? 1 : 0);
      return;
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      w.fixed32(v as number);
      return;
    case ScalarType.FLOAT:
      scratch.setFloat32(0, v as number);
      w.fixed32(scratch.getUint32(0));
      return;
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64: {
      const u = BigInt.asUintN(64, v as bigint);
      w.fixed32(Number(u & 0xffffffffn)).fixed32(Number(u >> 32n));
      return;
    }
    case ScalarType.DOUBLE:
      scratch.setFloat64(0, v as number);
      w.fixed32(scratch.getUint32(4)).fixed32(scratch.getUint32(0));
      return;
    case ScalarType.STRING:
    case ScalarType.BYTES: {
      const b = v as Uint8Array;
      w.varint(b.length).raw(b);
      return;
    }
  }
}

const WIRE_ORDER = [0, 5, 1, 2, 3];

function writeUnknownFields(w: ProtoBytesWriter, fields: readonly PbUnknownField[], depth: number): void {
  if (fields.length === 0) return;
  const byNumber = new Map<number, PbUnknownField[]>();
  for (const f of fields) {
    const list = byNumber.get(f.number);
    if (list === undefined) byNumber.set(f.number, [f]);
    else list.push(f);
  }
  for (const no of [...byNumber.keys()].sort((a, b) => a - b)) {
    const list = byNumber.get(no)!;
    for (const wt of WIRE_ORDER) {
      for (const f of list) {
        if (f.wireType !== wt) continue;
        w.tag(no, wt);
        switch (f.wireType) {
          case 0:
            w.varint64(f.value);
            break;
          case 1:
            w.fixed32(Number(f.value & 0xffffffffn)).fixed32(Number(f.value >> 32n));
            break;
          case 2:
            w.varint(f.value.length).raw(f.value);
            break;
          case 3:
            if (depth > 10_000) throw new RangeError('unknown group nesting too deep to encode');
            writeUnknownFields(w, f.value, depth + 1);
            w.tag(no, 4);
            break;
          case 5:
            w.fixed32(f.value);
            break;
        }
      }
    }
  }
}
