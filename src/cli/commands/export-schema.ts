/**
 * `export-schema <savepoint> [--operator <id|uid>] [--state <name>] [--role R] [--root NAME] [--output FILE | -] [--format text|json]`: the
 * saved Protobuf schemas of a savepoint (the descriptor sets its serializer snapshots embed). Without
 * --output it lists them; with --output it writes the one the selection names, byte for byte, as a
 * FileDescriptorSet that `compare --against` reads: keep it next to the job's code and check every
 * change of the schema against what production state was saved with, without the savepoint.
 */
import { DEFAULT_SETTINGS, listSavedSchemas, type SavedSchema } from '../../core/compat';
import { CliUsageError, EXIT_BAD_INPUT, EXIT_OK, type CliCommand, type CliIo } from '../cli-types';
import { rethrowAsOutputFailure, writeOutputFile } from '../output-failure';
import { flushWritable, writeToWritable } from '../write-to-writable';
import { formatJsonDocument, METADATA_OPTION, pathMapUsage, parseFormat, savepointInputOptions, takeOnePositional, TEXT_OR_JSON } from '../parse-cli-values';
import { selectSavedSchemas } from './select-saved-schemas';
import { openNodeInput } from '../sources';

export const exportSchemaCommand: CliCommand = {
  name: 'export-schema',
  summary: "list a savepoint's saved Protobuf schemas, or write one as a descriptor set for compare",
  usage: [
    'Usage: savepoint-inspector export-schema <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> [options]',
    '',
    'Reads _metadata and the state headers only. Without --output, lists every Protobuf state with its',
    'root message and saved schema; with --output, writes the saved schema the selection names.',
    '',
    'Options:',
    '  --operator <id|uid>  only states of this operator (32-hex id or uid)',
    '  --state <name>       only states of this name',
    '  --role <role>        only this serializer of a state (VALUE_SERIALIZER, KEY_SERIALIZER, VALUE_SERIALIZER/1 for a map value, …)',
    '  --root <name>        only Protobuf types with this root message',
    '  --output FILE        write the selected saved schema (a FileDescriptorSet) to FILE (- for stdout: the note goes to stderr)',
    '  --format F           text (default) or json: the list as {schemaVersion, schemas: [{operator, operatorUid, state, role, root, javaClass, snapshotClass, settings, size, sha256}]}',
    '  --metadata PATH      which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(23),
    '  -h, --help           show this help',
    '',
    'Then: savepoint-inspector compare <new.binpb> --against FILE --root <root>',
  ].join('\n'),
  formats: TEXT_OR_JSON,
  inputs: { positionals: true },
  quiet: "the list's first line (how many states and schemas); with --output, nothing",
  options: {
    ...METADATA_OPTION,
    operator: { type: 'string' },
    state: { type: 'string' },
    role: { type: 'string' },
    root: { type: 'string' },
    output: { type: 'string' },
    format: { type: 'string' },
  },
  async run({ values, positionals, deprecated }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint');
    const selection = {
      ...optionalText(values['operator'], 'operator'),
      ...optionalText(values['state'], 'state'),
      ...optionalText(values['role'], 'role'),
      ...optionalText(values['root'], 'root'),
    };
    const output = values['output'];
    const format = parseFormat(values['format'], TEXT_OR_JSON);
    if (output !== undefined && format === 'json') throw new CliUsageError('--format json lists the schemas; it cannot be combined with --output');
    if (output === '-' && io.stdoutStream === undefined) throw new CliUsageError('--output - needs a byte stream on stdout, which this caller does not give');
    const all = await listSavedSchemas(await openNodeInput(savepoint, savepointInputOptions(values, io)));
    const selected = selectSavedSchemas(all, selection);
    if (selected.kind === 'none') {
      const given = Object.entries(selection)
        .map(([k, v]) => ` --${k} ${v}`)
        .join('');
      return fail(
        io,
        all.length === 0
          ? 'the savepoint has no Protobuf state'
          : `no Protobuf state matches${given}; its Protobuf states:\n${all.map(describeState).join('\n')}`,
      );
    }
    if (typeof output !== 'string') {
      // the old --json printed a bare array: kept for one release, as it was
      if (format === 'json')
        io.stdout(
          deprecated.includes('--json')
            ? `${JSON.stringify(selected.states.map(toJson), null, 2)}\n`
            : formatJsonDocument({ schemas: selected.states.map(toJson) }),
        );
      else io.stdout(values['quiet'] === true ? `${formatList(selected.states).split('\n')[0]!}\n` : formatList(selected.states));
      return EXIT_OK;
    }
    if (selected.kind === 'several') {
      return fail(
        io,
        `the selection holds ${selected.schemas} different saved schemas; narrow it with --operator, --state, --role or --root:\n${selected.states.map(describeState).join('\n')}`,
      );
    }
    const chosen = selected.schema;
    if (output === '-') await writeBytesToStdout(io.stdoutStream!, chosen.descriptorBytes);
    else await writeOutputFile(output, chosen.descriptorBytes);
    if (values['quiet'] === true) return EXIT_OK;
    const roots = [...new Set(selected.states.map((s) => s.rootFullName))];
    // with the schema on stdout, the note goes to stderr
    (output === '-' ? io.stderr : io.stdout)(
      `wrote ${output === '-' ? 'stdout' : output}: the saved schema of ${selected.states.map(describeStateName).join(', ')} (${chosen.descriptorBytes.length} bytes, sha256 ${chosen.descriptorSha256})\n` +
        `check a new schema against it: savepoint-inspector compare <new.binpb> --against ${output} ${roots.map((r) => `--root ${r}`).join(' ')}\n`,
    );
    return EXIT_OK;
  },
};

