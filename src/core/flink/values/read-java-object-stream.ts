/**
 * A small reader for the Java object serialization stream format (java.io.ObjectOutputStream,
 * protocol version 2), enough for the `CheckpointProperties` trailer of `_metadata` and for the
 * Java-serialized `LogicalType`s and `DataType`s in the serializer snapshots of Flink's Table runtime:
 * objects, class descriptors, strings, enums, arrays, class objects, null, back-references and block data.
 * What a class's `writeObject` wrote after its fields (e.g. an `ArrayList`'s elements) is kept in
 * the object's `annotations`. Externalizable classes, proxies and exceptions are reported as unsupported.
 *
 * Hostile streams: each handle remembers whether it holds a class descriptor or a value, and a
 * back-reference must name the kind its position needs (a string or an object where a class
 * descriptor belongs is `invalid-value`, as Java's ObjectInputStream refuses it); a superclass
 * chain may not refer back to itself and is at most MAX_SUPERCLASS_CHAIN long, so no descriptor
 * graph makes a walk of it loop.
 */
import { decodeModifiedUtf8, type ByteReader, formatHex } from '../../io';

export type JavaValue =
  | { kind: 'null' }
  | { kind: 'primitive'; type: string; value: number | bigint | boolean }
  | { kind: 'string'; value: string }
  | { kind: 'enum'; className: string; constant: string }
  | { kind: 'object'; className: string; fields: Record<string, JavaValue>; annotations?: JavaValue[] }
  | { kind: 'array'; className: string; items: JavaValue[] }
  | { kind: 'class'; className: string }
  | { kind: 'block-data'; length: number };

interface ClassDesc {
  name: string;
  flags: number;
  fields: { type: string; name: string }[];
  superClass: ClassDesc | null;
}

const TC = {
  NULL: 0x70,
  REFERENCE: 0x71,
  CLASSDESC: 0x72,
  OBJECT: 0x73,
  STRING: 0x74,
  ARRAY: 0x75,
  CLASS: 0x76,
  BLOCKDATA: 0x77,
  ENDBLOCKDATA: 0x78,
  RESET: 0x79,
  BLOCKDATALONG: 0x7a,
  LONGSTRING: 0x7c,
  PROXYCLASSDESC: 0x7d,
  ENUM: 0x7e,
} as const;
const BASE_HANDLE = 0x7e0000;
const MAX_DEPTH = 128;
/** Java class hierarchies are far shallower; a longer superclass chain is refused (limit-exceeded). */
const MAX_SUPERCLASS_CHAIN = 64;
const SC_WRITE_METHOD = 0x01;
const SC_SERIALIZABLE = 0x02;
const SC_EXTERNALIZABLE = 0x04;

/**
 * Reads `AC ED 00 05` and the first content element of the stream. `purpose` names what the
 * stream holds in messages (default: the checkpoint properties).
 */
export function readJavaSerializedObject(r: ByteReader, purpose = 'the checkpoint properties'): JavaValue {
  const at = r.position;
  const magic = r.readU16('Java serialization magic');
  const version = r.readU16('Java serialization version');
  if (magic !== 0xaced || version !== 5) {
    throw r.error('bad-magic', `expected a Java serialization stream (AC ED 00 05), found ${hex4(magic)} ${hex4(version)}`, at);
  }
  return new JavaStreamReader(r, purpose).readContent(0);
}

/** What a handle holds: a class descriptor or a value; null while its enum or array is being read. */
type Handle = { kind: 'desc'; desc: ClassDesc } | { kind: 'value'; value: JavaValue } | null;

class JavaStreamReader {
  private readonly handles: Handle[] = [];
  constructor(
    private readonly r: ByteReader,
    private readonly purpose: string,
  ) {}

