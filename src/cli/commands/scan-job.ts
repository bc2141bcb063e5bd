/**
 * `scan-job <savepoint> --descriptors <new.binpb> --output <dir> [check's schema options] [--serializer G:A:V]
 * [--flink-line 1.20|2.x] [--state-backend hashmap|rocksdb]`: writes the Maven project of a State Processor API
 * batch job that scans the savepoint's native Protobuf states on a Flink cluster and writes the value-scan files of
 * `check --values-only --key-groups A-B` per shard (core: generateScanJob), for `check --value-scans DIR`.
 * Exit 0 when the job scans at least one state, 1 when it scans none (the README says why), 2 on unusable input.
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { MAX_DESCRIPTOR_BYTES } from '../../core/protobuf';
import { planValueWarnings } from '../../core/compat';
import { evaluateSavepointStates, kryoValuesNotRead, peerValuesNotRead, type EvaluatedProtobufState } from '../../core/report';
import { generateScanJob, type ScanJob, type ScanJobState } from '../../core/migration';
import type { SerializerSnapshot } from '../../core/flink';
import { CliUsageError, EXIT_FINDINGS, EXIT_OK, type CliCommand } from '../cli-types';
import { writeOutputFile } from '../output-failure';
import { JSON_SCHEMA_VERSION, METADATA_OPTION, pathMapUsage, parseTarget, savepointInputOptions, takeOnePositional } from '../parse-cli-values';
import { checkShardRange, identifySavepoint, TOOL_VERSION, type WorkerCheckInput } from '../scan';
import { openNodeInput, readDescriptorSetFile } from '../sources';
import { optionalBool, optionalInt, parseRoots } from './check';
import { digestCheck } from './value-scan-shards';
import packageJson from '../../../package.json' with { type: 'json' };

export const scanJobCommand: CliCommand = {
  name: 'scan-job',
  summary: "write a State Processor API project that runs check's value scan on a Flink cluster, one value-scan file per shard",
  usage: [
    'Usage: savepoint-inspector scan-job <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> --descriptors <new.binpb> --output <dir> [options]',
    '',
    'Options:',
    "  --descriptors FILE       the new application's FileDescriptorSet (as for check)",
    '  --output DIR             where to write the project (must not exist or be empty)',
    '  --target 0.x|1.x         as for check (default 1.x)',
    '  --max-message-size N     as for check',
    '  --recursion-limit N      as for check',
    '  --deterministic BOOL     as for check',
    '  --aliasing BOOL          as for check',
    '  --root NAME | OP/STATE=NAME  as for check (repeatable)',
    '  --serializer G:A:V       the flink-datastream-protobuf coordinates (default io.github.flink-gcp:flink-datastream-protobuf:1.0.0-1.20 for Flink 1.20, :1.0.0 for 2.x)',
    "  --flink-line LINE        1.20 or 2.x (default: from _metadata's version)",
    '  --state-backend NAME     hashmap or rocksdb: the backend the job restores keyed state with (default: the one that wrote it)',
    '  --metadata PATH          which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(27),
    '  -h, --help               show this help',
    '',
    'Give check the same schema options: check <savepoint> --descriptors <new.binpb> --value-scans <job output>.',
    'Exit codes: 0 the job scans at least one state, 1 it scans none (README says why), 2 unusable input.',
  ].join('\n'),
  inputs: { positionals: true, options: ['descriptors'], limits: { descriptors: MAX_DESCRIPTOR_BYTES } },
  quiet: 'the first line only (where the project was written)',
  options: {
    ...METADATA_OPTION,
    descriptors: { type: 'string' },
    output: { type: 'string' },
    target: { type: 'string' },
    'max-message-size': { type: 'string' },
    'recursion-limit': { type: 'string' },
    deterministic: { type: 'string' },
    aliasing: { type: 'string' },
    root: { type: 'string', multiple: true },
    serializer: { type: 'string' },
    'flink-line': { type: 'string' },
    'state-backend': { type: 'string' },
  },
  async run({ values, positionals }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint');
    const descriptors = values['descriptors'];
    if (typeof descriptors !== 'string') throw new CliUsageError('--descriptors <new.binpb> is required (the schema check --value-scans will check against)');
    const output = values['output'];
    if (typeof output !== 'string') throw new CliUsageError('--output <dir> is required');
    if (output === '-') throw new CliUsageError('--output is the folder of the project (several files): - (stdout) cannot hold it');
    const serializer = parseSerializer(values['serializer']);
    const line = values['flink-line'] === undefined ? undefined : parseChoice(values['flink-line'], '--flink-line', ['1.20', '2.x'] as const);
    const backend =
      values['state-backend'] === undefined ? undefined : parseChoice(values['state-backend'], '--state-backend', ['hashmap', 'rocksdb'] as const);
    await checkOutputDir(output);
    const bytes = await readDescriptorSetFile(descriptors);
    const roots = parseRoots(values['root']);
    // the same check input as `check --values-only` builds from these flags, so the files' schemaSha256 is check's
    const check: WorkerCheckInput = {
      descriptorSet: { name: path.basename(descriptors), bytes },
      tool: { name: 'savepoint-inspector', version: packageJson.version },
      target: parseTarget(values['target']),
      newSettings: {
        ...optionalInt(values['max-message-size'], '--max-message-size', 'maxMessageSize'),
        ...optionalInt(values['recursion-limit'], '--recursion-limit', 'recursionLimit'),
        ...optionalBool(values['deterministic'], '--deterministic', 'deterministicSerialization'),
        ...optionalBool(values['aliasing'], '--aliasing', 'largePayloadAliasing'),
      },
      ...(roots.newRoot ? { newRoot: roots.newRoot } : {}),
      newRoots: roots.newRoots,
      scanValues: true,
      schemaDiff: false,
    };
    const files = await openNodeInput(savepoint, savepointInputOptions(values, io));
    const evaluated = await evaluateSavepointStates({ ...check, files });
    const maxParallelism = checkShardRange(evaluated.opened, { start: 0, end: 0 });
    const operators = evaluated.protobuf.map((s) => s.found.operator);
    const job = generateScanJob({
      savepointName: /^https?:\/\//i.test(savepoint) ? savepoint : path.basename(path.resolve(savepoint)),
      metadataVersion: evaluated.opened.metadata.version,
      schemaName: path.basename(descriptors),
      schemaVersion: JSON_SCHEMA_VERSION,
      toolVersion: TOOL_VERSION,
      savepoint: identifySavepoint(evaluated.opened),
      schemaSha256: digestCheck(check),
      maxParallelism,
      stateBackend: backend ?? (operators.some((o) => o.keyedFormat === 'rocksdb-full' || o.keyedFormat === 'rocksdb-native') ? 'rocksdb' : 'hashmap'),
      states: evaluated.protobuf.map((s) => describeScanJobState(s, evaluated.newSettings)),
      ...(line ? { flinkLine: line } : {}),
      ...(serializer ? { serializer } : {}),
      unscanned: [
        ...evaluated.kryo.map(({ found }) => ({
          operatorId: found.operator.id,
          uid: found.operator.uid ?? null,
          state: found.state.name,
          why: kryoValuesNotRead(found),
        })),
        ...evaluated.peer.map(({ found }) => ({
          operatorId: found.operator.id,
          uid: found.operator.uid ?? null,
          state: found.state.name,
          why: peerValuesNotRead(found),
        })),
      ],
    });
    for (const f of job.files) {
      const target = path.join(output, ...f.path.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeOutputFile(target, f.content);
    }
    const summary = formatSummary(job, output);
    io.stdout(values['quiet'] === true ? `${summary.split('\n')[0]!}\n` : summary);
    return job.scanned.length > 0 ? EXIT_OK : EXIT_FINDINGS;
  },
};

const KEY_TYPES: Record<string, string> = {
  'org.apache.flink.api.common.typeutils.base.IntSerializer$IntSerializerSnapshot': 'INT',
  'org.apache.flink.api.common.typeutils.base.LongSerializer$LongSerializerSnapshot': 'LONG',
  'org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot': 'STRING',
  'org.apache.flink.api.common.typeutils.base.BooleanSerializer$BooleanSerializerSnapshot': 'BOOLEAN',
};
const TTL = 'org.apache.flink.runtime.state.ttl.TtlStateFactory$TtlSerializerSnapshot';

/** The TTL wrapper's user value (its nested serializers: the timestamp, then the value), or the snapshot itself. */
function unwrapTtl(s: SerializerSnapshot | undefined): { value: SerializerSnapshot | undefined; ttl: boolean } {
  return s?.className === TTL ? { value: s.nested[1], ttl: true } : { value: s, ttl: false };
}

