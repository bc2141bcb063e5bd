/**
 * `migration-job <savepoint> (--descriptors <job.binpb> | --job-jar <job.jar>) --output <dir> [--operator <uid|id> …]
 * [--serializer <groupId:artifactId:version>] [--flink-line 1.20|2.x]`: writes the Maven project of a State Processor
 * API job that rewrites the savepoint's Kryo-held Protobuf states with flink-datastream-protobuf's
 * ProtobufTypeInformation (core: generateKryoMigrationJob). Exit 0 when the job carries a state, 1 when there is
 * nothing it can carry (the README still says why), 2 on unusable input.
 */
import { MAX_DESCRIPTOR_BYTES } from '../../core/protobuf';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { inspectProtobufStates, loadDescriptorSet } from '../../core/compat';
import { generateKryoMigrationJob, type KryoMigrationJob } from '../../core/migration';
import { CliUsageError, EXIT_FINDINGS, EXIT_OK, type CliCommand } from '../cli-types';
import { writeOutputFile } from '../output-failure';
import { METADATA_OPTION, pathMapUsage, savepointInputOptions, takeOnePositional } from '../parse-cli-values';
import { openNodeInput, readDescriptorSetFile, readJobJar } from '../sources';
import { parseWith } from '../parse-cli-values';

