/**
 * The state-mapping heuristic's input: the string constants (CONSTANT_String: literals, constant
 * fields, string-concatenation recipes) of the jar's application classes — candidate operator uids
 * and state names. Libraries are left out by package (Flink, protobuf-java, Scala, Kotlin, common
 * Java libraries, anything under a `shaded` package, the flink-datastream-protobuf library) and so
 * are the generated Protobuf packages; at most MAX_CLASSES classes and MAX_BYTES bytes are
 * inflated, and the result says when that cut it short.
 */
import { isDecodeError, type InputFile } from '../io';
import { listInstructions } from './list-instructions';
import { CP, readClassFile, type ClassFile } from './read-class-file';

const LIBRARY_PREFIXES = [
  'java/', 'javax/', 'jakarta/', 'jdk/', 'sun/', 'kotlin/', 'scala/', 'akka/', 'org/apache/', 'com/google/', 'io/netty/', 'org/slf4j/',
  'com/fasterxml/', 'org/objenesis/', 'com/esotericsoftware/', 'org/xerial/', 'net/jpountz/', 'org/lz4/', 'org/rocksdb/', 'org/jboss/',
  'org/codehaus/', 'com/twitter/', 'org/yaml/', 'org/json/', 'com/typesafe/', 'io/grpc/', 'software/amazon/', 'com/amazonaws/',
  'org/joda/', 'io/confluent/', 'org/checkerframework/', 'org/intellij/', 'org/jetbrains/', 'org/osgi/', 'io/github/flink/gcp/protobuf/',
];
const MAX_CLASSES = 20_000;
const MAX_BYTES = 64 * 1024 * 1024;

export interface JarStringLiterals {
  values: string[];
  /** constants passed straight to a `uid(String)` call (`ldc "x"; invokevirtual …uid(Ljava/lang/String;)…`): the new job's operator uids */
  uids: string[];
  /** what was read, in words, for the report's label */
  method: string;
}

export async function collectStringLiterals(files: readonly InputFile[], generatedDirs: ReadonlySet<string>): Promise<JarStringLiterals> {
  const classes = files.filter((f) => {
    if (!f.path.endsWith('.class') || f.path.startsWith('META-INF/')) return false;
    if (LIBRARY_PREFIXES.some((p) => f.path.startsWith(p)) || /(^|\/)shaded\//.test(f.path)) return false;
    return !generatedDirs.has(f.path.slice(0, f.path.lastIndexOf('/') + 1));
  });
  const values = new Set<string>();
  const uids = new Set<string>();
  let read = 0;
  let bytes = 0;
  const unreadable: string[] = [];
  for (const f of classes) {
    if (read >= MAX_CLASSES || bytes + f.source.size > MAX_BYTES) break;
    read++;
    bytes += f.source.size;
    try {
      const cls = readClassFile(await f.source.read(0, f.source.size), f.source.name);
      for (const s of cls.listStrings()) values.add(s);
      for (const uid of listUidCalls(cls)) uids.add(uid);
    } catch (e) {
      // a damaged class file is listed as unreadable; anything else is a bug and surfaces as one
      if (!isDecodeError(e)) throw e;
      unreadable.push(f.path);
    }
  }
  const cut = read < classes.length ? `; read only the first ${read} of ${classes.length} (a bound of ${MAX_CLASSES} classes and ${MAX_BYTES} bytes)` : '';
  const damaged = unreadable.length > 0 ? `; ${unreadable.length} class file(s) could not be read (${unreadable.slice(0, 3).join(', ')}${unreadable.length > 3 ? ', …' : ''})` : '';
  return {
    values: [...values].sort(),
    uids: [...uids].sort(),
    method: `string constants of ${classes.length} application class(es) of the job jar (library and generated packages left out)${cut}${damaged}; a uid or state name built at run time is not seen`,
  };
}

/** `ldc/ldc_w "x"` directly followed by a call of a method `uid(String)` (DataStream's `.uid("x")`; a constant field is inlined by javac). */
function listUidCalls(cls: ClassFile): string[] {
  if (!cls.hasUtf8('uid')) return [];
  const out: string[] = [];
  for (const method of cls.methods) {
    if (method.code === undefined) continue;
    const { code, codeOffset } = method.code;
    let pending: string | undefined;
    listInstructions(code, codeOffset, cls.file, (op, pc) => {
      if (op === 0x12 || op === 0x13) {
        const index = op === 0x12 ? code[pc + 1]! : (code[pc + 1]! << 8) | code[pc + 2]!;
        pending = cls.tagAt(index) === CP.string ? cls.stringAt(index) : undefined;
        return;
      }
      if ((op === 0xb6 || op === 0xb9) && pending !== undefined) {
        const ref = cls.memberAt((code[pc + 1]! << 8) | code[pc + 2]!);
        if (ref.name === 'uid' && ref.descriptor.startsWith('(Ljava/lang/String;)')) out.push(pending);
      }
      pending = undefined;
    });
  }
  return out;
}
