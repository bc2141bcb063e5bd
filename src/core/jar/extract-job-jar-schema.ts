/**
 * The new job's JAR as its Protobuf schema: protoc's Java generated code embeds every `.proto`
 * file's serialized FileDescriptorProto in the outer class's static initializer, and those bytes are
 * what the serializer normalizes into its snapshot — so the set read here is the exact new schema
 * (a `protoc --descriptor_set_out`/`buf build` set carries derived json_names, buf's extension
 * 8042 and source info, and cannot show an explicit json_name equal to the derived one).
 *
 * Reads the zip's central directory only, then inflates the candidate classes: top-level classes in
 * the packages that hold `*OrBuilder` classes (every generated message has one), outside
 * protobuf-java's own runtime packages, and then the classes their initializers name as
 * dependencies (`Dep.getDescriptor()`, or the reflective overload's class names) — looked up in the
 * job jar first, then in each `--with` jar, never by `.proto` file name (a jar may hold two
 * protobuf runtimes). Memory is bounded by the candidate classes, one at a time.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, type DescriptorProto, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import {
  DecodeError,
  formatHex,
  haveSameBytes,
  isDecodeError,
  measureVarint,
  openZipArchive,
  withDecodePathAsync,
  writeVarintAt,
  type ArchiveLimits,
  type ByteSource,
  type InputFile,
} from '../io';
import { orderFilesByImports } from '../compat';
import { BUILD_METHOD, findDescriptorBuilds, type DescriptorBuild, type GencodeVersion } from './find-descriptor-builds';
import type { DescriptorConflict, EmbeddedFile, JarMessageClass, JobJarSchema } from './job-jar-types';
import { joinDescriptorParts } from './join-descriptor-parts';
import { collectStringLiterals } from './collect-string-literals';
import { readBundledArtifacts } from './read-bundled-artifacts';
import { readClassFile } from './read-class-file';

/** a class file larger than this is refused (generated outer classes are kilobytes to a few MiB) */
const MAX_CLASS_BYTES = 64 * 1024 * 1024;
const ZIP_MAGIC = [0x50, 0x4b];

interface OpenedJar {
  name: string;
  byPath: Map<string, InputFile>;
  files: readonly InputFile[];
}

interface ClassResult {
  files: EmbeddedFile[];
  jar: string;
}

export interface ExtractJobJarOptions {
  limits?: Partial<ArchiveLimits>;
  /** also gather the application classes' string constants (the state-mapping heuristic) */
  stringLiterals?: boolean;
}

