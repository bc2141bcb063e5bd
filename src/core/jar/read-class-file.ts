/**
 * A JVM class file (JVMS §4) as far as the job-jar reader needs it: the constant pool (every tag of
 * Java 21, JVMS table 4.4-B), this class, the methods and their `Code` attributes. Constant-pool
 * strings are decoded on demand (modified UTF-8, JVMS §4.4.7), so a class that is only looked at
 * for one method costs a walk over its pool. A damaged class is a DecodeError naming the class
 * entry (`app.jar!/com/x/Outer.class`), the byte offset in it and what was wrong.
 */
import { ByteReader, DecodeError, decodeModifiedUtf8 } from '../io';

export const CLASS_MAGIC = 0xcafebabe;

/** Constant-pool tags (JVMS table 4.4-B). */
export const CP = {
  utf8: 1,
  integer: 3,
  float: 4,
  long: 5,
  double: 6,
  class: 7,
  string: 8,
  fieldref: 9,
  methodref: 10,
  interfaceMethodref: 11,
  nameAndType: 12,
  methodHandle: 15,
  methodType: 16,
  dynamic: 17,
  invokeDynamic: 18,
  module: 19,
  package: 20,
} as const;

/** bytes after the tag of each fixed-size entry */
const FIXED_SIZES: Readonly<Record<number, number>> = {
  [CP.integer]: 4,
  [CP.float]: 4,
  [CP.long]: 8,
  [CP.double]: 8,
  [CP.class]: 2,
  [CP.string]: 2,
  [CP.fieldref]: 4,
  [CP.methodref]: 4,
  [CP.interfaceMethodref]: 4,
  [CP.nameAndType]: 4,
  [CP.methodHandle]: 3,
  [CP.methodType]: 2,
  [CP.dynamic]: 4,
  [CP.invokeDynamic]: 4,
  [CP.module]: 2,
  [CP.package]: 2,
};

export interface MethodCode {
  /** the bytecode (a view into the class bytes) */
  code: Uint8Array;
  /** offset of code[0] in the class file */
  codeOffset: number;
}

export interface ClassMethod {
  name: string;
  descriptor: string;
  /** offset of the method_info in the class file */
  offset: number;
  code?: MethodCode;
}

export interface MemberRef {
  tag: number;
  owner: string;
  name: string;
  descriptor: string;
}

export interface ClassFile {
  /** `app.jar!/com/x/Outer.class` */
  readonly file: string;
  readonly bytes: Uint8Array;
  /** internal name (`com/x/Outer`) */
  readonly thisClass: string;
  readonly majorVersion: number;
  readonly methods: readonly ClassMethod[];
  /** number of constant-pool slots (constant_pool_count - 1) */
  readonly poolSize: number;
  tagAt(index: number): number | undefined;
  utf8At(index: number): string;
  classNameAt(index: number): string;
  /** a CONSTANT_String's value */
  stringAt(index: number): string;
  integerAt(index: number): number;
  memberAt(index: number): MemberRef;
  /** the Utf8 entries' raw bytes equal `ascii` somewhere in the pool (a cheap look before parsing methods) */
  hasUtf8(ascii: string): boolean;
  /** every CONSTANT_String value, in pool order */
  listStrings(): string[];
}

