/**
 * `migration-plan <savepoint> --descriptors <job.binpb> [--format text|json] [--quiet]`: per operator, the Kryo-held Protobuf states a
 * State Processor API job must rewrite for flink-datastream-protobuf (key type, value class, message, the Kryo
 * configuration found, what to do) and what it cannot carry. Exit 0 with a plan, 1 when there is nothing to migrate.
 */
import { MAX_DESCRIPTOR_BYTES } from '../../core/protobuf';
import path from 'node:path';
import { inspectProtobufStates, loadDescriptorSet } from '../../core/compat';
import { planKryoMigration, type KryoMigrationOperator } from '../../core/migration';
import { CliUsageError, EXIT_FINDINGS, EXIT_OK, type CliCommand } from '../cli-types';
import { formatJsonDocument, METADATA_OPTION, pathMapUsage, parseFormat, savepointInputOptions, takeOnePositional, TEXT_OR_JSON } from '../parse-cli-values';
import { openNodeInput, readDescriptorSetFile } from '../sources';

export const migrationPlanCommand: CliCommand = {
  name: 'migration-plan',
  summary: 'plan the State Processor API migration of Protobuf state held by Kryo to flink-datastream-protobuf',
  usage: [
    'Usage: savepoint-inspector migration-plan <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> --descriptors <job.binpb> [options]',
    '',
    'Options:',
    "  --descriptors FILE   the job's descriptor set (maps the Kryo-held classes to messages)",
    '  --format F           text (default) or json: the plan as {schemaVersion, operators: [...]}',
    '  --metadata PATH      which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(23),
    '  -h, --help           show this help',
    '',
    'Exit codes: 0 a plan was written, 1 no Protobuf state held by Kryo, 2 unusable input.',
  ].join('\n'),
  formats: TEXT_OR_JSON,
  inputs: { positionals: true, options: ['descriptors'], limits: { descriptors: MAX_DESCRIPTOR_BYTES } },
  quiet: 'text: one line, how many states of how many operators to migrate (the exit code says whether any)',
  options: {
    ...METADATA_OPTION,
    descriptors: { type: 'string' },
    format: { type: 'string' },
  },
  async run({ values, positionals }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint');
    const descriptors = values['descriptors'];
    if (typeof descriptors !== 'string') throw new CliUsageError('--descriptors <job.binpb> is required');
    const format = parseFormat(values['format'], TEXT_OR_JSON);
    const bytes = await readDescriptorSetFile(descriptors);
    const name = path.basename(descriptors);
    const files = await openNodeInput(savepoint, savepointInputOptions(values, io));
    const { kryo } = await inspectProtobufStates(files, { kryoSchema: { name, bytes, set: loadDescriptorSet(bytes, name).set } });
    const plan = planKryoMigration(kryo);
    io.stdout(format === 'json' ? formatJsonDocument({ operators: plan }) : values['quiet'] === true ? formatPlanCount(plan) : formatPlan(plan));
    return plan.length > 0 ? EXIT_OK : EXIT_FINDINGS;
  },
};

/** --quiet: how many states of how many operators the plan rewrites. */
function formatPlanCount(plan: readonly KryoMigrationOperator[]): string {
  const states = plan.reduce((n, op) => n + op.states.length, 0);
  return plan.length === 0 ? 'No Protobuf state held by Kryo: nothing to migrate.\n' : `${states} state(s) of ${plan.length} operator(s) to migrate\n`;
}

function formatPlan(plan: readonly KryoMigrationOperator[]): string {
  if (plan.length === 0) return 'No Protobuf state held by Kryo: nothing to migrate.\n';
  const out = [
    'Migration of Protobuf state held by Kryo to flink-datastream-protobuf (State Processor API: read with the old Kryo configuration, write with ProtobufTypeInformation):',
    '',
  ];
  for (const op of plan) {
    out.push(`Operator ${op.uid ? `${op.uid} (${op.operatorId})` : op.operatorId}`);
    for (const s of op.states) {
      out.push(`  - ${s.state}  ${s.kind}${s.keyType ? `, key ${s.keyType}` : ''}, value ${s.valueType}`);
      out.push(`      class ${s.valueClass}${s.messageType ? ` = message ${s.messageType}` : ''}; ${s.kryo}`);
      out.push(
        `      Kryo registrations: ${s.registrations.length > 0 ? s.registrations.join(', ') : 'none'}${s.defaults.length > 0 ? `; defaults: ${s.defaults.join(', ')}` : ''}`,
      );
      out.push(`      do: ${s.action}`);
      out.push(`      job: ${s.generatedJob}`);
    }
    for (const n of op.notCarried) out.push(`  ! ${n.state}: ${n.why}`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