export async function extractJobJarSchema(
  jarSource: ByteSource,
  withSources: readonly ByteSource[] = [],
  options: ExtractJobJarOptions = {},
): Promise<JobJarSchema> {
  const jar = await openJar(jarSource, options);
  const withJars: OpenedJar[] = [];
  for (const source of withSources) withJars.push(await openJar(source, options));
  const jars = [jar, ...withJars];
  const warnings: string[] = [];
  let classesRead = 0;

  const runtimeDirs = new Set<string>();
  const builderDirs = new Set<string>();
  for (const f of jar.files) {
    if (!f.path.endsWith('.class') || f.path.startsWith('META-INF/')) continue;
    const dir = f.path.slice(0, f.path.lastIndexOf('/') + 1);
    if (f.path.endsWith('OrBuilder.class')) builderDirs.add(dir);
    if (f.path.endsWith('/Descriptors$FileDescriptor.class')) runtimeDirs.add(dir);
  }
  const candidates = jar.files
    .filter((f) => {
      if (!f.path.endsWith('.class') || f.path.startsWith('META-INF/')) return false;
      const slash = f.path.lastIndexOf('/');
      const dir = f.path.slice(0, slash + 1);
      const simple = f.path.slice(slash + 1);
      // protobuf-java's own packages and their subpackages (com/google/protobuf/compiler/ of each runtime, relocated too) are
      // never the job's: their files are read only when a job file imports them, through the class its bytecode names
      return (
        builderDirs.has(dir) && !isInRuntime(dir, runtimeDirs) && !simple.includes('$') && simple !== 'package-info.class' && simple !== 'module-info.class'
      );
    })
    .map((f) => f.path)
    .sort();

  const results = new Map<string, ClassResult | null>();
  const gencode = new Map<string, GencodeVersion | undefined>();
  const builds = new Map<string, DescriptorBuild>();
  /** reads one class (from the first jar that holds it); null when it builds no descriptor */
  const readClass = async (internalName: string, from: readonly OpenedJar[]): Promise<ClassResult | null | undefined> => {
    if (results.has(internalName)) return results.get(internalName);
    const path = `${internalName}.class`;
    const owner = from.find((j) => j.byPath.has(path));
    if (owner === undefined) return undefined;
    const entry = owner.byPath.get(path)!;
    if (entry.source.size > MAX_CLASS_BYTES) {
      throw new DecodeError({
        code: 'limit-exceeded',
        detail: `expected a class file of at most ${MAX_CLASS_BYTES} bytes, found ${entry.source.size}`,
        file: entry.source.name,
        offset: 0,
      });
    }
    classesRead++;
    const bytes = await entry.source.read(0, entry.source.size);
    const cls = readClassFile(bytes, entry.source.name);
    if (!cls.hasUtf8(BUILD_METHOD)) {
      results.set(internalName, null);
      return null;
    }
    const found = findDescriptorBuilds(cls);
    const files: EmbeddedFile[] = [];
    for (const build of found.builds) {
      const outerClass = internalName.replaceAll('/', '.');
      const data = joinDescriptorParts(build.parts, { file: entry.source.name, offset: build.offset, owner: outerClass });
      const proto = parseFileDescriptor(data, entry.source.name, build.offset, outerClass);
      files.push({
        name: proto.name,
        bytes: data,
        outerClass,
        jar: owner.name,
        ...(found.gencodeVersion ? { gencodeVersion: formatVersion(found.gencodeVersion) } : {}),
        runtimePackage: build.runtimePackage.replaceAll('/', '.'),
        dependencies: proto.dependency,
      });
      builds.set(`${outerClass}\n${proto.name}`, build);
    }
    gencode.set(internalName, found.gencodeVersion);
    const result = files.length > 0 ? { files, jar: owner.name } : null;
    results.set(internalName, result);
    return result;
  };

  const own: EmbeddedFile[] = [];
  for (const path of candidates) {
    const result = await readClass(path.slice(0, -'.class'.length), [jar]);
    if (result) own.push(...result.files);
  }
  if (own.length === 0) {
    const classes = jar.files.filter((f) => f.path.endsWith('.class')).length;
    throw new DecodeError({
      code: 'not-recognised',
      detail:
        `expected protoc-generated Java classes (an outer class whose static initializer calls Descriptors.FileDescriptor.${BUILD_METHOD}) in the job jar, ` +
        `found none among its ${classes} classes (${candidates.length} candidate${candidates.length === 1 ? '' : 's'} in packages with *OrBuilder classes): ` +
        "pass the jar that holds the job's generated Protobuf classes (protoc --java_out; lite classes have no descriptors)",
      file: jar.name,
      path: ['job jar'],
    });
  }

  // resolve every import through the dependency classes the bytecode names
  const byName = new Map<string, EmbeddedFile>();
  const conflicts: DescriptorConflict[] = [];
  const pending = [...own];
  const visited = new Set<EmbeddedFile>();
  while (pending.length > 0) {
    const file = pending.shift()!;
    if (visited.has(file)) continue;
    visited.add(file);
    const seen = byName.get(file.name);
    if (seen !== undefined && !haveSameBytes(seen.bytes, file.bytes)) {
      // two versions of one file, each reached through the classes the bytecode names (two runtimes, or two copies of a
      // job file): the schema keeps the first reached, and the report names both classes — never a refusal of the jar
      conflicts.push({ file: file.name, kept: { outerClass: seen.outerClass, jar: seen.jar }, other: { outerClass: file.outerClass, jar: file.jar } });
      warnings.push(
        `two different descriptors of ${file.name} are reached: built by ${seen.outerClass} (${seen.jar}) and by ${file.outerClass} (${file.jar}); ` +
          `the schema uses ${seen.outerClass}'s, so a state whose types reach ${file.name} is checked against that version only`,
      );
      continue;
    }
    if (seen === undefined) byName.set(file.name, file);
    const build = builds.get(`${file.outerClass}\n${file.name}`)!;
    const provided = new Map<string, EmbeddedFile>();
    for (const [i, depClass] of build.dependencyClasses.entries()) {
      const result = await readClass(depClass, jars);
      const importName = build.dependencyFiles?.[i] ?? (build.dependencyClasses.length === file.dependencies.length ? file.dependencies[i] : undefined);
      if (result === undefined) {
        // the reflective overload skips a missing dependency class at run time; its import then stays unresolved below
        if (build.dependencyFiles !== undefined) continue;
        throw missingImport(file, importName, depClass, jars);
      }
      if (result === null) {
        throw new DecodeError({
          code: 'not-recognised',
          detail: `expected ${depClass.replaceAll('/', '.')} (named by ${file.outerClass} as the descriptor class of an import of ${file.name}) to build a descriptor, found a class that does not`,
          file: jar.name,
          path: ['job jar'],
        });
      }
      for (const dep of result.files) provided.set(dep.name, dep);
    }
    for (const [i, dependency] of file.dependencies.entries()) {
      const dep = provided.get(dependency);
      if (dep === undefined) throw missingImport(file, dependency, build.dependencyClasses[i], jars);
      pending.push(dep);
    }
  }

  const ordered = orderDependencyFirst(byName);
  const ownNames = new Set(own.map((f) => f.name));
  const messages: JarMessageClass[] = [];
  for (const file of ordered) {
    if (!ownNames.has(file.name)) continue;
    const proto = parseFileDescriptor(file.bytes, file.jar, 0, file.outerClass);
    listMessageClasses(proto, file.outerClass, messages);
  }
  const versions = new Set(own.map((f) => f.gencodeVersion ?? '3.x or older (no RuntimeVersion check)'));
  const runtimes = new Set(own.map((f) => f.runtimePackage));
  const bundled = await readBundledArtifacts(jar.files);
  const literals = options.stringLiterals === true ? await collectStringLiterals(jar.files, builderDirs, [...runtimes]) : undefined;
  warnings.push(...bundled.warnings);
  return {
    jar: jar.name,
    withJars: withJars.map((j) => j.name),
    files: ordered,
    descriptorSet: encodeFileDescriptorSet(ordered.map((f) => f.bytes)),
    messages,
    gencodeVersions: [...versions].sort(),
    runtimePackages: [...runtimes].sort().map((name) => ({ name, relocated: name !== 'com.google.protobuf' })),
    ...(bundled.library ? { library: bundled.library } : {}),
    ...(bundled.flink ? { flink: bundled.flink } : {}),
    artifacts: bundled.artifacts,
    ...(literals ? { stringLiterals: literals } : {}),
    ...(conflicts.length > 0 ? { conflicts } : {}),
    warnings,
    stats: { entries: jar.files.length, classesRead },
  };
}

