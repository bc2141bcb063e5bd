/**
 * The plan ProtobufWireAppender (append-protobuf-wire-value.ts) follows: the wire paths' one plan
 * (walk-protobuf-wire.ts: per message of the exported type, its fields with what each accepts on the
 * wire), each field with its column builder and nested plan, compiled once per export from the
 * descriptor and the Parquet schema; and the small helpers of the cells it appends (enum names, a
 * map's missing scalar value).
 */
import { ScalarType, type DescEnum, type DescMessage } from '@bufbuild/protobuf';
import { encodeUtf8 } from '../protobuf';
import { ListColumnBuilder, StructColumnBuilder, type ColumnBuilder } from './arrow-column-builders';
import type { ParquetNode } from './parquet-schema-types';
import { compileWirePlan, type WireField, type WireMessagePlan } from './walk-protobuf-wire';

export interface FieldPlan extends WireField {
  builder: ColumnBuilder;
  /** list: the element builder; map: the entry struct */
  element: ColumnBuilder | undefined;
  /** message, list of messages, map of messages: the nested plan (undefined: cut off by recursion) */
  child: MessagePlan | undefined;
  enumNames: EnumNames | undefined;
}

export interface EnumNames {
  desc: DescEnum;
  closed: boolean;
  names: Map<number, Uint8Array>;
}

export type MessagePlan = WireMessagePlan<FieldPlan>;

const EMPTY = new Uint8Array(0);

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

export function compileMessagePlan(desc: DescMessage, nodes: readonly ParquetNode[], builder: StructColumnBuilder): MessagePlan {
  return compileWirePlan(desc, (base) => compileFieldPlan(base, nodes[base.index]!, builder.children[base.index]!));
}

function compileFieldPlan(base: WireField, node: ParquetNode, builder: ColumnBuilder): FieldPlan {
  const plan: FieldPlan = { ...base, builder, element: undefined, child: undefined, enumNames: undefined };
  const field = base.field;
  const cut = node.children === undefined;
  switch (field.fieldKind) {
    case 'enum':
      plan.enumNames = compileEnumNames(field.enum);
      break;
    case 'message':
      if (!cut && builder instanceof StructColumnBuilder) plan.child = compileMessagePlan(field.message, node.children!, builder);
      break;
    case 'list':
      if (builder instanceof ListColumnBuilder) plan.element = builder.element;
      if (field.listKind === 'enum') plan.enumNames = compileEnumNames(field.enum);
      else if (field.listKind === 'message' && !cut && plan.element instanceof StructColumnBuilder)
        plan.child = compileMessagePlan(field.message, node.children!, plan.element);
      break;
    case 'map': {
      if (builder instanceof ListColumnBuilder) plan.element = builder.element;
      if (field.mapKind === 'enum') plan.enumNames = compileEnumNames(field.enum);
      else if (field.mapKind === 'message') {
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
