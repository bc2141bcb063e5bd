/**
 * The plan ProtobufWireAppender (append-protobuf-wire-value.ts) follows: per message of the exported
 * type, its fields with what each accepts on the wire, its column builder and nested plan, compiled
 * once per export from the descriptor and the Parquet schema; and the small helpers of the cells it
 * appends (enum names, a map's missing scalar value, a scalar's wire type).
 */
import { ScalarType, type DescEnum, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import { encodeUtf8, getAcceptedWireTypes } from '../protobuf';
import { ListColumnBuilder, StructColumnBuilder, type ColumnBuilder } from './arrow-column-builders';
import type { ParquetNode } from './parquet-schema-types';

type Kind = 'scalar' | 'enum' | 'message' | 'list' | 'map';

export interface FieldPlan {
  index: number;
  kind: Kind;
  field: DescField;
  /** scalar, list of scalars, map value scalar */
  scalar: ScalarType | undefined;
  accepts: number;
  /** implicit presence (a default value is not set) */
  implicit: boolean;
  required: boolean;
  /** index of the field's oneof in the message plan, or -1 */
  oneof: number;
  builder: ColumnBuilder;
  /** list: the element builder; map: the entry struct */
  element: ColumnBuilder | undefined;
  /** message, list of messages, map of messages: the nested plan (undefined: cut off by recursion) */
  child: MessagePlan | undefined;
  enumNames: EnumNames | undefined;
  /** map: key scalar type */
  mapKey: ScalarType | undefined;
  mapKind: 'scalar' | 'enum' | 'message' | undefined;
}

export interface EnumNames {
  desc: DescEnum;
  closed: boolean;
  names: Map<number, Uint8Array>;
}

export interface MessagePlan {
  fields: FieldPlan[];
  byNumber: Map<number, FieldPlan>;
  /** the same, indexed by field number, for numbers below DENSE_NUMBERS */
  dense: (FieldPlan | undefined)[];
  /** per field: first and last occurrence (index into the occurrence stack), count */
  first: Int32Array;
  last: Int32Array;
  count: Int32Array;
  /** per oneof: the field index set, or -1 */
  oneofSet: Int32Array;
  hasOneofs: boolean;
}

const EMPTY = new Uint8Array(0);
/** field numbers looked up in an array (below) or a Map (above) */
export const DENSE_NUMBERS = 128;

export function enumName(names: EnumNames, n: number): [Uint8Array, number, number] {
  let bytes = names.names.get(n);
  if (bytes === undefined) bytes = encodeUtf8(`UNKNOWN_ENUM_VALUE_${names.desc.name}_${n}`);
  return [bytes, 0, bytes.length];
}

/** A map's missing scalar value: the type's default (a cell, never null). */
export function appendScalarDefault(builder: ColumnBuilder, scalar: ScalarType): void {
  switch (scalar) {
    case ScalarType.STRING:
      return builder.appendValue('');
    case ScalarType.BYTES:
      return builder.appendValue(EMPTY);
    case ScalarType.BOOL:
      return builder.appendValue(false);
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return builder.appendValue(0n);
    default:
      return builder.appendValue(0);
  }
}

export function wireTypeOf(scalar: ScalarType): number {
  switch (scalar) {
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 1;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return 5;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return 2;
    default:
      return 0;
  }
}

export function compileMessagePlan(desc: DescMessage, nodes: readonly ParquetNode[], builder: StructColumnBuilder): MessagePlan {
  const oneofs = desc.oneofs;
  const fields: FieldPlan[] = desc.fields.map((field, index) =>
    compileFieldPlan(
      field,
      index,
      nodes[index]!,
      builder.children[index]!,
      oneofs.findIndex((o) => o === field.oneof),
    ),
  );
  const n = fields.length;
  return {
    fields,
    byNumber: new Map(fields.map((f) => [f.field.number, f])),
    dense: Array.from({ length: DENSE_NUMBERS }, (_, no) => fields.find((f) => f.field.number === no)),
    first: new Int32Array(n),
    last: new Int32Array(n),
    count: new Int32Array(n),
    oneofSet: new Int32Array(Math.max(1, oneofs.length)),
    hasOneofs: oneofs.length > 0,
  };
}

function compileFieldPlan(field: DescField, index: number, node: ParquetNode, builder: ColumnBuilder, oneof: number): FieldPlan {
  const plan: FieldPlan = {
    index,
    kind: field.fieldKind,
    field,
    scalar: undefined,
    accepts: getAcceptedWireTypes(field),
    implicit: field.oneof === undefined && field.presence === FeatureSet_FieldPresence.IMPLICIT,
    required: field.proto.label === 2,
    oneof,
    builder,
    element: undefined,
    child: undefined,
    enumNames: undefined,
    mapKey: undefined,
    mapKind: undefined,
  };
  const cut = node.children === undefined;
  switch (field.fieldKind) {
    case 'scalar':
      plan.scalar = field.scalar;
      break;
    case 'enum':
      plan.enumNames = compileEnumNames(field.enum);
      break;
    case 'message':
      if (!cut && builder instanceof StructColumnBuilder) plan.child = compileMessagePlan(field.message, node.children!, builder);
      break;
    case 'list':
      if (builder instanceof ListColumnBuilder) plan.element = builder.element;
      if (field.listKind === 'scalar') plan.scalar = field.scalar;
      else if (field.listKind === 'enum') plan.enumNames = compileEnumNames(field.enum);
      else if (!cut && plan.element instanceof StructColumnBuilder) plan.child = compileMessagePlan(field.message, node.children!, plan.element);
      break;
    case 'map': {
      plan.mapKey = field.mapKey;
      plan.mapKind = field.mapKind;
      if (builder instanceof ListColumnBuilder) plan.element = builder.element;
      if (field.mapKind === 'scalar') plan.scalar = field.scalar;
      else if (field.mapKind === 'enum') plan.enumNames = compileEnumNames(field.enum);
      else {
        const valueNode = node.children?.[1];
        const entry = plan.element;
        if (valueNode?.children !== undefined && entry instanceof StructColumnBuilder && entry.children[1] instanceof StructColumnBuilder) {
          plan.child = compileMessagePlan(field.message, valueNode.children, entry.children[1]);
        }
      }
      break;
    }
  }
  return plan;
}

function compileEnumNames(e: DescEnum): EnumNames {
  const names = new Map<number, Uint8Array>();
  for (const v of e.values) if (!names.has(v.number)) names.set(v.number, encodeUtf8(v.name));
  return { desc: e, closed: !e.open, names };
}