/** A class folder inside a protobuf-java runtime package (its own folder or below, e.g. `…/com/google/protobuf/compiler/`). */
function isInRuntime(dir: string, runtimeDirs: ReadonlySet<string>): boolean {
  for (const runtime of runtimeDirs) if (dir.startsWith(runtime)) return true;
  return false;
}

async function openJar(source: ByteSource, options: ExtractJobJarOptions): Promise<OpenedJar> {
  return withDecodePathAsync('job jar', async () => {
    const head = source.size >= 4 ? await source.read(0, 4) : new Uint8Array(0);
    if (head.length < 4 || head[0] !== ZIP_MAGIC[0] || head[1] !== ZIP_MAGIC[1]) {
      const hex = formatHex(head, ' ');
      throw new DecodeError({
        code: 'not-recognised',
        detail: `expected a jar (a zip archive, PK\\x03\\x04), found ${source.size === 0 ? 'an empty file' : `bytes ${hex}`}`,
        file: source.name,
        offset: 0,
      });
    }
    const listing = await openZipArchive(source, options.limits);
    const byPath = new Map<string, InputFile>();
    for (const f of listing.files) byPath.set(f.path, f);
    return { name: source.name, byPath, files: listing.files };
  });
}

function missingImport(file: EmbeddedFile, importName: string | undefined, depClass: string | undefined, jars: readonly OpenedJar[]): DecodeError {
  const cls = depClass?.replaceAll('/', '.');
  const names = jars.map((j) => j.name).join(', ');
  const what = importName === undefined ? `an import` : `the import ${importName}`;
  const wkt =
    cls?.includes('.google.protobuf.') || importName?.startsWith('google/protobuf/')
      ? ' (a well-known type: the protobuf-java jar the cluster provides, when the job does not bundle it)'
      : '';
  return new DecodeError({
    code: 'missing-file',
    detail:
      `expected a class providing ${what} of ${file.name} (needed by ${file.outerClass})` +
      `${cls ? `, ${cls}` : ''}, found it in none of the jars read (${names}): pass the jar that holds it with --with${wkt}`,
    file: file.jar,
    path: ['job jar'],
  });
}