  readContent(depth: number): JavaValue {
    const r = this.r;
    if (depth > MAX_DEPTH) throw r.error('limit-exceeded', `expected Java objects nested at most ${MAX_DEPTH} deep, found deeper nesting`);
    const at = r.position;
    const tc = r.readU8('Java serialization type code');
    switch (tc) {
      case TC.NULL:
        return { kind: 'null' };
      case TC.REFERENCE:
        return this.resolveValue(at);
      case TC.STRING:
        return this.newValue({ kind: 'string', value: r.readUtf('Java string') });
      case TC.LONGSTRING: {
        const n = r.readI64('Java long string length');
        if (n < 0n || n > BigInt(r.remaining))
          throw r.error(
            'limit-exceeded',
            `expected a Java string in ${this.purpose} within the ${r.remaining} bytes left, found a long string of ${n} bytes`,
            at,
          );
        const bytes = r.readBytes(Number(n), 'Java long string');
        const text = decodeModifiedUtf8(bytes);
        if ('error' in text) throw r.error('invalid-value', `expected a modified UTF-8 Java string, found ${text.error}`, at);
        return this.newValue({ kind: 'string', value: text.value });
      }
      case TC.ENUM: {
        const desc = this.readClassDesc(depth + 1);
        const slot = this.reserve();
        const constant = this.readContent(depth + 1);
        if (constant.kind !== 'string')
          throw r.error('invalid-value', `expected the enum constant name of ${desc?.name ?? 'an enum'} as a string, found ${constant.kind}`, at);
        return this.fill(slot, { kind: 'enum', className: desc?.name ?? '?', constant: constant.value });
      }
      case TC.OBJECT:
        return this.readObject(depth);
      case TC.ARRAY: {
        const desc = this.readClassDesc(depth + 1);
        const slot = this.reserve();
        const n = r.readCount('Java array elements', 1);
        const type = desc?.name.slice(1, 2) ?? 'L';
        const items: JavaValue[] = [];
        for (let i = 0; i < n; i++) items.push(this.readFieldValue(type, depth + 1));
        return this.fill(slot, { kind: 'array', className: desc?.name ?? '?', items });
      }
      case TC.CLASS: {
        const desc = this.readClassDesc(depth + 1);
        return this.newValue({ kind: 'class', className: desc?.name ?? '?' });
      }
      case TC.BLOCKDATA:
      case TC.BLOCKDATALONG: {
        const n = tc === TC.BLOCKDATA ? r.readU8('block data length') : r.readI32('block data length');
        r.skip(n, 'block data');
        return { kind: 'block-data', length: n };
      }
      default:
        throw r.error('not-recognised', `expected a Java serialization element (0x70–0x7e), found type code 0x${formatHex([tc])}`, at);
    }
  }

  private readObject(depth: number): JavaValue {
    const desc = this.readClassDesc(depth + 1);
    if (desc === null) throw this.r.error('invalid-value', 'expected a class descriptor for a Java object, found null');
    const obj: JavaValue & { kind: 'object' } = { kind: 'object', className: desc.name, fields: {} };
    this.newValue(obj);
    // acyclic and at most MAX_SUPERCLASS_CHAIN long: checked as each superclass was read
    const chain: ClassDesc[] = [];
    for (let d: ClassDesc | null = desc; d !== null; d = d.superClass) chain.unshift(d);
    for (const d of chain) {
      if ((d.flags & SC_EXTERNALIZABLE) !== 0) {
        throw this.r.error('unsupported-format', `expected a Serializable class in ${this.purpose}, found the Externalizable class ${d.name}`);
      }
      if ((d.flags & SC_SERIALIZABLE) === 0) continue;
      for (const f of d.fields) obj.fields[f.name] = this.readFieldValue(f.type, depth + 1);
      if ((d.flags & SC_WRITE_METHOD) !== 0) {
        const annotations = this.readAnnotation(depth + 1);
        if (annotations.length > 0) obj.annotations = [...(obj.annotations ?? []), ...annotations];
      }
    }
    return obj;
  }

  private readFieldValue(type: string, depth: number): JavaValue {
    const r = this.r;
    switch (type) {
      case 'B':
        return { kind: 'primitive', type, value: r.readI8('Java byte field') };
      case 'C':
        return { kind: 'primitive', type, value: r.readU16('Java char field') };
      case 'D':
        return { kind: 'primitive', type, value: r.readF64('Java double field') };
      case 'F':
        return { kind: 'primitive', type, value: r.readF32('Java float field') };
      case 'I':
        return { kind: 'primitive', type, value: r.readI32('Java int field') };
      case 'J':
        return { kind: 'primitive', type, value: r.readI64('Java long field') };
      case 'S':
        return { kind: 'primitive', type, value: r.readI16('Java short field') };
      case 'Z':
        return { kind: 'primitive', type, value: r.readBool('Java boolean field') };
      default:
        return this.readContent(depth);
    }
  }

