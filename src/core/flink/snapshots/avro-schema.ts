/**
 * Avro schemas as flink-avro's AvroSerializerSnapshot saves them (the writer schema, Avro's JSON form): parsed
 * into a resolved tree (named types by full name, namespaces inherited, logical types kept as a label on their
 * underlying type). Only what reading values needs; no schema resolution or evolution rules (out of scope).
 */
export type AvroType =
  | { type: 'null' | 'boolean' | 'int' | 'long' | 'float' | 'double' | 'bytes' | 'string'; logicalType?: string }
  | { type: 'record'; name: string; fields: { name: string; type: AvroType }[] }
  | { type: 'enum'; name: string; symbols: string[] }
  | { type: 'fixed'; name: string; size: number; logicalType?: string }
  | { type: 'array'; items: AvroType }
  | { type: 'map'; values: AvroType }
  | { type: 'union'; branches: AvroType[] };

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string']);

/** Parses an Avro schema (JSON text); throws an Error saying what is wrong where. */
export function parseAvroSchema(text: string): AvroType {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`the saved Avro schema is not JSON (${(e as Error).message})`, { cause: e });
  }
  const named = new Map<string, AvroType>();
  return parse(json, '', named, 'schema');
}

function fullName(name: string, namespace: string | undefined, enclosing: string): string {
  if (name.includes('.')) return name;
  const ns = namespace ?? enclosing;
  return ns ? `${ns}.${name}` : name;
}

function parse(s: unknown, ns: string, named: Map<string, AvroType>, at: string): AvroType {
  if (typeof s === 'string') {
    if (PRIMITIVES.has(s)) return { type: s } as AvroType;
    const ref = named.get(s.includes('.') ? s : ns ? `${ns}.${s}` : s) ?? named.get(s);
    if (!ref) throw new Error(`the Avro schema names type "${s}" at ${at}, which is not defined before it`);
    return ref;
  }
  if (Array.isArray(s)) return { type: 'union', branches: s.map((b, i) => parse(b, ns, named, `${at} (union branch ${i})`)) };
  if (typeof s !== 'object' || s === null) throw new Error(`expected an Avro type at ${at}, found ${JSON.stringify(s)}`);
  const o = s as Record<string, unknown>;
  const t = o.type;
  const logicalType = typeof o.logicalType === 'string' ? o.logicalType : undefined;
  if (typeof t === 'string' && PRIMITIVES.has(t)) return logicalType ? ({ type: t, logicalType } as AvroType) : ({ type: t } as AvroType);
  if (t === 'record' || t === 'error') {
    const name = fullName(String(o.name), typeof o.namespace === 'string' ? o.namespace : undefined, ns);
    const inner = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : '';
    const record: AvroType = { type: 'record', name, fields: [] };
    named.set(name, record);
    if (!Array.isArray(o.fields)) throw new Error(`expected the fields of Avro record ${name} (at ${at}) as an array`);
    for (const f of o.fields as Record<string, unknown>[]) {
      record.fields.push({ name: String(f.name), type: parse(f.type, inner, named, `${name}.${String(f.name)}`) });
    }
    return record;
  }
  if (t === 'enum') {
    const name = fullName(String(o.name), typeof o.namespace === 'string' ? o.namespace : undefined, ns);
    const e: AvroType = { type: 'enum', name, symbols: Array.isArray(o.symbols) ? o.symbols.map(String) : [] };
    named.set(name, e);
    return e;
  }
  if (t === 'fixed') {
    const name = fullName(String(o.name), typeof o.namespace === 'string' ? o.namespace : undefined, ns);
    const size = Number(o.size);
    if (!Number.isInteger(size) || size < 0) throw new Error(`expected a non-negative size of Avro fixed ${name}, found ${JSON.stringify(o.size)}`);
    const f: AvroType = logicalType ? { type: 'fixed', name, size, logicalType } : { type: 'fixed', name, size };
    named.set(name, f);
    return f;
  }
  if (t === 'array') return { type: 'array', items: parse(o.items, ns, named, `${at} (array items)`) };
  if (t === 'map') return { type: 'map', values: parse(o.values, ns, named, `${at} (map values)`) };
  if (typeof t === 'object' && t !== null) return parse(t, ns, named, at);
  if (typeof t === 'string') return parse(t, ns, named, at);
  throw new Error(`expected an Avro type at ${at}, found ${JSON.stringify(s)}`);
}

/** A short label: a record's or named type's full name, else the type (array<…>, map<…>, union). */
export function describeAvroType(t: AvroType): string {
  switch (t.type) {
    case 'record':
    case 'enum':
    case 'fixed':
      return t.name;
    case 'array':
      return `array<${describeAvroType(t.items)}>`;
    case 'map':
      return `map<${describeAvroType(t.values)}>`;
    case 'union':
      return t.branches.map(describeAvroType).join(' | ');
    default:
      return t.logicalType ? `${t.type} (${t.logicalType})` : t.type;
  }
}