/** What the job needs of one of check's Protobuf states, or why it cannot read it (the message as the whole value of a state the job reads). */
function describeScanJobState(s: EvaluatedProtobufState, newSettings: Parameters<typeof planValueWarnings>[1]): ScanJobState {
  const { operator, state, content, snapshot } = s.found;
  const keyed = state.scope === 'keyed';
  const vs = state.valueSerializer;
  let leaf: { value: SerializerSnapshot | undefined; ttl: boolean } = { value: undefined, ttl: false };
  let userKey: SerializerSnapshot | undefined;
  if (state.kind === 'VALUE' || state.kind === 'OPERATOR_LIST' || state.kind === 'OPERATOR_UNION') leaf = unwrapTtl(vs);
  else if (state.kind === 'LIST') leaf = unwrapTtl(vs?.nested[0]);
  else if (state.kind === 'MAP') {
    userKey = vs?.nested[0];
    leaf = unwrapTtl(vs?.nested[1]);
  } else if (state.kind === 'BROADCAST') {
    userKey = state.keySerializer;
    leaf = { value: vs, ttl: false };
  }
  const keyType = keyed ? (KEY_TYPES[state.keySerializer?.className ?? ''] ?? null) : null;
  const userKeyType = userKey ? (KEY_TYPES[userKey.className] ?? null) : null;
  const notRead =
    leaf.value !== snapshot
      ? `scan-job reads Protobuf messages that are a state's whole value (here: ${state.kind} ${vs?.typeLabel ?? '?'}, the message at ${s.found.role})`
      : keyed && keyType === null
        ? `scan-job reads keys of Flink's Integer, Long, String or Boolean serializers (here: ${state.keySerializer?.typeLabel ?? '?'})`
        : userKey && userKeyType === null
          ? `scan-job reads map keys of Flink's Integer, Long, String or Boolean serializers (here: ${userKey.typeLabel})`
          : undefined;
  return {
    operatorId: operator.id,
    uid: operator.uid ?? null,
    state: state.name,
    kind: state.kind,
    keyed,
    maxParallelism: operator.maxParallelism,
    keyType,
    userKeyType,
    ttl: leaf.ttl,
    snapshotClass: snapshot.className,
    root: content.rootFullName,
    recursionLimit: content.settings.recursionLimit,
    descriptorSet: content.descriptorBytes,
    plan: s.compatibility.schema ? planValueWarnings(s.compatibility.schema, newSettings) : null,
    ...(notRead !== undefined ? { notRead } : {}),
  };
}

