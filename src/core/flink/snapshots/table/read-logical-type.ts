/**
 * Flink Table `LogicalType`s as Java serialization writes them into the serializer snapshots of the
 * Table runtime (`RowDataSerializerSnapshot` writes one Java serialization stream per field type,
 * `ExternalSerializerSnapshot` one per `DataType`). Each stream is read with the generic Java
 * stream reader and turned into a `LogicalType`: the `LogicalTypeRoot` name, nullability and the
 * parameters the binary layout needs (length, precision, scale, element / key / value / field types).
 */
import type { ByteReader } from '../../../io';
import { readJavaSerializedObject, type JavaValue } from '../../values/read-java-object-stream';

export interface LogicalType {
  /** the `LogicalTypeRoot` constant: `BIGINT`, `VARCHAR`, `TIMESTAMP_WITHOUT_TIME_ZONE`, `ROW`, … */
  root: string;
  nullable: boolean;
  /** the Java class, e.g. `org.apache.flink.table.types.logical.BigIntType` */
  className: string;
  length?: number;
  precision?: number;
  scale?: number;
  /** ARRAY, MULTISET */
  element?: LogicalType;
  /** MAP */
  key?: LogicalType;
  value?: LogicalType;
  /** ROW (and STRUCTURED_TYPE attributes) */
  fields?: { name: string; type: LogicalType }[];
  /** DISTINCT_TYPE: the type it is stored as */
  source?: LogicalType;
  /** RAW: the class of its values */
  rawClass?: string;
}

const MAX_TYPE_DEPTH = 32;

/** Reads one Java serialization stream holding a LogicalType. */
export function readLogicalTypeStream(r: ByteReader, what: string): LogicalType {
  const at = r.position;
  const value = readJavaSerializedObject(r, what);
  return toLogicalType(r, value, at, 0);
}

/** Reads one Java serialization stream holding a `DataType` and returns its logical type. */
export function readDataTypeStream(r: ByteReader, what: string): LogicalType {
  const at = r.position;
  const value = readJavaSerializedObject(r, what);
  if (value.kind !== 'object' || value.fields['logicalType'] === undefined) {
    throw r.error('invalid-value', `expected a Java-serialized DataType with a logicalType field in ${what}, found ${describe(value)}`, at);
  }
  return toLogicalType(r, value.fields['logicalType'], at, 0);
}

/** Reads one Java serialization stream holding a `LogicalType` or a `DataType` (whose logical type it returns). */
export function readLogicalOrDataTypeStream(r: ByteReader, what: string): LogicalType {
  const at = r.position;
  const value = readJavaSerializedObject(r, what);
  const logical = value.kind === 'object' && value.fields['logicalType'] !== undefined ? value.fields['logicalType'] : value;
  return toLogicalType(r, logical, at, 0);
}

function toLogicalType(r: ByteReader, v: JavaValue, at: number, depth: number): LogicalType {
  if (depth > MAX_TYPE_DEPTH) throw r.error('limit-exceeded', `expected logical types nested at most ${MAX_TYPE_DEPTH} deep, found deeper nesting`, at);
  if (v.kind !== 'object') throw r.error('invalid-value', `expected a Java-serialized LogicalType object, found ${describe(v)}`, at);
  const f = v.fields;
  const root = f['typeRoot'];
  const nullable = f['isNullable'];
  if (root?.kind !== 'enum' || nullable?.kind !== 'primitive' || typeof nullable.value !== 'boolean') {
    throw r.error('invalid-value', `expected a LogicalType (fields isNullable and typeRoot), found an object of ${v.className}`, at);
  }
  const t: LogicalType = { root: root.constant, nullable: nullable.value, className: v.className };
  const int = (name: string) => {
    const x = f[name];
    return x?.kind === 'primitive' && typeof x.value === 'number' ? x.value : undefined;
  };
  const length = int('length');
  if (length !== undefined) t.length = length;
  // TIMESTAMP, TIME, interval fractional precision …; DECIMAL precision and scale
  const precision = int('precision') ?? int('fractionalPrecision');
  if (precision !== undefined) t.precision = precision;
  const scale = int('scale');
  if (scale !== undefined) t.scale = scale;
  const nested = (name: string) => (f[name] === undefined || f[name]!.kind === 'null' ? undefined : toLogicalType(r, f[name]!, at, depth + 1));
  const element = nested('elementType');
  if (element !== undefined) t.element = element;
  const key = nested('keyType');
  if (key !== undefined) t.key = key;
  const value = nested('valueType');
  if (value !== undefined) t.value = value;
  const source = nested('sourceType');
  if (source !== undefined) t.source = source;
  const rawClass = f['clazz'];
  if (rawClass?.kind === 'class') t.rawClass = rawClass.className;
  const rowFields = f['fields'] ?? f['attributes'];
  if (rowFields !== undefined && rowFields.kind !== 'null') {
    t.fields = listJavaItems(rowFields).map((item) => {
      if (item.kind !== 'object') throw r.error('invalid-value', `expected a row field object of ${v.className}, found ${describe(item)}`, at);
      const name = item.fields['name'];
      const type = item.fields['type'];
      if (name?.kind !== 'string' || type === undefined)
        throw r.error('invalid-value', `expected a row field with a name and a type, found an object of ${item.className}`, at);
      return { name: name.value, type: toLogicalType(r, type, at, depth + 1) };
    });
  }
  return t;
}

