/**
 * `scan-job` (issue #30): a small Maven project with a State Processor API batch job that scans the savepoint's
 * native Protobuf states (flink-datastream-protobuf) in parallel on the user's Flink cluster and writes, per shard
 * of key groups, the value-scan file `check --values-only --key-groups A-B` writes, for `check --value-scans`.
 * The new schema's value warnings travel as scan-plan.json (planValueWarnings: the table of the CLI's collector).
 * Platform-free: returns file names and contents; the CLI writes them.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import type { ValueWarningPlan } from '../compat';
import { encodeBase64 } from '../flink';
import {
  defaultSerializerCoordinates,
  defaultVersions,
  type MigrationCoordinates,
  type MigrationFlinkLine,
  type MigrationVersions,
} from './kryo-migration-job-templates';
import { detectFlinkLine, type GeneratedFile } from './generate-kryo-migration-job';
import { renderScanJobPom, renderScanJobReadme, UNSCANNED_SUFFIX } from './scan-job-templates';
import { SCAN_JOB_JAVA } from './scan-job-java-job';
import { FRAME_SERIALIZER_JAVA, VALUE_SCAN_JAVA } from './scan-job-java-scan';
import { PARQUET_ROWS_JAVA } from './scan-job-java-parquet';

/** One Protobuf state of `check`'s value scan, in `check`'s order, with what the job needs to read it. */
export interface ScanJobState {
  operatorId: string;
  uid: string | null;
  state: string;
  kind: string;
  keyed: boolean;
  /** the operator's max parallelism (its keys' key groups) */
  maxParallelism: number;
  /** INT, LONG, STRING or BOOLEAN: the key (keyed state), the map or broadcast user key */
  keyType: string | null;
  userKeyType: string | null;
  ttl: boolean;
  snapshotClass: string;
  root: string;
  recursionLimit: number;
  descriptorSet: Uint8Array;
  /** the value warnings to look for; null: no schema to check values against (check writes null) */
  plan: ValueWarningPlan | null;
  /** why the job cannot read this state's values (its result says so in every file) */
  notRead?: string;
}

export interface ScanJobInput {
  savepointName: string;
  metadataVersion: number;
  schemaName: string;
  /** the shard header of check --values-only */
  schemaVersion: number;
  toolVersion: string;
  savepoint: { checkpointId: string; metadataSha256: string };
  schemaSha256: string;
  maxParallelism: number;
  stateBackend: 'hashmap' | 'rocksdb';
  states: readonly ScanJobState[];
  flinkLine?: MigrationFlinkLine;
  serializer?: MigrationCoordinates;
  /** Protobuf states whose values check does not scan (Kryo, flink-protobuf-serde): not in the plan, named in the README with check's reason */
  unscanned?: readonly { operatorId: string; uid: string | null; state: string; why: string }[];
}

export interface ScanJob {
  line: MigrationFlinkLine;
  versions: MigrationVersions;
  serializer: MigrationCoordinates;
  mainClass: string;
  files: GeneratedFile[];
  scanned: { operator: string; state: string; kind: string; root: string }[];
  notScanned: { operator: string; state: string; why: string }[];
}

export const SCAN_JOB_PACKAGE = 'scanjob';
export const SCAN_JOB_CLASS = 'ProtobufValueScanJob';

/** The job's Java source for a Flink line (1.20: open(Configuration); 2.x: open(OpenContext), the RocksDB backend's new package). */
export function renderScanJobJava(line: MigrationFlinkLine, backend: 'hashmap' | 'rocksdb'): string {
  const backendClass =
    backend === 'hashmap'
      ? 'org.apache.flink.runtime.state.hashmap.HashMapStateBackend'
      : line === '1.20'
        ? 'org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend'
        : 'org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend';
  const open = line === '1.20' ? 'org.apache.flink.configuration.Configuration' : 'org.apache.flink.api.common.functions.OpenContext';
  return SCAN_JOB_JAVA.replace('/*@IMPORTS@*/', [`import ${backendClass};`, `import ${open};`].join('\n'))
    .replace('/*@BACKEND@*/', `new ${backendClass.slice(backendClass.lastIndexOf('.') + 1)}()`)
    .replaceAll('/*@OPEN_PARAMETER@*/', line === '1.20' ? 'Configuration parameters' : 'OpenContext openContext');
}