function parseSerializer(raw: unknown): { groupId: string; artifactId: string; version: string } | undefined {
  if (raw === undefined) return undefined;
  const parts = String(raw).split(':');
  if (parts.length !== 3 || parts.some((p) => !/^[\w.-]+$/.test(p)))
    throw new CliUsageError(`--serializer expects groupId:artifactId:version, found ${String(raw)}`);
  return { groupId: parts[0]!, artifactId: parts[1]!, version: parts[2]! };
}

function parseChoice<T extends string>(raw: unknown, flag: string, choices: readonly T[]): T {
  if (choices.includes(raw as T)) return raw as T;
  throw new CliUsageError(`${flag} expects ${choices.join(' or ')}, found ${String(raw)}`);
}

async function checkOutputDir(dir: string): Promise<void> {
  const s = await stat(dir).catch(() => undefined);
  if (!s) return;
  if (!s.isDirectory()) throw new CliUsageError(`--output ${dir} is not a folder`);
  if ((await readdir(dir)).length > 0) throw new CliUsageError(`--output ${dir} is not empty: give a new or empty folder`);
}

function formatSummary(job: ScanJob, output: string): string {
  const out = [
    `Wrote a State Processor API project to ${output} (Flink ${job.line} line, Flink ${job.versions.flink}; serializer ${job.serializer.groupId}:${job.serializer.artifactId}:${job.serializer.version}):`,
  ];
  for (const f of job.files) out.push(`  ${f.path}`);
  out.push(
    '',
    job.scanned.length > 0
      ? 'Scanned (value-scan files per shard, as check --values-only writes them):'
      : 'Nothing scanned: no Protobuf state the job can read.',
  );
  for (const s of job.scanned) out.push(`  ${s.operator}  ${s.state}  ${s.kind}  ${s.root}`);
  if (job.notScanned.length > 0) {
    out.push('', 'Not scanned (check --value-scans reports their values as not read):');
    for (const n of job.notScanned) out.push(`  ${n.operator}  ${n.state}: ${n.why}`);
  }
  out.push(
    '',
    `Run: cd ${output} && mvn -q compile exec:exec -Dscan.savepoint=<savepoint> -Dscan.output=<folder> -Dscan.parquet=<folder> (or mvn package, then flink run -c ${job.mainClass}: README.md)`,
    'Then: savepoint-inspector check <savepoint> --descriptors <new.binpb> [the same schema options] --value-scans <folder>',
  );
  return `${out.join('\n')}\n`;
}