/** Reads a class file; throws a DecodeError for anything that is not one or is damaged. */
export function readClassFile(bytes: Uint8Array, file: string): ClassFile {
  const r = new ByteReader(bytes, { file, path: ['class file'] });
  const magic = r.readU32('class file magic');
  if (magic !== CLASS_MAGIC) {
    throw new DecodeError({
      code: 'bad-magic',
      detail: `expected a class file (magic 0xCAFEBABE), found 0x${magic.toString(16).padStart(8, '0')}`,
      file,
      offset: 0,
    });
  }
  r.readU16('minor version');
  const majorVersion = r.readU16('major version');
  const count = r.readU16('constant pool count');
  if (count === 0) throw r.error('invalid-value', 'expected a constant pool count of at least 1, found 0', r.position - 2);
  const tags = new Uint8Array(count);
  const offsets = new Uint32Array(count);
  for (let i = 1; i < count; i++) {
    const at = r.position;
    const tag = r.readU8(`tag of constant pool entry ${i}`);
    tags[i] = tag;
    offsets[i] = at + 1;
    if (tag === CP.utf8) {
      const n = r.readU16(`length of constant pool entry ${i} (Utf8)`);
      r.skip(n, `constant pool entry ${i} (${n} bytes of modified UTF-8)`);
    } else {
      const size = FIXED_SIZES[tag];
      if (size === undefined)
        throw r.error(
          'invalid-value',
          `expected a constant pool tag (1, 3–12, 15–20) for entry ${i} of ${count - 1}, found ${tag}: the constant pool is broken`,
          at,
        );
      r.skip(size, `constant pool entry ${i}`);
      // long and double take two slots (JVMS §4.4.5)
      if (tag === CP.long || tag === CP.double) i++;
    }
  }
  const utf8Cache = new Map<number, string>();
  const fail = (detail: string, at: number): DecodeError =>
    new DecodeError({ code: 'invalid-value', detail: `${detail}: the constant pool is broken`, file, offset: at, path: ['class file', 'constant pool'] });
  const expectTag = (index: number, tag: number, what: string, at: number): number => {
    if (!Number.isInteger(index) || index < 1 || index >= count || tags[index] !== tag) {
      const found = index >= 1 && index < count ? `an entry of tag ${tags[index]}` : 'no entry';
      throw fail(`expected ${what} at constant pool index ${index}, found ${found}`, at);
    }
    return offsets[index]!;
  };
  const u16 = (at: number): number => (bytes[at]! << 8) | bytes[at + 1]!;
  const utf8At = (index: number, at = 8): string => {
    const cached = utf8Cache.get(index);
    if (cached !== undefined) return cached;
    const start = expectTag(index, CP.utf8, 'a Utf8 entry', at);
    const n = u16(start);
    const decoded = decodeModifiedUtf8(bytes, start + 2, start + 2 + n);
    if ('error' in decoded) throw fail(`expected modified UTF-8 in constant pool entry ${index}, found ${decoded.error}`, decoded.at);
    utf8Cache.set(index, decoded.value);
    return decoded.value;
  };
  /** the offset of an entry's tag byte (for messages), or of the pool's count when the index is outside it */
  const entryOffset = (index: number): number => (index >= 1 && index < count && tags[index] !== 0 ? offsets[index]! - 1 : 8);
  const classNameAt = (index: number, at = entryOffset(index)): string => utf8At(u16(expectTag(index, CP.class, 'a Class entry', at)), offsets[index]!);
  const classFile: Omit<ClassFile, 'thisClass' | 'methods'> = {
    file,
    bytes,
    majorVersion,
    poolSize: count - 1,
    tagAt: (index) => (index >= 1 && index < count && tags[index] !== 0 ? tags[index] : undefined),
    utf8At: (index) => utf8At(index),
    classNameAt: (index) => classNameAt(index),
    stringAt: (index) => utf8At(u16(expectTag(index, CP.string, 'a String entry', entryOffset(index))), offsets[index]!),
    integerAt: (index) => {
      const at = expectTag(index, CP.integer, 'an Integer entry', entryOffset(index));
      return (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]! | 0;
    },
    memberAt: (index) => {
      const tag = tags[index];
      if (tag !== CP.fieldref && tag !== CP.methodref && tag !== CP.interfaceMethodref) {
        throw fail(
          `expected a Fieldref/Methodref/InterfaceMethodref entry at constant pool index ${index}, found ${index >= 1 && index < count ? `an entry of tag ${tag}` : 'no entry'}`,
          entryOffset(index),
        );
      }
      const at = offsets[index]!;
      const nat = expectTag(u16(at + 2), CP.nameAndType, 'a NameAndType entry', at);
      return { tag, owner: classNameAt(u16(at), at), name: utf8At(u16(nat), nat), descriptor: utf8At(u16(nat + 2), nat) };
    },
    hasUtf8: (ascii) => {
      outer: for (let i = 1; i < count; i++) {
        if (tags[i] !== CP.utf8) continue;
        const at = offsets[i]!;
        if (u16(at) !== ascii.length) continue;
        for (let k = 0; k < ascii.length; k++) if (bytes[at + 2 + k] !== ascii.charCodeAt(k)) continue outer;
        return true;
      }
      return false;
    },
    listStrings: () => {
      const out: string[] = [];
      for (let i = 1; i < count; i++) if (tags[i] === CP.string) out.push(utf8At(u16(offsets[i]!), offsets[i]!));
      return out;
    },
  };
  r.readU16('access flags');
  const thisAt = r.position;
  const thisClass = classNameAt(r.readU16('this_class'), thisAt);
  r.readU16('super_class');
  const interfaces = r.readU16('interfaces count');
  r.skip(interfaces * 2, `${interfaces} interface indexes`);
  const fields = r.readU16('fields count');
  for (let i = 0; i < fields; i++) {
    r.skip(6, `field ${i}`);
    skipAttributes(r, `field ${i}`);
  }
  const methodCount = r.readU16('methods count');
  const methods: ClassMethod[] = [];
  for (let i = 0; i < methodCount; i++) {
    const offset = r.position;
    r.readU16(`access flags of method ${i}`);
    const nameAt = r.position;
    const name = utf8At(r.readU16(`name of method ${i}`), nameAt);
    const descriptor = utf8At(r.readU16(`descriptor of method ${i}`), nameAt + 2);
    const attributes = r.readU16(`attributes count of method ${name}`);
    let code: MethodCode | undefined;
    for (let a = 0; a < attributes; a++) {
      const attrAt = r.position;
      const attrName = utf8At(r.readU16(`attribute name of method ${name}`), attrAt);
      const length = r.readU32(`attribute length of method ${name}`);
      const body = r.subReader(length, `attribute ${attrName} of method ${name}`);
      if (attrName === 'Code') {
        body.readU16('max_stack');
        body.readU16('max_locals');
        const lengthAt = body.position;
        const codeLength = body.readU32('code_length');
        // JVMS §4.7.3: 0 < code_length < 65536; an empty <clinit> is a broken class, never one that builds no descriptor
        if (codeLength === 0 || codeLength >= 65536) {
          throw body.error(
            'invalid-value',
            `expected a code_length of 1 to 65535 bytes for method ${name} (JVMS §4.7.3), found ${codeLength}: the class file is broken`,
            lengthAt,
          );
        }
        const codeOffset = body.absolutePosition;
        code = { code: body.readBytes(codeLength, `code of method ${name}`), codeOffset };
      }
    }
    methods.push({ name, descriptor, offset, ...(code ? { code } : {}) });
  }
  return { ...classFile, thisClass, methods };
}

function skipAttributes(r: ByteReader, owner: string): void {
  const n = r.readU16(`attributes count of ${owner}`);
  for (let i = 0; i < n; i++) {
    r.skip(2, `attribute name of ${owner}`);
    r.skip(r.readU32(`attribute length of ${owner}`), `attribute ${i} of ${owner}`);
  }
}
