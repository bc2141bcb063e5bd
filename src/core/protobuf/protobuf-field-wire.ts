/**
 * Which wire types a declared field accepts (protobuf-java generated parsers switch on the full
 * tag, so any other wire type makes the field unknown), and field lookup by number.
 */
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { WIRE_FIXED32, WIRE_FIXED64, WIRE_LEN, WIRE_START_GROUP, WIRE_VARINT } from './wire-input';

export function getScalarWireType(t: ScalarType): number {
  switch (t) {
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return WIRE_FIXED64;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return WIRE_FIXED32;
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WIRE_LEN;
    default:
      return WIRE_VARINT;
  }
}

/** Bit mask of the wire types the field accepts (bit w set = wire type w accepted). */
export function getAcceptedWireTypes(field: DescField): number {
  switch (field.fieldKind) {
    case 'scalar':
      return 1 << getScalarWireType(field.scalar);
    case 'enum':
      return 1 << WIRE_VARINT;
    case 'message':
      return 1 << (field.delimitedEncoding ? WIRE_START_GROUP : WIRE_LEN);
    case 'map':
      return 1 << WIRE_LEN;
    case 'list':
      if (field.listKind === 'message') return 1 << (field.delimitedEncoding ? WIRE_START_GROUP : WIRE_LEN);
      if (field.listKind === 'enum') return (1 << WIRE_VARINT) | (1 << WIRE_LEN);
      {
        const wt = getScalarWireType(field.scalar);
        return wt === WIRE_LEN ? 1 << WIRE_LEN : (1 << wt) | (1 << WIRE_LEN);
      }
  }
}

const fieldIndexCache = new WeakMap<DescMessage, Map<number, DescField>>();

export function findFieldByNumber(desc: DescMessage, no: number): DescField | undefined {
  let index = fieldIndexCache.get(desc);
  if (index === undefined) {
    index = new Map(desc.fields.map((f) => [f.number, f]));
    fieldIndexCache.set(desc, index);
  }
  return index.get(no);
}
