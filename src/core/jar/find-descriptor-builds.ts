/**
 * Finds protoc's Java generated-code pattern in a class's static initializer (`<clinit>`): the
 * `String[]` literal of the serialized FileDescriptorProto (`anewarray String; dup; push i;
 * ldc/ldc_w "…"; aastore` per part, usually kept in a local), the dependencies (a
 * `FileDescriptor[]` filled by `Dep.getDescriptor()` calls, or — in the reflective overload — a
 * `String[]` of dependency class names), then `Descriptors.FileDescriptor.internalBuildGeneratedFileFrom`
 * (any package: protobuf-java may be relocated). 4.x gencode first calls
 * `RuntimeVersion.validateProtobufGencodeVersion(domain, major, minor, patch, suffix, file)`.
 *
 * A small abstract interpreter over the straight-line code of the initializer: it tracks only
 * constants, arrays of them, locals and the results of `getDescriptor()` calls; any instruction
 * it does not model empties its stack (nothing it tracks survives across it), so arbitrary code
 * cannot make it guess. Parts are ordered by their array index, never by constant-pool order.
 */
import { DecodeError } from '../io';
import { listInstructions } from './list-instructions';
import { CP, type ClassFile } from './read-class-file';

type Value =
  | { kind: 'int'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'class'; name: string }
  | { kind: 'array'; element: string; length: number | undefined; items: Map<number, Value> }
  | { kind: 'descriptor-of'; owner: string }
  | { kind: 'unknown' };

export interface DescriptorBuild {
  /** the descriptor's parts, in array order (each a Java string) */
  parts: string[];
  /** internal names of the classes whose descriptors are the file's dependencies, in order */
  dependencyClasses: string[];
  /** the reflective overload also names each dependency's file */
  dependencyFiles?: string[];
  /** `com/google/protobuf` or a relocated package, from the owner of internalBuildGeneratedFileFrom */
  runtimePackage: string;
  /** offset in the class file of the call (for messages) */
  offset: number;
}

export interface GencodeVersion {
  major: number;
  minor: number;
  patch: number;
  suffix: string;
}

export interface ClassDescriptorBuilds {
  builds: DescriptorBuild[];
  gencodeVersion?: GencodeVersion;
}

export const BUILD_METHOD = 'internalBuildGeneratedFileFrom';
const UNKNOWN: Value = { kind: 'unknown' };

export function findDescriptorBuilds(cls: ClassFile): ClassDescriptorBuilds {
  const clinit = cls.methods.find((m) => m.name === '<clinit>' && m.descriptor === '()V');
  if (clinit?.code === undefined) return { builds: [] };
  const { code, codeOffset } = clinit.code;
  let stack: Value[] = [];
  const locals = new Map<number, Value>();
  const builds: DescriptorBuild[] = [];
  let gencodeVersion: GencodeVersion | undefined;
  const pop = (): Value => stack.pop() ?? UNKNOWN;
  const u16 = (at: number): number => (code[at]! << 8) | code[at + 1]!;
  const constant = (index: number): Value => {
    const tag = cls.tagAt(index);
    if (tag === CP.string) return { kind: 'string', value: cls.stringAt(index) };
    if (tag === CP.integer) return { kind: 'int', value: cls.integerAt(index) };
    if (tag === CP.class) return { kind: 'class', name: cls.classNameAt(index) };
    return UNKNOWN;
  };
  listInstructions(code, codeOffset, cls.file, (op, pc) => {
    if (op >= 0x02 && op <= 0x08) stack.push({ kind: 'int', value: op - 0x03 });
    else if (op === 0x10) stack.push({ kind: 'int', value: (code[pc + 1]! << 24) >> 24 });
    else if (op === 0x11) stack.push({ kind: 'int', value: (u16(pc + 1) << 16) >> 16 });
    else if (op === 0x12) stack.push(constant(code[pc + 1]!));
    else if (op === 0x13) stack.push(constant(u16(pc + 1)));
    else if (op === 0x01 || op === 0x14 || op === 0xbb)
      stack.push(UNKNOWN); // aconst_null, ldc2_w, new
    else if (op === 0x19)
      stack.push(locals.get(code[pc + 1]!) ?? UNKNOWN); // aload
    else if (op >= 0x2a && op <= 0x2d)
      stack.push(locals.get(op - 0x2a) ?? UNKNOWN); // aload_n
    else if (op === 0x3a)
      locals.set(code[pc + 1]!, pop()); // astore
    else if (op >= 0x4b && op <= 0x4e)
      locals.set(op - 0x4b, pop()); // astore_n
    else if (op === 0xc4 && (code[pc + 1] === 0x19 || code[pc + 1] === 0x3a)) {
      // wide aload / astore
      if (code[pc + 1] === 0x19) stack.push(locals.get(u16(pc + 2)) ?? UNKNOWN);
      else locals.set(u16(pc + 2), pop());
    } else if (op === 0x59)
      stack.push(stack[stack.length - 1] ?? UNKNOWN); // dup
    else if (op === 0x57)
      pop(); // pop
    else if (op === 0x53) {
      // aastore: array, index, value
      const value = pop();
      const index = pop();
      const array = pop();
      if (array.kind === 'array' && index.kind === 'int') array.items.set(index.value, value);
    } else if (op === 0xbd) {
      const count = pop();
      stack.push({ kind: 'array', element: cls.classNameAt(u16(pc + 1)), length: count.kind === 'int' ? count.value : undefined, items: new Map() });
    } else if (op === 0xc0) {
      // checkcast keeps the value
    } else if (op === 0xb2)
      stack.push(UNKNOWN); // getstatic
    else if (op === 0xb3)
      pop(); // putstatic
    else if (op >= 0xb6 && op <= 0xb9) {
      const ref = cls.memberAt(u16(pc + 1));
      const { params, returns } = parseMethodDescriptor(ref.descriptor);
      const args: Value[] = [];
      for (let i = 0; i < params; i++) args.unshift(pop());
      if (op !== 0xb8) pop(); // receiver
      let result: Value = UNKNOWN;
      if (op === 0xb8 && ref.name === 'getDescriptor' && params === 0 && ref.descriptor.endsWith('Descriptors$FileDescriptor;')) {
        result = { kind: 'descriptor-of', owner: ref.owner };
      } else if (op === 0xb8 && ref.name === BUILD_METHOD && ref.owner.endsWith('Descriptors$FileDescriptor')) {
        builds.push(readBuildCall(cls, ref.owner, args, codeOffset + pc));
      } else if (op === 0xb8 && ref.name === 'validateProtobufGencodeVersion' && ref.owner.endsWith('/RuntimeVersion')) {
        const [, major, minor, patch, suffix] = args;
        if (major?.kind === 'int' && minor?.kind === 'int' && patch?.kind === 'int' && suffix?.kind === 'string') {
          gencodeVersion = { major: major.value, minor: minor.value, patch: patch.value, suffix: suffix.value };
        }
      }
      if (returns) stack.push(result);
    } else {
      // anything else (arithmetic, branches, fields of objects, …): nothing tracked survives it
      stack = [];
    }
  });
  return { builds, ...(gencodeVersion ? { gencodeVersion } : {}) };
}

