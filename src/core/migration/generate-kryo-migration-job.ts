/**
 * `migration-job` (issue #17): a small Maven project with a State Processor API job that reads every Kryo-held
 * Protobuf state it can carry with the old Kryo configuration the savepoint's snapshots record (chill-protobuf
 * registrations and defaults, in order) and writes a new savepoint whose states use flink-datastream-protobuf's
 * ProtobufTypeInformation. Platform-free: returns file names and contents; the CLI writes them.
 */
import { getKryoSnapshotDetails, type InspectedOperator } from '../flink';
import { PROTOBUF_SUPERTYPES, type FoundKryoProtobufState } from '../compat';
import {
  defaultSerializerCoordinates,
  defaultVersions,
  renderPom,
  renderReadme,
  type MigrationCoordinates,
  type MigrationFlinkLine,
  type MigrationVersions,
} from './kryo-migration-job-templates';
import { javaSourceName, MIGRATION_CLASS, MIGRATION_PACKAGE, renderMigrationJava } from './render-kryo-migration-java';
import { selectKryoMigrationStates, type NotCarried } from './select-kryo-migration-states';
import { describeKryoConfig, formatKryoConfigEntry, type KryoConfigEntry } from './describe-kryo-config';

export interface GeneratedFile {
  path: string;
  content: string | Uint8Array;
}

export type KryoMigrationSchemaSource =
  { kind: 'descriptors'; fileName: string; bytes: Uint8Array; protoFiles: readonly string[] } | { kind: 'job-jar'; jarPath: string };

export interface KryoMigrationJobInput {
  savepointName: string;
  metadataVersion: number;
  operators: readonly InspectedOperator[];
  found: readonly FoundKryoProtobufState[];
  schema: KryoMigrationSchemaSource;
  /** default: from `_metadata`'s version (4 and below: Flink 1.x, written by 1.20 here; 5 and up: Flink 2.x) */
  flinkLine?: MigrationFlinkLine;
  serializer?: MigrationCoordinates;
  /** only these operators (uid or id) */
  onlyOperators?: readonly string[];
}

export interface KryoMigrationJob {
  line: MigrationFlinkLine;
  versions: MigrationVersions;
  serializer: MigrationCoordinates;
  mainClass: string;
  files: GeneratedFile[];
  carried: { operator: string; states: { name: string; kind: string; messageClass: string }[] }[];
  notCarried: NotCarried[];
  kryoConfig: KryoConfigEntry[];
}

/** Flink 1.x writes `_metadata` up to version 4 (1.20: 4); Flink 2.x writes 5 and 6. */
export function detectFlinkLine(metadataVersion: number): MigrationFlinkLine {
  return metadataVersion >= 5 ? '2.x' : '1.20';
}

/** Serializer snapshots that need no class of the job: Flink's own, and the native Protobuf one (its class is a message). */
const FLINK_OWN = /^org\.apache\.flink\.(api\.common\.typeutils\.base|runtime\.state|streaming\.api\.operators|table)\./;

/** The not-carried states of carried operators whose serializers name classes of the job (POJO, Kryo, Avro, …). */
function listClassDependentStates(operators: readonly InspectedOperator[], carried: ReadonlySet<string>): { operator: string; state: string; type: string }[] {
  const out: { operator: string; state: string; type: string }[] = [];
  for (const o of operators)
    for (const s of o.states) {
      if (carried.has(`${o.id}/${s.name}`) || s.kind === 'PRIORITY_QUEUE' || !s.valueSerializer) continue;
      if (FLINK_OWN.test(s.valueSerializer.className) && s.valueSerializer.nested.length === 0) continue;
      // Protobuf behind Kryo at the top: its classes are the schema's messages (or protobuf-java's supertypes)
      const kryo = getKryoSnapshotDetails(s.valueSerializer);
      if (kryo && (PROTOBUF_SUPERTYPES.includes(kryo.typeClass) || s.valueSerializer.details?.['protobuf'] !== undefined)) continue;
      out.push({ operator: label(o), state: s.name, type: s.valueSerializer.typeLabel });
    }
  return out;
}

function label(o: InspectedOperator): string {
  return o.uid ? `${o.uid} (${o.id})` : o.id;
}

export function generateKryoMigrationJob(input: KryoMigrationJobInput): KryoMigrationJob {
  const line = input.flinkLine ?? detectFlinkLine(input.metadataVersion);
  const versions = defaultVersions(line);
  const serializer = input.serializer ?? defaultSerializerCoordinates(line);
  const only = input.onlyOperators;
  const picked = (o: InspectedOperator) => !only || only.includes(o.id) || (o.uid !== undefined && only.includes(o.uid));
  const selection = selectKryoMigrationStates(
    input.found.filter((f) => picked(f.operator)),
    input.operators.filter(picked),
  );
  const kryoConfig = describeKryoConfig(selection.kryo);
  const mainClass = `${MIGRATION_PACKAGE}.${MIGRATION_CLASS}`;
  const mainClassFile = `src/main/java/${MIGRATION_PACKAGE.replace(/\./g, '/')}/${MIGRATION_CLASS}.java`;
  const setPath = input.schema.kind === 'descriptors' ? `src/main/descriptors/${input.schema.fileName.replace(/[^\w.-]/g, '_')}` : '';
  const files: GeneratedFile[] = [
    {
      path: 'pom.xml',
      content: renderPom({
        line,
        versions,
        serializer,
        mainClass,
        schema:
          input.schema.kind === 'descriptors'
            ? { kind: 'descriptors', setPath, protoFiles: [...input.schema.protoFiles] }
            : { kind: 'job-jar', jarPath: input.schema.jarPath },
      }),
    },
    {
      path: 'README.md',
      content: renderReadme({
        savepointName: input.savepointName,
        line,
        metadataVersion: input.metadataVersion,
        versions,
        serializer,
        mainClassFile,
        schema: input.schema.kind === 'descriptors' ? { kind: 'descriptors', setPath } : { kind: 'job-jar', jarPath: input.schema.jarPath },
        kryoConfig: kryoConfig.map(formatKryoConfigEntry),
        carried: selection.operators.map((o) => ({
          operator: label(o.operator),
          maxParallelism: o.operator.maxParallelism,
          key: o.key?.javaType ?? null,
          states: [...o.keyed, ...o.operatorStates].map((s) => ({
            name: s.name,
            kind: s.kind,
            message: `${s.messageType ?? '?'} (\`${javaSourceName(s.messageClass)}\`)`,
          })),
        })),
        notCarried: selection.notCarried,
        needClasses: listClassDependentStates(
          selection.operators.map((o) => o.operator),
          new Set(selection.operators.flatMap((o) => [...o.keyed, ...o.operatorStates].map((s) => `${o.operator.id}/${s.name}`))),
        ),
      }),
    },
  ];
  if (selection.operators.length > 0)
    files.push({ path: mainClassFile, content: renderMigrationJava({ line, savepointName: input.savepointName, operators: selection.operators, kryoConfig }) });
  if (input.schema.kind === 'descriptors') files.push({ path: setPath, content: input.schema.bytes });
  return {
    line,
    versions,
    serializer,
    mainClass,
    files,
    carried: selection.operators.map((o) => ({
      operator: label(o.operator),
      states: [...o.keyed, ...o.operatorStates].map((s) => ({ name: s.name, kind: s.kind, messageClass: s.messageClass })),
    })),
    notCarried: selection.notCarried,
    kryoConfig,
  };
}
