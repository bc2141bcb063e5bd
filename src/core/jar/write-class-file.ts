/**
 * A minimal class-file writer: a constant pool built entry by entry and methods with `Code`
 * attributes. For byte-level tests of the class reader and the gencode pattern (and for building
 * jars in tests and the benchmark); it writes only what readClassFile reads.
 */
import { encodeModifiedUtf8 } from '../io';
import { CLASS_MAGIC, CP } from './read-class-file';

export class ConstantPoolWriter {
  private readonly entries: number[][] = [];
  private readonly keys = new Map<string, number>();

  /** the next free index (entries are 1-based; long and double take two) */
  get count(): number {
    return this.entries.reduce((n, e) => n + (e[0] === CP.long || e[0] === CP.double ? 2 : 1), 1);
  }

  raw(bytes: number[]): number {
    const index = this.count;
    this.entries.push(bytes);
    return index;
  }

  private add(key: string, bytes: () => number[]): number {
    const known = this.keys.get(key);
    if (known !== undefined) return known;
    const index = this.raw(bytes());
    this.keys.set(key, index);
    return index;
  }

  utf8(value: string): number {
    return this.add(`u:${value}`, () => {
      const b = encodeModifiedUtf8(value);
      return [CP.utf8, b.length >> 8, b.length & 0xff, ...b];
    });
  }
  classRef(internalName: string): number {
    const name = this.utf8(internalName);
    return this.add(`c:${internalName}`, () => [CP.class, ...u2(name)]);
  }
  string(value: string): number {
    const utf = this.utf8(value);
    return this.add(`s:${value}`, () => [CP.string, ...u2(utf)]);
  }
  integer(value: number): number {
    return this.add(`i:${value}`, () => [CP.integer, ...u4(value)]);
  }
  nameAndType(name: string, descriptor: string): number {
    const n = this.utf8(name);
    const d = this.utf8(descriptor);
    return this.add(`nt:${name}:${descriptor}`, () => [CP.nameAndType, ...u2(n), ...u2(d)]);
  }
  fieldRef(owner: string, name: string, descriptor: string): number {
    const c = this.classRef(owner);
    const nt = this.nameAndType(name, descriptor);
    return this.add(`f:${owner}.${name}:${descriptor}`, () => [CP.fieldref, ...u2(c), ...u2(nt)]);
  }
  methodRef(owner: string, name: string, descriptor: string): number {
    const c = this.classRef(owner);
    const nt = this.nameAndType(name, descriptor);
    return this.add(`m:${owner}.${name}${descriptor}`, () => [CP.methodref, ...u2(c), ...u2(nt)]);
  }

  toBytes(): number[] {
    return [...u2(this.count), ...this.entries.flat()];
  }
}

export interface WrittenMethod {
  name: string;
  descriptor: string;
  code?: number[];
}

export function writeClassFile(pool: ConstantPoolWriter, thisClass: string, methods: readonly WrittenMethod[]): Uint8Array {
  const self = pool.classRef(thisClass);
  const superClass = pool.classRef('java/lang/Object');
  const codeName = pool.utf8('Code');
  const methodBytes = methods.flatMap((m) => {
    const name = pool.utf8(m.name);
    const descriptor = pool.utf8(m.descriptor);
    const attrs =
      m.code === undefined ? [] : [...u2(codeName), ...u4(12 + m.code.length), ...u2(16), ...u2(16), ...u4(m.code.length), ...m.code, ...u2(0), ...u2(0)];
    return [...u2(0x0008), ...u2(name), ...u2(descriptor), ...u2(m.code === undefined ? 0 : 1), ...attrs];
  });
  const out = [
    ...u4(CLASS_MAGIC),
    ...u2(0),
    ...u2(61),
    ...pool.toBytes(),
    ...u2(0x0021),
    ...u2(self),
    ...u2(superClass),
    ...u2(0),
    ...u2(0),
    ...u2(methods.length),
    ...methodBytes,
    ...u2(0),
  ];
  return Uint8Array.from(out);
}

export function u2(n: number): number[] {
  return [(n >> 8) & 0xff, n & 0xff];
}