function readBuildCall(cls: ClassFile, owner: string, args: Value[], offset: number): DescriptorBuild {
  const fail = (detail: string): never => {
    throw new DecodeError({
      code: 'not-recognised',
      detail: `expected protoc's generated-code pattern before ${BUILD_METHOD} in the static initializer of ${cls.thisClass.replaceAll('/', '.')}, found ${detail}`,
      file: cls.file,
      offset,
      path: ['class file', '<clinit>'],
    });
  };
  const data = args[0];
  if (data?.kind !== 'array' || data.element !== 'java/lang/String') return fail('no String[] literal as its first argument');
  const parts = readStringArray(data, 'descriptor part', fail);
  const runtimePackage = owner.slice(0, owner.lastIndexOf('/'));
  const depArray = args.find((a, i) => i > 0 && a.kind === 'array' && a.element.endsWith('Descriptors$FileDescriptor'));
  if (depArray?.kind === 'array') {
    const dependencyClasses = readItems(depArray, fail).map((item, i) =>
      item.kind === 'descriptor-of' ? item.owner : fail(`dependency ${i} not given by a getDescriptor() call`),
    );
    return { parts, dependencyClasses, runtimePackage, offset };
  }
  // the reflective overload: (String[] parts, Class<?> outer, String[] dependencyClassNames, String[] dependencyFileNames)
  const names = args[2];
  const files = args[3];
  if (args[1]?.kind === 'class' && names?.kind === 'array' && files?.kind === 'array') {
    return {
      parts,
      dependencyClasses: readStringArray(names, 'dependency class name', fail).map((n) => n.replaceAll('.', '/')),
      dependencyFiles: readStringArray(files, 'dependency file name', fail),
      runtimePackage,
      offset,
    };
  }
  return fail('neither a FileDescriptor[] nor dependency class names as its arguments');
}

function readItems(array: Extract<Value, { kind: 'array' }>, fail: (detail: string) => never): Value[] {
  if (array.length === undefined) return fail('an array of unknown length');
  const out: Value[] = [];
  for (let i = 0; i < array.length; i++) out.push(array.items.get(i) ?? fail(`no element ${i} of ${array.length} in an array literal`));
  return out;
}

function readStringArray(array: Extract<Value, { kind: 'array' }>, what: string, fail: (detail: string) => never): string[] {
  return readItems(array, fail).map((item, i) => (item.kind === 'string' ? item.value : fail(`${what} ${i} that is not a string constant`)));
}

/** Parameter count (long/double count once: the interpreter keeps one slot per value) and whether it returns a value. */
export function parseMethodDescriptor(descriptor: string): { params: number; returns: boolean } {
  let i = 1;
  let params = 0;
  while (i < descriptor.length && descriptor[i] !== ')') {
    while (descriptor[i] === '[') i++;
    if (descriptor[i] === 'L') i = descriptor.indexOf(';', i) + 1 || descriptor.length;
    else i++;
    params++;
  }
  return { params, returns: descriptor[i + 1] !== 'V' };
}