/** The elements of a Java-serialized list: an ArrayList (its writeObject writes them after the size), wrapped by Collections.unmodifiableList, or an array. */
function listJavaItems(v: JavaValue, depth = 0): JavaValue[] {
  if (depth > 8) return [];
  if (v.kind === 'array') return v.items;
  if (v.kind !== 'object') return [];
  if (v.annotations !== undefined) return v.annotations.filter((a) => a.kind !== 'block-data');
  for (const name of ['list', 'c', 'a']) {
    const inner = v.fields[name];
    if (inner !== undefined && inner.kind !== 'null') return listJavaItems(inner, depth + 1);
  }
  return [];
}

function describe(v: JavaValue): string {
  return v.kind === 'object' ? `an object of ${v.className}` : v.kind === 'enum' ? `the enum constant ${v.constant}` : `a ${v.kind}`;
}

/** Flink's summary text of a type: `BIGINT`, `VARCHAR(2147483647) NOT NULL`, `ROW<a INT, b STRING>`, `DECIMAL(10, 2)`. */
export function formatLogicalType(t: LogicalType): string {
  return `${formatBare(t)}${t.nullable ? '' : ' NOT NULL'}`;
}

const ROOT_NAMES: Record<string, string> = {
  TINYINT: 'TINYINT',
  SMALLINT: 'SMALLINT',
  INTEGER: 'INT',
  BIGINT: 'BIGINT',
  FLOAT: 'FLOAT',
  DOUBLE: 'DOUBLE',
  BOOLEAN: 'BOOLEAN',
  DATE: 'DATE',
  NULL: 'NULL',
};

function formatBare(t: LogicalType): string {
  switch (t.root) {
    case 'CHAR':
    case 'VARCHAR':
    case 'BINARY':
    case 'VARBINARY':
      return `${t.root}(${t.length ?? '?'})`;
    case 'DECIMAL':
      return `DECIMAL(${t.precision ?? '?'}, ${t.scale ?? '?'})`;
    case 'TIME_WITHOUT_TIME_ZONE':
      return `TIME(${t.precision ?? '?'})`;
    case 'TIMESTAMP_WITHOUT_TIME_ZONE':
      return `TIMESTAMP(${t.precision ?? '?'})`;
    case 'TIMESTAMP_WITH_LOCAL_TIME_ZONE':
      return `TIMESTAMP_LTZ(${t.precision ?? '?'})`;
    case 'TIMESTAMP_WITH_TIME_ZONE':
      return `TIMESTAMP(${t.precision ?? '?'}) WITH TIME ZONE`;
    case 'ARRAY':
    case 'MULTISET':
      return `${t.root}<${t.element === undefined ? '?' : formatLogicalType(t.element)}>`;
    case 'MAP':
      return `MAP<${t.key === undefined ? '?' : formatLogicalType(t.key)}, ${t.value === undefined ? '?' : formatLogicalType(t.value)}>`;
    case 'ROW':
      return `ROW<${(t.fields ?? []).map((f) => `${f.name} ${formatLogicalType(f.type)}`).join(', ')}>`;
    case 'RAW':
      return `RAW(${t.rawClass ?? '?'})`;
    case 'DISTINCT_TYPE':
      return t.source === undefined ? 'DISTINCT' : `DISTINCT ${formatLogicalType(t.source)}`;
    default:
      return ROOT_NAMES[t.root] ?? t.root;
  }
}