export const migrationJobCommand: CliCommand = {
  name: 'migration-job',
  summary: 'write a State Processor API project that moves Protobuf state held by Kryo to flink-datastream-protobuf',
  usage: [
    'Usage: savepoint-inspector migration-job <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> (--descriptors <job.binpb> | --job-jar <job.jar>) --output <dir> [options]',
    '',
    'Options:',
    "  --descriptors FILE     the job's descriptor set: the project generates the message classes from it with protoc",
    "  --job-jar FILE         the job's jar: the project compiles against its classes (system-scoped dependency)",
    '  --output DIR           where to write the project (must not exist or be empty)',
    '  --operator UID|ID      only this operator (repeatable)',
    '  --serializer G:A:V     the flink-datastream-protobuf coordinates (default io.github.flink-gcp:flink-datastream-protobuf:1.0.0-1.20 for Flink 1.20, :1.0.0 for 2.x)',
    "  --flink-line LINE      1.20 or 2.x (default: from _metadata's version)",
    '  --metadata PATH        which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(25),
    '  -h, --help             show this help',
    '',
    'Exit codes: 0 the project carries at least one state, 1 nothing to carry (README says why), 2 unusable input.',
  ].join('\n'),
  inputs: { positionals: true, options: ['descriptors', 'job-jar'], limits: { descriptors: MAX_DESCRIPTOR_BYTES } },
  quiet: 'the first line only (where the project was written)',
  options: {
    ...METADATA_OPTION,
    descriptors: { type: 'string' },
    'job-jar': { type: 'string' },
    output: { type: 'string' },
    operator: { type: 'string', multiple: true },
    serializer: { type: 'string' },
    'flink-line': { type: 'string' },
  },
  async run({ values, positionals }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint');
    const descriptors = values['descriptors'];
    const jobJar = values['job-jar'];
    if (typeof descriptors === 'string' && typeof jobJar === 'string') throw new CliUsageError('give either --job-jar or --descriptors, not both');
    if (typeof descriptors !== 'string' && typeof jobJar !== 'string') throw new CliUsageError('--descriptors <job.binpb> or --job-jar <job.jar> is required');
    const output = values['output'];
    if (typeof output !== 'string') throw new CliUsageError('--output <dir> is required');
    if (output === '-') throw new CliUsageError('--output is the folder of the project (several files): - (stdout) cannot hold it');
    const serializer = parseSerializer(values['serializer']);
    const line = parseLine(values['flink-line']);
    await checkOutputDir(output);
    const jar = typeof jobJar === 'string' ? await readJobJar(jobJar, []) : undefined;
    const bytes = jar ? jar.schema.descriptorSet : await readDescriptorSetFile(descriptors as string);
    const name = jar ? `${path.basename(jobJar as string)} (embedded descriptors)` : path.basename(descriptors as string);
    const set = loadDescriptorSet(bytes, name).set;
    const files = await openNodeInput(savepoint, savepointInputOptions(values, io));
    const { kryo, inspection } = await inspectProtobufStates(files, { kryoSchema: { name, bytes, set } });
    const only = parseWith(values['operator']);
    const unknown = only.filter((o) => !inspection.operators.some((op) => op.id === o || op.uid === o));
    if (unknown.length > 0)
      throw new CliUsageError(
        `--operator ${unknown.join(', ')}: no such operator uid or id in the savepoint (found ${inspection.operators.map((o) => o.uid ?? o.id).join(', ')})`,
      );
    const job = generateKryoMigrationJob({
      savepointName: /^https?:\/\//i.test(savepoint) ? savepoint : path.basename(path.resolve(savepoint)),
      metadataVersion: inspection.metadataVersion,
      operators: inspection.operators,
      found: kryo,
      schema: jar
        ? { kind: 'job-jar', jarPath: path.resolve(jobJar as string) }
        : {
            kind: 'descriptors',
            fileName: path.basename(descriptors as string),
            bytes,
            protoFiles: set.file.map((f) => f.name).filter((f) => !f.startsWith('google/protobuf/')),
          },
      ...(line ? { flinkLine: line } : {}),
      ...(serializer ? { serializer } : {}),
      ...(only.length > 0 ? { onlyOperators: only } : {}),
    });
    for (const f of job.files) {
      const target = path.join(output, ...f.path.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await writeOutputFile(target, f.content);
    }
    const summary = formatSummary(job, output);
    io.stdout(values['quiet'] === true ? `${summary.split('\n')[0]!}\n` : summary);
    return job.carried.length > 0 ? EXIT_OK : EXIT_FINDINGS;
  },
};

function parseSerializer(raw: unknown): { groupId: string; artifactId: string; version: string } | undefined {
  if (raw === undefined) return undefined;
  const parts = String(raw).split(':');
  if (parts.length !== 3 || parts.some((p) => !/^[\w.-]+$/.test(p)))
    throw new CliUsageError(`--serializer expects groupId:artifactId:version, found ${String(raw)}`);
  return { groupId: parts[0]!, artifactId: parts[1]!, version: parts[2]! };
}

function parseLine(raw: unknown): '1.20' | '2.x' | undefined {
  if (raw === undefined) return undefined;
  if (raw === '1.20' || raw === '2.x') return raw;
  throw new CliUsageError(`--flink-line expects 1.20 or 2.x, found ${String(raw)}`);
}

async function checkOutputDir(dir: string): Promise<void> {
  const s = await stat(dir).catch(() => undefined);
  if (!s) return;
  if (!s.isDirectory()) throw new CliUsageError(`--output ${dir} is not a folder`);
  if ((await readdir(dir)).length > 0) throw new CliUsageError(`--output ${dir} is not empty: give a new or empty folder`);
}

function formatSummary(job: KryoMigrationJob, output: string): string {
  const out = [
    `Wrote a State Processor API project to ${output} (Flink ${job.line} line, Flink ${job.versions.flink}; serializer ${job.serializer.groupId}:${job.serializer.artifactId}:${job.serializer.version}):`,
  ];
  for (const f of job.files) out.push(`  ${f.path}`);
  out.push(
    '',
    job.carried.length > 0
      ? 'Carried (read with the old Kryo configuration, written with ProtobufTypeInformation):'
      : 'Nothing carried: no Protobuf state held by Kryo that the job can move.',
  );
  for (const o of job.carried) for (const s of o.states) out.push(`  ${o.operator}  ${s.name}  ${s.kind}  ${s.messageClass}`);
  if (job.notCarried.length > 0) {
    out.push('', 'Not carried (not in the new savepoint):');
    for (const n of job.notCarried) out.push(`  ${n.operator}${n.state ? `  ${n.state}` : ''}: ${n.why}`);
  }
  out.push('', `Run: cd ${output} && mvn -q compile exec:exec -Dmigration.from=<old savepoint> -Dmigration.to=<new savepoint>`);
  out.push(...listRunHints(job));
  return `${out.join('\n')}\n`;
}

/** What to do when the run line's serializer does not resolve, and how to check the migrated savepoint. */
function listRunHints(job: KryoMigrationJob): string[] {
  const { groupId, artifactId, version } = job.serializer;
  const target = version.startsWith('0.') ? '0.x' : '1.x';
  return [
    `If Maven cannot resolve ${groupId}:${artifactId}:${version} (a repository it does not read, or a version not published there): add -Dserializer.version=<version>`,
    '  (or -Dserializer.groupId=… -Dserializer.artifactId=…) for another release, or -Dserializer.repo=/absolute/folder for a folder laid out as a Maven',
    '  repository (a local build); README.md "Serializer".',
    `Then check the migrated savepoint against the new job: savepoint-inspector check <new savepoint> --job-jar <new job.jar> --target ${target}`,
    `  (its states are written by ${artifactId} ${version}, the ${target} line).`,
  ];
}
