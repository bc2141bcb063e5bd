import type { ByteReader } from '../../io';
import type { DecodedValue, SerializerSnapshot, SnapshotReader, ValueCodec } from './snapshot-types';
import * as v from '../values';

/** What a SimpleTypeSerializerSnapshot class stands for. */
interface SimpleType {
  label: string;
  fixedLength: number;
  codec: ValueCodec;
  /** opaque: values are shown as bytes (Java serialization); known otherwise */
  status?: 'known' | 'opaque';
}

const BASE = 'org.apache.flink.api.common.typeutils.base.';
const ARRAY = 'org.apache.flink.api.common.typeutils.base.array.';

const voidNamespaceCodec: ValueCodec = {
  decode(r) {
    r.readU8('VoidNamespace byte');
    return { kind: 'void-namespace' };
  },
  skip: v.skipFixed(1),
};
const timeWindowCodec: ValueCodec = {
  decode(r) {
    const start = r.readI64('TimeWindow start').toString();
    const end = r.readI64('TimeWindow end').toString();
    return { kind: 'time-window', start, end };
  },
  skip: v.skipFixed(16),
};
const globalWindowCodec: ValueCodec = {
  decode(r) {
    r.readU8('GlobalWindow byte');
    return { kind: 'global-window' };
  },
  skip: v.skipFixed(1),
};
const tuple0Codec: ValueCodec = {
  decode(r): DecodedValue {
    r.readU8('Tuple0 byte');
    return { kind: 'tuple', className: 'org.apache.flink.api.java.tuple.Tuple0', fields: [] };
  },
};

function base(name: string): string {
  return `${BASE}${name}Serializer$${name}SerializerSnapshot`;
}
function array(name: string): string {
  return `${ARRAY}${name}Serializer$${name}SerializerSnapshot`;
}