  private readClassDesc(depth: number): ClassDesc | null {
    const r = this.r;
    if (depth > MAX_DEPTH) throw r.error('limit-exceeded', `expected Java class descriptors nested at most ${MAX_DEPTH} deep, found deeper nesting`);
    const at = r.position;
    const tc = r.readU8('Java class descriptor type code');
    if (tc === TC.NULL) return null;
    if (tc === TC.REFERENCE) return this.resolveDesc(at);
    if (tc === TC.PROXYCLASSDESC) throw r.error('unsupported-format', 'expected a class descriptor, found a dynamic proxy class descriptor', at);
    if (tc !== TC.CLASSDESC) throw r.error('invalid-value', `expected a Java class descriptor (0x72, 0x71 or 0x70), found 0x${formatHex([tc])}`, at);
    const name = r.readUtf('Java class name');
    r.readI64('serialVersionUID');
    const desc: ClassDesc = { name, flags: 0, fields: [], superClass: null };
    this.handles.push({ kind: 'desc', desc });
    desc.flags = r.readU8('Java class flags');
    const n = r.readI16('number of Java fields');
    r.checkCount(n, 'Java fields', 3);
    for (let i = 0; i < n; i++) {
      const type = String.fromCharCode(r.readU8('Java field type code'));
      const fieldName = r.readUtf('Java field name');
      if (type === 'L' || type === '[')
        this.readContent(depth + 1); // the field's type signature string
      else if (!'BCDFIJSZ'.includes(type))
        throw r.error('invalid-value', `expected a Java field type code, found '${type}' for field ${fieldName}`, r.position - fieldName.length - 3);
      desc.fields.push({ type, name: fieldName });
    }
    this.readAnnotation(depth + 1);
    const superAt = r.position;
    const superClass = this.readClassDesc(depth + 1);
    checkSuperclassChain(r, desc, superClass, superAt);
    desc.superClass = superClass;
    return desc;
  }

  /** The contents up to TC_ENDBLOCKDATA (a class annotation, or what a `writeObject` wrote after the fields). */
  private readAnnotation(depth: number): JavaValue[] {
    const out: JavaValue[] = [];
    for (;;) {
      if (this.r.peekU8() === TC.ENDBLOCKDATA) {
        this.r.skip(1);
        return out;
      }
      out.push(this.readContent(depth));
    }
  }

  private resolveDesc(at: number): ClassDesc {
    const h = this.resolve(at, 'a class descriptor');
    if (h.kind !== 'desc') throw this.r.error('invalid-value', `expected a back-reference to a class descriptor, found one to ${describeValue(h.value)}`, at);
    return h.desc;
  }
  private resolveValue(at: number): JavaValue {
    const h = this.resolve(at, 'an object');
    if (h.kind !== 'value')
      throw this.r.error('invalid-value', `expected a back-reference to an object, found one to the class descriptor of ${h.desc.name}`, at);
    return h.value;
  }
  private resolve(at: number, what: string): NonNullable<Handle> {
    const h = this.r.readI32('Java back-reference handle');
    const v = this.handles[h - BASE_HANDLE];
    if (v === null)
      throw this.r.error(
        'invalid-value',
        `expected a back-reference to ${what}, found one to handle 0x${(h >>> 0).toString(16)}, the enum or array still being read`,
        at,
      );
    if (v === undefined)
      throw this.r.error(
        'invalid-value',
        `expected a back-reference to ${what} (handle 0x7e0000–0x${(BASE_HANDLE + this.handles.length - 1).toString(16)}), found 0x${(h >>> 0).toString(16)}`,
        at,
      );
    return v;
  }
  private newValue<T extends JavaValue>(v: T): T {
    this.handles.push({ kind: 'value', value: v });
    return v;
  }
  private reserve(): number {
    this.handles.push(null);
    return this.handles.length - 1;
  }
  private fill<T extends JavaValue>(slot: number, v: T): T {
    this.handles[slot] = { kind: 'value', value: v };
    return v;
  }
}

/** A superclass that is `desc` itself or has `desc` above it would make the chain a cycle; a chain longer than MAX_SUPERCLASS_CHAIN is refused. */
function checkSuperclassChain(r: ByteReader, desc: ClassDesc, superClass: ClassDesc | null, at: number): void {
  let length = 1;
  for (let d = superClass; d !== null; d = d.superClass) {
    if (d === desc)
      throw r.error(
        'invalid-value',
        `expected the superclass chain of ${desc.name} to end, found it refers back to ${desc.name} (a cycle of ${length} class descriptor${length === 1 ? '' : 's'})`,
        at,
      );
    if (++length > MAX_SUPERCLASS_CHAIN)
      throw r.error('limit-exceeded', `expected a superclass chain of at most ${MAX_SUPERCLASS_CHAIN} classes below ${desc.name}, found a longer one`, at);
  }
}

function describeValue(v: JavaValue): string {
  switch (v.kind) {
    case 'string':
      return `a string ("${v.value.length > 40 ? `${v.value.slice(0, 40)}…` : v.value}")`;
    case 'object':
      return `an object of ${v.className}`;
    case 'enum':
      return `an enum constant ${v.className}.${v.constant}`;
    case 'array':
      return `an array ${v.className}`;
    case 'class':
      return `the class object of ${v.className}`;
    default:
      return `a ${v.kind}`;
  }
}

function hex4(v: number): string {
  return v
    .toString(16)
    .toUpperCase()
    .padStart(4, '0')
    .replace(/(..)(..)/, '$1 $2');
}
