/**
 * The state-mapping heuristic's input: the string constants (CONSTANT_String: literals, constant
 * fields, string-concatenation recipes) of the jar's application classes — candidate operator uids
 * and state names. Libraries are left out by package (Flink, protobuf-java, Scala, Kotlin, common
 * Java libraries, anything under a `shaded` package, the flink-datastream-protobuf library) and so
 * are the generated Protobuf packages; at most MAX_CLASSES classes and MAX_BYTES bytes are
 * inflated, and the result says when that cut it short. In a fat jar the libraries come in packages
 * of every name, so only the job's own packages are read when the jar has any: those sharing their
 * first two segments with the generated classes' packages or the manifest's Main-Class (the result
 * names them); a jar without such classes falls back to every class outside the listed libraries.
 */
import { isDecodeError, type InputFile } from '../io';
import { listInstructions } from './list-instructions';
import { CP, readClassFile, type ClassFile } from './read-class-file';

const LIBRARY_PREFIXES = [
  'java/',
  'javax/',
  'jakarta/',
  'jdk/',
  'sun/',
  'kotlin/',
  'scala/',
  'akka/',
  'org/apache/',
  'com/google/',
  'io/netty/',
  'org/slf4j/',
  'com/fasterxml/',
  'org/objenesis/',
  'com/esotericsoftware/',
  'org/xerial/',
  'net/jpountz/',
  'org/lz4/',
  'org/rocksdb/',
  'org/jboss/',
  'org/codehaus/',
  'com/twitter/',
  'org/yaml/',
  'org/json/',
  'com/typesafe/',
  'io/grpc/',
  'software/amazon/',
  'com/amazonaws/',
  'org/joda/',
  'io/confluent/',
  'org/checkerframework/',
  'org/intellij/',
  'org/jetbrains/',
  'org/osgi/',
  'io/github/flink/gcp/protobuf/',
];
const MAX_CLASSES = 20_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** a manifest larger than this is not read for its main class */
const MAX_MANIFEST_BYTES = 64 * 1024;

export interface JarStringLiterals {
  values: string[];
  /** constants passed straight to a `uid(String)` call (`ldc "x"; invokevirtual …uid(Ljava/lang/String;)…`): the new job's operator uids */
  uids: string[];
  /** what was read, in words, for the report's label */
  method: string;
  /** application class files read (0: nothing to map the savepoint's operators and states against) */
  classesRead: number;
}

export async function collectStringLiterals(
  files: readonly InputFile[],
  generatedDirs: ReadonlySet<string>,
  runtimePackages: readonly string[] = [],
): Promise<JarStringLiterals> {
  // the protobuf runtime's own packages (bundled as com.google.protobuf, or relocated) are a library, never the application
  const runtimeDirs = runtimePackages.map((p) => `${p.replaceAll('.', '/')}/`);
  const isLibrary = (path: string): boolean =>
    LIBRARY_PREFIXES.some((p) => path.startsWith(p)) || /(^|\/)shaded\//.test(path) || runtimeDirs.some((r) => path.startsWith(r));
  const outside = files.filter((f) => {
    if (!f.path.endsWith('.class') || f.path.startsWith('META-INF/')) return false;
    if (isLibrary(f.path)) return false;
    return !generatedDirs.has(f.path.slice(0, f.path.lastIndexOf('/') + 1));
  });
  // a fat jar bundles libraries of every package: read the job's own packages (those that share their
  // first two segments with the generated classes' or the manifest's main class) when there are any;
  // classes generated inside a library (the runtime's DescriptorProtos, well-known types) name no package of the job
  const roots = await listApplicationRoots(files, new Set([...generatedDirs].filter((d) => !isLibrary(d))));
  const own = outside.filter((f) => roots.some((r) => f.path.startsWith(r)));
  const classes = own.length > 0 ? own : outside;
  const scope = own.length > 0 ? ` under ${roots.join(', ')} (the packages of the generated classes and of the manifest's main class)` : '';
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
  const damaged =
    unreadable.length > 0
      ? `; ${unreadable.length} class file(s) could not be read (${unreadable.slice(0, 3).join(', ')}${unreadable.length > 3 ? ', …' : ''})`
      : '';
  return {
    values: [...values].sort(),
    uids: [...uids].sort(),
    classesRead: read - unreadable.length,
    method: `string constants of ${classes.length} application class(es) of the job jar${scope} (library and generated packages left out)${cut}${damaged}; a uid or state name built at run time is not seen`,
  };
}

/** The first two segments (one for a one-segment package) of the generated classes' packages and of the manifest's Main-Class/Program-Class, each ending in '/'. */
async function listApplicationRoots(files: readonly InputFile[], generatedDirs: ReadonlySet<string>): Promise<string[]> {
  const roots = new Set<string>();
  const add = (dir: string): void => {
    const segments = dir.split('/').filter((s) => s !== '');
    if (segments.length > 0) roots.add(`${segments.slice(0, 2).join('/')}/`);
  };
  for (const dir of generatedDirs) add(dir);
  const manifest = files.find((f) => f.path === 'META-INF/MANIFEST.MF');
  if (manifest !== undefined && manifest.source.size <= MAX_MANIFEST_BYTES) {
    for (const main of readMainClasses(await manifest.source.read(0, manifest.source.size))) {
      const slash = main.lastIndexOf('/');
      if (slash > 0) add(main.slice(0, slash));
    }
  }
  return [...roots].sort();
}

/** `Main-Class` and Flink's `Program-Class` of a manifest (72-byte lines continued by a leading space), as internal names. */
function readMainClasses(bytes: Uint8Array): string[] {
  let raw = '';
  for (let i = 0; i < bytes.length && i < MAX_MANIFEST_BYTES; i++) raw += String.fromCharCode(bytes[i]!);
  const text = raw.replace(/\r?\n /g, '');
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^(Main-Class|Program-Class)\s*:\s*(\S+)\s*$/i.exec(line);
    if (m) out.push(m[2]!.replaceAll('.', '/'));
  }
  return out;
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