/** binary snapshot class name → type */
export const SIMPLE_TYPES: ReadonlyMap<string, SimpleType> = new Map<string, SimpleType>([
  [base('Int'), { label: 'Integer', fixedLength: 4, codec: v.intCodec }],
  [base('Long'), { label: 'Long', fixedLength: 8, codec: v.longCodec }],
  [base('Short'), { label: 'Short', fixedLength: 2, codec: v.shortCodec }],
  [base('Byte'), { label: 'Byte', fixedLength: 1, codec: v.byteCodec }],
  [base('Char'), { label: 'Character', fixedLength: 2, codec: v.charCodec }],
  [base('Boolean'), { label: 'Boolean', fixedLength: 1, codec: v.booleanCodec }],
  [base('Float'), { label: 'Float', fixedLength: 4, codec: v.floatCodec }],
  [base('Double'), { label: 'Double', fixedLength: 8, codec: v.doubleCodec }],
  [base('String'), { label: 'String', fixedLength: -1, codec: v.stringCodec }],
  [base('BigInt'), { label: 'BigInteger', fixedLength: -1, codec: v.bigIntCodec }],
  [base('BigDec'), { label: 'BigDecimal', fixedLength: -1, codec: v.bigDecCodec }],
  [base('Date'), { label: 'Date', fixedLength: 8, codec: v.dateCodec }],
  [base('SqlDate'), { label: 'SqlDate', fixedLength: 8, codec: v.sqlDateCodec }],
  [base('SqlTime'), { label: 'SqlTime', fixedLength: 8, codec: v.sqlTimeCodec }],
  [base('SqlTimestamp'), { label: 'SqlTimestamp', fixedLength: 12, codec: v.sqlTimestampCodec }],
  [base('Instant'), { label: 'Instant', fixedLength: 12, codec: v.instantCodec }],
  [base('LocalDate'), { label: 'LocalDate', fixedLength: 6, codec: v.localDateCodec }],
  [base('LocalTime'), { label: 'LocalTime', fixedLength: 7, codec: v.localTimeCodec }],
  [base('LocalDateTime'), { label: 'LocalDateTime', fixedLength: 13, codec: v.localDateTimeCodec }],
  [base('Void'), { label: 'Void', fixedLength: 1, codec: v.voidCodec }],
  [base('NullValue'), { label: 'NullValue', fixedLength: 0, codec: v.nullValueCodec }],
  [base('IntValue'), { label: 'IntValue', fixedLength: 4, codec: v.intCodec }],
  [base('LongValue'), { label: 'LongValue', fixedLength: 8, codec: v.longCodec }],
  [base('ShortValue'), { label: 'ShortValue', fixedLength: 2, codec: v.shortCodec }],
  [base('ByteValue'), { label: 'ByteValue', fixedLength: 1, codec: v.byteCodec }],
  [base('CharValue'), { label: 'CharValue', fixedLength: 2, codec: v.charCodec }],
  [base('BooleanValue'), { label: 'BooleanValue', fixedLength: 1, codec: v.booleanCodec }],
  [base('FloatValue'), { label: 'FloatValue', fixedLength: 4, codec: v.floatCodec }],
  [base('DoubleValue'), { label: 'DoubleValue', fixedLength: 8, codec: v.doubleCodec }],
  [base('StringValue'), { label: 'StringValue', fixedLength: -1, codec: v.stringValueCodec }],
  [array('BytePrimitiveArray'), { label: 'byte[]', fixedLength: -1, codec: v.bytePrimitiveArrayCodec }],
  [array('IntPrimitiveArray'), { label: 'int[]', fixedLength: -1, codec: v.intPrimitiveArrayCodec }],
  [array('LongPrimitiveArray'), { label: 'long[]', fixedLength: -1, codec: v.longPrimitiveArrayCodec }],
  [array('ShortPrimitiveArray'), { label: 'short[]', fixedLength: -1, codec: v.shortPrimitiveArrayCodec }],
  [array('CharPrimitiveArray'), { label: 'char[]', fixedLength: -1, codec: v.charPrimitiveArrayCodec }],
  [array('FloatPrimitiveArray'), { label: 'float[]', fixedLength: -1, codec: v.floatPrimitiveArrayCodec }],
  [array('DoublePrimitiveArray'), { label: 'double[]', fixedLength: -1, codec: v.doublePrimitiveArrayCodec }],
  [array('BooleanPrimitiveArray'), { label: 'boolean[]', fixedLength: -1, codec: v.booleanPrimitiveArrayCodec }],
  [array('StringArray'), { label: 'String[]', fixedLength: -1, codec: v.stringArrayCodec }],
  [
    'org.apache.flink.runtime.state.VoidNamespaceSerializer$VoidNamespaceSerializerSnapshot',
    { label: 'VoidNamespace', fixedLength: 0, codec: voidNamespaceCodec },
  ],
  [
    'org.apache.flink.runtime.state.JavaSerializer$JavaSerializerSnapshot',
    { label: 'Java serialization', fixedLength: -1, codec: v.javaSerializedCodec, status: 'opaque' },
  ],
  [
    'org.apache.flink.streaming.api.windowing.windows.TimeWindow$Serializer$TimeWindowSerializerSnapshot',
    { label: 'TimeWindow', fixedLength: 16, codec: timeWindowCodec },
  ],
  [
    'org.apache.flink.streaming.api.windowing.windows.GlobalWindow$Serializer$GlobalWindowSerializerSnapshot',
    { label: 'GlobalWindow', fixedLength: 1, codec: globalWindowCodec },
  ],
  ['org.apache.flink.api.java.typeutils.runtime.Tuple0SerializerSnapshot', { label: 'Tuple0', fixedLength: 1, codec: tuple0Codec }],
]);

/**
 * SimpleTypeSerializerSnapshot: version 3 has no content, version 2 one `utf`
 * (the serializer class name).
 */
export const simpleSnapshotReader: SnapshotReader = {
  classNames: [...SIMPLE_TYPES.keys()],
  read(r: ByteReader, version, className): SerializerSnapshot {
    const type = SIMPLE_TYPES.get(className)!;
    const details: Record<string, unknown> = {};
    if (version === 2) details.serializerClass = r.readUtf('serializer class name');
    else if (version !== 3) throw r.error('unsupported-version', `expected ${className} version 2 or 3, found ${version}`);
    return {
      className,
      version,
      typeLabel: type.label,
      status: type.status ?? 'known',
      nested: [],
      fixedLength: type.fixedLength,
      codec: type.codec,
      ...(version === 2 ? { details } : {}),
    };
  },
};
