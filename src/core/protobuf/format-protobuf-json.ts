/**
 * The JSON view of a decoded message: ProtoJSON field names (json_name), 64-bit integers as
 * strings, bytes as base64, enums by name (the number when the value is not declared), maps as
 * objects, NaN/Infinity as strings. Fields appear as protobuf-java's getAllFields lists them
 * (set fields, by field number); unknown fields are listed separately (collect-protobuf-unknown-fields).
 */
import { ScalarType, type DescField } from '@bufbuild/protobuf';
import { encodeBase64 } from '../flink';
import { decodeUtf8 } from './decode-utf8';
import { isPbMessage } from './create-pb-message';
import { isSingularPresent } from './encode-protobuf-message';
import type { PbElement, PbMessage, PbScalar } from './protobuf-message-types';
import { deriveJsonName } from './strip-derived-json-names';
import { formatWellKnownJson } from './format-well-known-json';
import { setJsonMember } from './set-json-member';

/** json_name when the descriptor has one (protoc output), otherwise protoc's derivation (gencode descriptors have none). */
export function getJsonName(field: DescField): string {
  return field.jsonName !== '' ? field.jsonName : deriveJsonName(field.name);
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The root message's JSON object (a well-known root type keeps its plain object form). */
export function formatProtobufJson(msg: PbMessage): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  const numbers = [...msg.fields.keys()].sort((a, b) => a - b);
  for (const no of numbers) {
    const fv = msg.fields.get(no)!;
    const field = fv.field;
    if (fv.kind === 'singular') {
      if (!isSingularPresent(field, fv.value)) continue;
      out[getJsonName(field)] = formatElement(field, fv.value);
    } else if (fv.kind === 'list') {
      if (fv.values.length > 0) out[getJsonName(field)] = fv.values.map((v) => formatElement(field, v));
    } else if (field.fieldKind === 'map') {
      const obj: { [key: string]: JsonValue } = {};
      for (const { key, value } of fv.entries.values()) {
        const k = formatScalar(field.mapKey, key);
        const valueJson = isPbMessage(value)
          ? formatMessage(value)
          : field.mapKind === 'enum'
            ? formatEnum(field, value as number)
            : formatScalar(field.scalar!, value as PbScalar);
        setJsonMember(obj, String(k), valueJson);
      }
      out[getJsonName(field)] = obj;
    }
  }
  return out;
}

/** A nested message: the ProtoJSON form of a well-known type, else its object. */
function formatMessage(msg: PbMessage): JsonValue {
  return formatWellKnownJson(msg, formatFieldOf) ?? formatProtobufJson(msg);
}

function formatFieldOf(msg: PbMessage, no: number): JsonValue | undefined {
  const fv = msg.fields.get(no);
  if (fv?.kind !== 'singular') return undefined;
  return formatElement(fv.field, fv.value);
}

export function formatElement(field: DescField, v: PbElement): JsonValue {
  if (isPbMessage(v)) return formatMessage(v);
  if (field.enum !== undefined) return formatEnum(field, v as number);
  return formatScalar(field.scalar!, v);
}

function formatEnum(field: DescField, n: number): JsonValue {
  const value = field.enum?.value[n];
  return value === undefined ? n : value.name;
}

export function formatScalar(type: ScalarType, v: PbScalar): JsonValue {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return type === ScalarType.STRING ? decodeUtf8(v, 0, v.length, false)! : encodeBase64(v);
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return 'Infinity';
  if (v === Number.NEGATIVE_INFINITY) return '-Infinity';
  return v;
}