/** The states' saved descriptor sets as one (each file once, the first set's copy; every set lists a file after its imports). */
function mergeSavedSets(sets: readonly Uint8Array[]): { bytes: Uint8Array; protoFiles: string[] } {
  const files = new Map<string, FileDescriptorProto>();
  for (const bytes of sets) for (const f of fromBinary(FileDescriptorSetSchema, bytes).file) if (!files.has(f.name)) files.set(f.name, f);
  return {
    bytes: toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [...files.values()] })),
    // protobuf-java has the well-known types' classes
    protoFiles: [...files.keys()].filter((f) => !f.startsWith('google/protobuf/')),
  };
}

export const SAVED_SET_PATH = 'src/main/descriptors/saved.binpb';

export function generateScanJob(input: ScanJobInput): ScanJob {
  const line = input.flinkLine ?? detectFlinkLine(input.metadataVersion);
  const versions = defaultVersions(line);
  const serializer = input.serializer ?? defaultSerializerCoordinates(line);
  const mainClass = `${SCAN_JOB_PACKAGE}.${SCAN_JOB_CLASS}`;
  const label = (s: { uid: string | null; operatorId: string }) => (s.uid ? `${s.uid} (${s.operatorId})` : s.operatorId);
  const scanned = input.states
    .filter((s) => s.plan !== null && s.notRead === undefined)
    .map((s) => ({ operator: label(s), state: s.state, kind: s.kind, root: s.root }));
  const notScanned = input.states
    .filter((s) => s.plan === null || s.notRead !== undefined)
    .map((s) => ({ operator: label(s), state: s.state, why: s.notRead ?? 'no schema to check its values against (check writes null for it too)' }))
    .concat((input.unscanned ?? []).map((u) => ({ operator: label(u), state: u.state, why: `${u.why} ${UNSCANNED_SUFFIX}` })));
  const plan = {
    schemaVersion: input.schemaVersion,
    toolVersion: input.toolVersion,
    savepoint: input.savepoint,
    schemaSha256: input.schemaSha256,
    maxParallelism: input.maxParallelism,
    maxWarningKeys: input.states.find((s) => s.plan)?.plan?.maxWarningKeys ?? 20,
    states: input.states.map((s) => ({
      operatorId: s.operatorId,
      uid: s.uid,
      state: s.state,
      kind: s.kind,
      keyed: s.keyed,
      maxParallelism: s.maxParallelism,
      keyType: s.keyType,
      userKeyType: s.userKeyType,
      ttl: s.ttl,
      snapshotClass: s.snapshotClass,
      root: s.root,
      recursionLimit: s.recursionLimit,
      descriptorSet: encodeBase64(s.descriptorSet),
      plan: s.notRead === undefined ? s.plan : null,
      ...(s.notRead !== undefined ? { notRead: s.notRead } : {}),
    })),
  };
  const javaDir = `src/main/java/${SCAN_JOB_PACKAGE}`;
  const saved = mergeSavedSets(input.states.map((s) => s.descriptorSet));
  const files: GeneratedFile[] = [
    { path: 'pom.xml', content: renderScanJobPom({ line, versions, serializer, mainClass, saved: { setPath: SAVED_SET_PATH, protoFiles: saved.protoFiles } }) },
    {
      path: 'README.md',
      content: renderScanJobReadme({
        savepointName: input.savepointName,
        line,
        metadataVersion: input.metadataVersion,
        versions,
        serializer,
        mainClass,
        schemaName: input.schemaName,
        stateBackend: input.stateBackend,
        maxParallelism: input.maxParallelism,
        savedSetPath: SAVED_SET_PATH,
        scanned,
        notScanned,
      }),
    },
    { path: `${javaDir}/${SCAN_JOB_CLASS}.java`, content: renderScanJobJava(line, input.stateBackend) },
    { path: `${javaDir}/ValueScan.java`, content: VALUE_SCAN_JAVA },
    { path: `${javaDir}/FrameSerializer.java`, content: FRAME_SERIALIZER_JAVA },
    { path: `${javaDir}/ParquetRows.java`, content: PARQUET_ROWS_JAVA },
    { path: SAVED_SET_PATH, content: saved.bytes },
    { path: 'src/main/resources/scan-plan.json', content: `${JSON.stringify(plan, null, 2)}\n` },
  ];
  return { line, versions, serializer, mainClass, files, scanned, notScanned };
}