export function u4(n: number): number[] {
  return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
}

export interface GencodeClassInit {
  /** internal name of the outer class (`com/x/Outer`) */
  name: string;
  /** the serialized FileDescriptorProto */
  descriptor: Uint8Array;
  /** internal names of the dependency classes, in import order */
  dependencies?: readonly string[];
  /** protobuf-java's runtime package, internal form (default com/google/protobuf) */
  runtime?: string;
  /** 4.x gencode: the RuntimeVersion check's version */
  gencodeVersion?: [number, number, number];
  /** bytes per descriptor part (protoc splits long descriptors) */
  partSize?: number;
  /** put the parts' strings into the constant pool last part first (their order in the pool means nothing) */
  reversePool?: boolean;
}

/** An outer class as protoc + javac write it: `<clinit>` with the descriptor's String[] literal, the FileDescriptor[] of dependencies and internalBuildGeneratedFileFrom. */
export function writeGencodeClass(init: GencodeClassInit): Uint8Array {
  const pool = new ConstantPoolWriter();
  const runtime = init.runtime ?? 'com/google/protobuf';
  const fd = `${runtime}/Descriptors$FileDescriptor`;
  const code: number[] = [];
  const push = (n: number): void => {
    if (n >= -1 && n <= 5) code.push(0x03 + n);
    else if (n >= -128 && n <= 127) code.push(0x10, n & 0xff);
    else code.push(0x11, ...u2(n));
  };
  const ldc = (index: number): void => {
    if (index <= 0xff) code.push(0x12, index);
    else code.push(0x13, ...u2(index));
  };
  if (init.gencodeVersion) {
    const [major, minor, patch] = init.gencodeVersion;
    code.push(0xb2, ...u2(pool.fieldRef(`${runtime}/RuntimeVersion$RuntimeDomain`, 'PUBLIC', `L${runtime}/RuntimeVersion$RuntimeDomain;`)));
    push(major);
    push(minor);
    push(patch);
    ldc(pool.string(''));
    ldc(pool.string(init.name.slice(init.name.lastIndexOf('/') + 1)));
    code.push(
      0xb8,
      ...u2(
        pool.methodRef(
          `${runtime}/RuntimeVersion`,
          'validateProtobufGencodeVersion',
          `(L${runtime}/RuntimeVersion$RuntimeDomain;IIILjava/lang/String;Ljava/lang/String;)V`,
        ),
      ),
    );
  }
  const size = init.partSize ?? 400;
  const parts: string[] = [];
  for (let i = 0; i < Math.max(1, init.descriptor.length); i += size) parts.push(String.fromCharCode(...init.descriptor.subarray(i, i + size)));
  if (init.reversePool) for (const part of [...parts].reverse()) pool.string(part);
  push(parts.length);
  code.push(0xbd, ...u2(pool.classRef('java/lang/String')));
  for (const [i, part] of parts.entries()) {
    code.push(0x59);
    push(i);
    ldc(pool.string(part));
    code.push(0x53);
  }
  code.push(0x4b); // astore_0
  code.push(0x2a); // aload_0
  const deps = init.dependencies ?? [];
  push(deps.length);
  code.push(0xbd, ...u2(pool.classRef(fd)));
  for (const [i, dep] of deps.entries()) {
    code.push(0x59);
    push(i);
    code.push(0xb8, ...u2(pool.methodRef(dep, 'getDescriptor', `()L${fd};`)));
    code.push(0x53);
  }
  code.push(0xb8, ...u2(pool.methodRef(fd, 'internalBuildGeneratedFileFrom', `([Ljava/lang/String;[L${fd};)L${fd};`)));
  code.push(0xb3, ...u2(pool.fieldRef(init.name, 'descriptor', `L${fd};`)));
  code.push(0xb1);
  return writeClassFile(pool, init.name, [
    { name: '<clinit>', descriptor: '()V', code },
    { name: 'getDescriptor', descriptor: `()L${fd};`, code: [0xb2, ...u2(pool.fieldRef(init.name, 'descriptor', `L${fd};`)), 0xb0] },
  ]);
}
