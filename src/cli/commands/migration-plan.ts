/**
 * `migration-plan <savepoint> --descriptors <job.binpb> [--json]`: per operator, the Kryo-held Protobuf states a
 * State Processor API job must rewrite for flink-datastream-protobuf (key type, value class, message, the Kryo
 * configuration found, what to do) and what it cannot carry. Exit 0 with a plan, 1 when there is nothing to migrate.
 */
import path from 'node:path';
import { inspectProtobufStates, loadDescriptorSet } from '../../core/compat';
import { planKryoMigration, type KryoMigrationOperator } from '../../core/migration';
import { CliUsageError, EXIT_FINDINGS, EXIT_OK, type CliCommand } from '../cli-types';
import { METADATA_OPTION, savepointInputOptions, takeOnePositional } from '../parse-cli-values';
import { openNodeInput, readDescriptorSetFile } from '../sources';

export const migrationPlanCommand: CliCommand = {
  name: 'migration-plan',
  summary: 'plan the State Processor API migration of Protobuf state held by Kryo to flink-datastream-protobuf',
  usage: [
    'Usage: savepoint-inspector migration-plan <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s) URL> --descriptors <job.binpb> [--json]',
    '',
    'Options:',
    "  --descriptors FILE   the job's descriptor set (maps the Kryo-held classes to messages)",
    '  --json               print the plan as JSON',
    '  --metadata PATH      which savepoint of an input holding several (its _metadata path in it, or its folder)',
    '  -h, --help           show this help',
    '',
    'Exit codes: 0 a plan was written, 1 no Protobuf state held by Kryo, 2 unusable input.',
  ].join('\n'),
  options: {
    ...METADATA_OPTION,
    descriptors: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint');
    const descriptors = values['descriptors'];
    if (typeof descriptors !== 'string') throw new CliUsageError('--descriptors <job.binpb> is required');
    const bytes = await readDescriptorSetFile(descriptors);
    const name = path.basename(descriptors);
    const files = await openNodeInput(savepoint, savepointInputOptions(values));
    const { kryo } = await inspectProtobufStates(files, { kryoSchema: { name, bytes, set: loadDescriptorSet(bytes, name).set } });
    const plan = planKryoMigration(kryo);
    io.stdout(values['json'] === true ? `${JSON.stringify({ operators: plan }, null, 2)}\n` : formatPlan(plan));
    return plan.length > 0 ? EXIT_OK : EXIT_FINDINGS;
  },
};

function formatPlan(plan: readonly KryoMigrationOperator[]): string {
  if (plan.length === 0) return 'No Protobuf state held by Kryo: nothing to migrate.\n';
  const out = ['Migration of Protobuf state held by Kryo to flink-datastream-protobuf (State Processor API: read with the old Kryo configuration, write with ProtobufTypeInformation):', ''];
  for (const op of plan) {
    out.push(`Operator ${op.uid ? `${op.uid} (${op.operatorId})` : op.operatorId}`);
    for (const s of op.states) {
      out.push(`  - ${s.state}  ${s.kind}${s.keyType ? `, key ${s.keyType}` : ''}, value ${s.valueType}`);
      out.push(`      class ${s.valueClass}${s.messageType ? ` = message ${s.messageType}` : ''}; ${s.kryo}`);
      out.push(`      Kryo registrations: ${s.registrations.length > 0 ? s.registrations.join(', ') : 'none'}${s.defaults.length > 0 ? `; defaults: ${s.defaults.join(', ')}` : ''}`);
      out.push(`      do: ${s.action}`);
      out.push(`      job: ${s.generatedJob}`);
    }
    for (const n of op.notCarried) out.push(`  ! ${n.state}: ${n.why}`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
