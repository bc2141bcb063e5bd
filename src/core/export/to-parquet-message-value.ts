/**
 * A decoded Protobuf message as the nested value of its Parquet group (derive-parquet-schema.ts),
 * holding what parquet-protobuf's ProtoWriteSupport writes: the fields protobuf-java's getAllFields
 * lists (set fields; implicit-presence defaults absent → null), enums by name (protobuf-java's
 * UNKNOWN_ENUM_VALUE_<Enum>_<n> for numbers the enum does not declare), 64-bit integers as bigint,
 * strings as text, bytes as bytes, a message cut off by the recursion limit as its serialized bytes.
 * Groups are objects keyed by child name, repeated nodes arrays; LIST/MAP wrappers literal
 * (`{ list: [{ element }] }`, `{ key_value: [{ key, value }] }`).
 */
import { ScalarType, type DescField } from '@bufbuild/protobuf';
import { decodeUtf8, encodeProtobufMessage, isSingularPresent, type PbElement, type PbMessage, type PbScalar } from '../protobuf';
import type { ParquetNode } from './parquet-schema-types';

export type ParquetValue = null | boolean | number | bigint | string | Uint8Array | ParquetValue[] | { [name: string]: ParquetValue };

/** The group value of `msg` whose group's children are `nodes`. */
export function toParquetMessageValue(msg: PbMessage, nodes: readonly ParquetNode[]): { [name: string]: ParquetValue } {
  const out: { [name: string]: ParquetValue } = {};
  msg.desc.fields.forEach((field, i) => {
    const node = nodes[i]!;
    const fv = msg.fields.get(field.number);
    if (fv === undefined) return;
    if (fv.kind === 'singular') {
      if (!isSingularPresent(field, fv.value)) return;
      out[node.name] = toElement(field, fv.value, node);
    } else if (fv.kind === 'list') {
      if (fv.values.length === 0) return;
      if (node.logical === 'LIST') {
        const element = node.children![0]!.children![0]!;
        out[node.name] = { list: fv.values.map((v) => ({ element: toElement(field, v, element) })) };
      } else if (node.repetition === 'REPEATED') {
        out[node.name] = fv.values.map((v) => toElement(field, v, node));
      } else {
        // a repeated message cut off by the recursion limit: parquet-protobuf keeps one optional binary
        out[node.name] = encodeProtobufMessage(fv.values[0] as PbMessage);
      }
    } else {
      if (fv.entries.size === 0 || field.fieldKind !== 'map') return;
      const entries = [...fv.entries.values()];
      if (node.logical === 'MAP') {
        const kv = node.children![0]!;
        const valueNode = kv.children![1]!;
        out[node.name] = { key_value: entries.map((e) => ({ key: toScalar(field.mapKey, e.key), value: toMapValue(field, e.value, valueNode) })) };
      } else if (node.repetition === 'REPEATED') {
        const valueNode = node.children![1]!;
        out[node.name] = entries.map((e) => ({ key: toScalar(field.mapKey, e.key), value: toMapValue(field, e.value, valueNode) }));
      } else {
        out[node.name] = null;
      }
    }
  });
  return out;
}

function toMapValue(field: DescField, value: PbElement, node: ParquetNode): ParquetValue {
  if (field.fieldKind !== 'map') throw new Error(`field ${field.name} is not a map`);
  if (field.mapKind === 'message')
    return node.children === undefined ? encodeProtobufMessage(value as PbMessage) : toParquetMessageValue(value as PbMessage, node.children);
  if (field.mapKind === 'enum') return enumName(field, value as number);
  return toScalar(field.scalar, value as PbScalar);
}

function toElement(field: DescField, value: PbElement, node: ParquetNode): ParquetValue {
  if (node.children !== undefined) return toParquetMessageValue(value as PbMessage, node.children);
  if (isMessageField(field)) return encodeProtobufMessage(value as PbMessage);
  if (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) return enumName(field, value as number);
  if (field.fieldKind === 'scalar' || (field.fieldKind === 'list' && field.listKind === 'scalar')) return toScalar(field.scalar, value as PbScalar);
  throw new Error(`field ${field.name}: unexpected value`);
}

function isMessageField(field: DescField): boolean {
  return field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message');
}

function enumName(field: DescField, n: number): string {
  const e =
    field.fieldKind === 'enum'
      ? field.enum
      : field.fieldKind === 'list' && field.listKind === 'enum'
        ? field.enum
        : field.fieldKind === 'map' && field.mapKind === 'enum'
          ? field.enum
          : undefined;
  if (e === undefined) throw new Error(`field ${field.name} is not an enum`);
  return e.values.find((v) => v.number === n)?.name ?? `UNKNOWN_ENUM_VALUE_${e.name}_${n}`;
}

function toScalar(scalar: ScalarType, value: PbScalar): ParquetValue {
  switch (scalar) {
    case ScalarType.STRING:
      return decodeUtf8(value as Uint8Array, 0, (value as Uint8Array).length, false) ?? '';
    case ScalarType.BYTES:
      // a copy: the decoded value is a view into the read buffer, which a row group must not keep alive
      return (value as Uint8Array).slice();
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      // parquet INT64 is signed: unsigned values keep their bits (protobuf-java's long)
      return BigInt.asIntN(64, BigInt(value as bigint));
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return (value as number) | 0;
    default:
      return value as number | boolean;
  }
}
