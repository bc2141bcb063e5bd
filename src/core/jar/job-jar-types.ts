/** What the new job's JAR tells: its Protobuf schema as the generated classes embed it, and what it bundles. */
import type { LibraryLine } from '../compat';

/** One `.proto` file as a generated class embeds it. */
export interface EmbeddedFile {
  /** the file's name (`fixtures/events.proto`) */
  name: string;
  /** the serialized FileDescriptorProto, byte for byte as the class embeds it */
  bytes: Uint8Array;
  /** the class whose static initializer builds it, as a Java binary name (`dev.x.EventMessages`) */
  outerClass: string;
  /** the jar the class was found in (the job jar or a `--with` jar) */
  jar: string;
  /** `4.36.2` from RuntimeVersion.validateProtobufGencodeVersion (4.x gencode); absent before 4.x */
  gencodeVersion?: string;
  /** the package of protobuf-java's runtime the class calls (`com.google.protobuf`, or a relocated one) */
  runtimePackage: string;
  /** imports, in order */
  dependencies: string[];
}

export interface JarMessageClass {
  /** Protobuf full name (`fixtures.events.Event.Location`) */
  fullName: string;
  /** Java binary class name (`dev.x.EventMessages$Event$Location`) */
  javaClass: string;
  file: string;
}

export interface BundledArtifact {
  groupId: string;
  artifactId: string;
  version: string;
  /** the entry it was read from (`META-INF/maven/g/a/pom.properties`) */
  path: string;
}

export interface JarLibrary {
  line: LibraryLine;
  /** how the line was told: the snapshot class found, or the artifact's version */
  evidence: string;
  version?: string;
}

/** Two different descriptors of one file name, both reached from the job's files through the classes their bytecode names. */
export interface DescriptorConflict {
  file: string;
  /** the version the schema holds (reached first) */
  kept: { outerClass: string; jar: string };
  /** the other version, left out of the schema */
  other: { outerClass: string; jar: string };
}

export interface JobJarSchema {
  /** the job jar's name */
  jar: string;
  /** the `--with` jars' names, in order */
  withJars: string[];
  /** the files of the job's generated classes and every file they import, dependency first */
  files: EmbeddedFile[];
  /** a FileDescriptorSet of `files` (each FileDescriptorProto byte for byte as embedded) */
  descriptorSet: Uint8Array;
  /** each message of the job's own files (not of imported runtime files) with its Java class */
  messages: JarMessageClass[];
  /** distinct gencode versions of the job's own files (`3.x or older` where no RuntimeVersion check is made) */
  gencodeVersions: string[];
  /** distinct runtime packages the job's classes call, relocated ones marked */
  runtimePackages: { name: string; relocated: boolean }[];
  /** the bundled flink-datastream-protobuf line, when its classes are in the jar */
  library?: JarLibrary;
  /** bundled Flink: its version when a pom.properties tells it */
  flink?: { version?: string; evidence: string };
  /** pom.properties of every bundled artifact */
  artifacts: BundledArtifact[];
  /** the application classes' string constants, when asked for (the state-mapping heuristic) */
  stringLiterals?: { values: string[]; uids: string[]; method: string; classesRead: number };
  /** files reached in two different versions (named in `warnings` too); absent when none */
  conflicts?: DescriptorConflict[];
  /** what the reader noticed but did not stop on */
  warnings: string[];
  /** counts for the report and the benchmark */
  stats: { entries: number; classesRead: number };
}