function parseFileDescriptor(bytes: Uint8Array, file: string, offset: number, outerClass: string): FileDescriptorProto {
  try {
    const proto = fromBinary(FileDescriptorProtoSchema, bytes);
    if (!proto.name) throw new Error('it has no file name');
    return proto;
  } catch (e) {
    throw new DecodeError({
      code: 'not-recognised',
      detail: `expected the string literals of ${outerClass}'s static initializer to join to a FileDescriptorProto, found ${bytes.length} bytes that do not parse as one (${e instanceof Error ? e.message : String(e)})`,
      file,
      offset,
      path: ['class file', '<clinit>'],
    });
  }
}

function listMessageClasses(proto: FileDescriptorProto, outerClass: string, out: JarMessageClass[]): void {
  const multiple = proto.options?.javaMultipleFiles === true;
  const javaPackage = outerClass.includes('.') ? outerClass.slice(0, outerClass.lastIndexOf('.')) : '';
  const visit = (message: DescriptorProto, names: string[], fullPrefix: string): void => {
    if (message.options?.mapEntry === true) return;
    const path = [...names, message.name];
    const fullName = `${fullPrefix}${message.name}`;
    const javaClass = multiple ? `${javaPackage ? `${javaPackage}.` : ''}${path.join('$')}` : `${outerClass}$${path.join('$')}`;
    out.push({ fullName, javaClass, file: proto.name });
    for (const nested of message.nestedType) visit(nested, path, `${fullName}.`);
  };
  for (const message of proto.messageType) visit(message, [], proto.package ? `${proto.package}.` : '');
}

/** Kahn's order over the files' imports, the smallest ready name first (as the serializer orders): compat's, in O(n log n). */
function orderDependencyFirst(byName: ReadonlyMap<string, EmbeddedFile>): EmbeddedFile[] {
  for (const file of byName.values()) {
    for (const d of file.dependencies) {
      if (!byName.has(d))
        throw new DecodeError({
          code: 'invalid-value',
          detail: `expected the embedded descriptor ${d}, imported by ${file.name}, among the jar's descriptors, found none`,
          path: ['job jar'],
        });
    }
  }
  try {
    return orderFilesByImports([...byName.values()].map((f) => ({ name: f.name, dependency: f.dependencies, file: f }))).map((o) => o.file);
  } catch (e) {
    if (isDecodeError(e))
      throw new DecodeError({
        code: 'invalid-value',
        detail: `expected acyclic imports among the embedded descriptors, found a cycle (${e.detail})`,
        path: ['job jar'],
      });
    throw e;
  }
}

/** A FileDescriptorSet: field 1 (file), length-delimited, each file's bytes unchanged. */
export function encodeFileDescriptorSet(files: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const bytes of files) total += 1 + measureVarint(bytes.length) + bytes.length;
  const out = new Uint8Array(total);
  let p = 0;
  for (const bytes of files) {
    out[p++] = 0x0a;
    p = writeVarintAt(out, p, bytes.length);
    out.set(bytes, p);
    p += bytes.length;
  }
  return out;
}

function formatVersion(v: GencodeVersion): string {
  return `${v.major}.${v.minor}.${v.patch}${v.suffix}`;
}
