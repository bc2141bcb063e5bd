/**
 * The Parquet schema of a Protobuf message as parquet-protobuf's ProtoSchemaConverter derives it (the
 * schema of Flink's `ParquetProtoWriters.forType`): fields in declaration order, each with its field
 * number as Parquet field id; required → REQUIRED, repeated → REPEATED, else OPTIONAL; message →
 * group; int32-family → INT32, 64-bit → INT64, float, double, bool; string → BINARY (STRING); enum →
 * BINARY (ENUM); bytes → BINARY. Legacy layout (parquet-protobuf's default, `writeSpecsCompliant`
 * false, what ParquetProtoWriters writes): repeated fields as bare repeated fields, a map as a
 * repeated group of its entry message (key, value). Spec layout: LIST (`list`/`element`) and MAP
 * (`key_value`/`key`/`value`) wrappers. A message type met more than `maxRecursion` (5) times on the
 * way down is cut off as optional BINARY holding the serialized message. Well-known types are plain
 * messages there (parquet-protobuf has no special mapping for them in this writer).
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import type { ParquetListLayout } from './export-types';
import type { ParquetNode, ParquetPhysicalType } from './parquet-schema-types';

export const PARQUET_PROTO_MAX_RECURSION = 5;

export interface DeriveParquetSchemaOptions {
  layout: ParquetListLayout;
  maxRecursion?: number;
}

/** The fields of `desc` as Parquet nodes (the children of the message's group). */
export function deriveParquetFields(desc: DescMessage, options: DeriveParquetSchemaOptions): ParquetNode[] {
  const maxRecursion = options.maxRecursion ?? PARQUET_PROTO_MAX_RECURSION;
  return convertFields(desc, [desc.typeName], options.layout, maxRecursion);
}

function convertFields(desc: DescMessage, seen: readonly string[], layout: ParquetListLayout, maxRecursion: number): ParquetNode[] {
  return desc.fields.map((f) => ({ ...convertField(f, seen, layout, maxRecursion), name: f.name, fieldId: f.number }));
}

function repetitionOf(field: DescField): ParquetNode['repetition'] {
  if (field.fieldKind === 'list' || field.fieldKind === 'map') return 'REPEATED';
  return field.proto.label === 2 ? 'REQUIRED' : 'OPTIONAL';
}

function convertField(field: DescField, seen: readonly string[], layout: ParquetListLayout, maxRecursion: number): ParquetNode {
  const name = field.name;
  const isMessage = field.fieldKind === 'message' || (field.fieldKind === 'list' && field.listKind === 'message') || field.fieldKind === 'map';
  if (!isMessage) {
    const leaf = leafType(field);
    if (field.fieldKind === 'list' && layout === 'spec') {
      return {
        name,
        repetition: 'OPTIONAL',
        logical: 'LIST',
        children: [{ name: 'list', repetition: 'REPEATED', children: [{ name: 'element', repetition: 'REQUIRED', ...leaf }] }],
      };
    }
    return { name, repetition: repetitionOf(field), ...leaf };
  }
  // the message type this field holds (a map: its entry type in the legacy layout, its value type in the spec layout)
  const typeName = innerTypeName(field, layout);
  if (typeName !== undefined && seen.filter((s) => s === typeName).length > maxRecursion) {
    return { name, repetition: 'OPTIONAL', type: 'BYTE_ARRAY' };
  }
  if (field.fieldKind === 'map' && layout === 'spec') {
    const value = mapValueNode(field, seen, layout, maxRecursion);
    return {
      name,
      repetition: 'OPTIONAL',
      logical: 'MAP',
      children: [{ name: 'key_value', repetition: 'REPEATED', children: [{ name: 'key', repetition: 'REQUIRED', ...scalarLeaf(field.mapKey) }, value] }],
    };
  }
  const inner = typeName === undefined ? seen : [...seen, typeName];
  if (field.fieldKind === 'map') {
    // legacy: the entry message (key = 1, value = 2, both optional) as a repeated group
    return {
      name,
      repetition: 'REPEATED',
      children: [
        { name: 'key', repetition: 'OPTIONAL', fieldId: 1, ...scalarLeaf(field.mapKey) },
        { ...mapValueNode(field, inner, layout, maxRecursion), fieldId: 2 },
      ],
    };
  }
  const message = field.fieldKind === 'message' ? field.message : field.fieldKind === 'list' && field.listKind === 'message' ? field.message : undefined;
  if (message === undefined) throw new Error(`field ${field.name} holds no message`);
  const children = convertFields(message, inner, layout, maxRecursion);
  if (field.fieldKind === 'list' && layout === 'spec') {
    return {
      name,
      repetition: 'OPTIONAL',
      logical: 'LIST',
      children: [{ name: 'list', repetition: 'REPEATED', children: [{ name: 'element', repetition: 'OPTIONAL', children }] }],
    };
  }
  return { name, repetition: repetitionOf(field), children };
}

function mapValueNode(field: DescField, seen: readonly string[], layout: ParquetListLayout, maxRecursion: number): ParquetNode {
  if (field.fieldKind !== 'map') throw new Error(`field ${field.name} is not a map`);
  if (field.mapKind === 'message') {
    const typeName = field.message.typeName;
    if (seen.filter((s) => s === typeName).length > maxRecursion) return { name: 'value', repetition: 'OPTIONAL', type: 'BYTE_ARRAY' };
    return { name: 'value', repetition: 'OPTIONAL', children: convertFields(field.message, [...seen, typeName], layout, maxRecursion) };
  }
  const leaf = field.mapKind === 'enum' ? { type: 'BYTE_ARRAY' as const, logical: 'ENUM' as const } : scalarLeaf(field.scalar);
  return { name: 'value', repetition: 'OPTIONAL', ...leaf };
}

function innerTypeName(field: DescField, layout: ParquetListLayout): string | undefined {
  if (field.fieldKind === 'map') {
    if (layout === 'spec') return field.mapKind === 'message' ? field.message.typeName : undefined;
    return field.proto.typeName.replace(/^\./, '');
  }
  if (field.fieldKind === 'message') return field.message.typeName;
  if (field.fieldKind === 'list' && field.listKind === 'message') return field.message.typeName;
  return undefined;
}

function leafType(field: DescField): Pick<ParquetNode, 'type' | 'logical'> {
  if (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) return { type: 'BYTE_ARRAY', logical: 'ENUM' };
  if (field.fieldKind === 'scalar' || (field.fieldKind === 'list' && field.listKind === 'scalar')) return scalarLeaf(field.scalar);
  throw new Error(`field ${field.name} is not a scalar`);
}

function scalarLeaf(scalar: ScalarType): Pick<ParquetNode, 'type' | 'logical'> {
  const type = physicalType(scalar);
  return scalar === ScalarType.STRING ? { type, logical: 'STRING' } : { type };
}

export function physicalType(scalar: ScalarType): ParquetPhysicalType {
  switch (scalar) {
    case ScalarType.INT32:
    case ScalarType.UINT32:
    case ScalarType.SINT32:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return 'INT32';
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 'INT64';
    case ScalarType.FLOAT:
      return 'FLOAT';
    case ScalarType.DOUBLE:
      return 'DOUBLE';
    case ScalarType.BOOL:
      return 'BOOLEAN';
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return 'BYTE_ARRAY';
  }
}