function fail(io: CliIo, message: string): number {
  io.stderr(`savepoint-inspector export-schema: ${message}\n`);
  return EXIT_BAD_INPUT;
}

function describeStateName(s: SavedSchema): string {
  return `${s.operatorUid ?? s.operatorId}/${s.state} ${s.role}`;
}

function optionalText(raw: unknown, key: string): Record<string, string> {
  if (raw === undefined) return {};
  if (typeof raw !== 'string' || raw === '') throw new CliUsageError(`--${key} needs a value`);
  return { [key]: raw };
}

function describeState(s: SavedSchema): string {
  return `  ${describeStateName(s)}: root ${s.rootFullName}, schema ${s.descriptorSha256.slice(0, 12)}… (${s.descriptorBytes.length} bytes)`;
}

function formatList(list: readonly SavedSchema[]): string {
  const distinct = new Set(list.map((s) => s.descriptorSha256)).size;
  const states = new Set(list.map((s) => `${s.operatorId}\u0000${s.state}`)).size;
  const lines = [`${states} Protobuf state(s), ${list.length} serializer(s) with a Protobuf type, ${distinct} saved schema(s):`];
  for (const s of list) {
    lines.push(`  ${s.operatorUid ? `${s.operatorUid} (${s.operatorId})` : s.operatorId} / ${s.state} [${s.role}]`);
    lines.push(`    root ${s.rootFullName}, Java class ${s.javaClass}; schema sha256 ${s.descriptorSha256} (${s.descriptorBytes.length} bytes)`);
    lines.push(`    saved settings: ${describeSettings(s)}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeSettings(s: SavedSchema): string {
  const t = s.settings;
  const defaults =
    t.maxMessageSize === DEFAULT_SETTINGS.maxMessageSize &&
    t.recursionLimit === DEFAULT_SETTINGS.recursionLimit &&
    t.deterministicSerialization === DEFAULT_SETTINGS.deterministicSerialization;
  return `maxMessageSize ${t.maxMessageSize}, recursionLimit ${t.recursionLimit}, deterministicSerialization ${t.deterministicSerialization}${defaults ? ' (the defaults)' : ' (not the defaults: compare assumes the defaults, check reads these)'}`;
}

function toJson(s: SavedSchema): Record<string, unknown> {
  return {
    operator: s.operatorId,
    ...(s.operatorUid ? { operatorUid: s.operatorUid } : {}),
    state: s.state,
    role: s.role,
    root: s.rootFullName,
    javaClass: s.javaClass,
    snapshotClass: s.snapshotClass,
    settings: s.settings,
    size: s.descriptorBytes.length,
    sha256: s.descriptorSha256,
  };
}

/** The saved schema's bytes on stdout (`--output -`), drained before the command ends. */
async function writeBytesToStdout(out: NonNullable<CliIo['stdoutStream']>, bytes: Uint8Array): Promise<void> {
  try {
    await writeToWritable(out)(bytes);
    await flushWritable(out);
  } catch (e) {
    rethrowAsOutputFailure(e, 'stdout');
  }
}
