/**
 * `inspect <savepoint folder | _metadata | archive | URL | -> [--format text|json] [--handles] [--headers-only] [--quiet]`:
 * what a savepoint holds per operator and state (serializers, entry counts), from `_metadata` and
 * the state files.
 */
import { MAX_DESCRIPTOR_BYTES } from '../../core/protobuf';
import { openSavepointSession, type SavepointInspection } from '../../core/flink';
import { CliUsageError, EXIT_FINDINGS, EXIT_OK, type CliCommand } from '../cli-types';
import { METADATA_OPTION, pathMapUsage, parseFormat, savepointInputOptions, takeOnePositional, TEXT_OR_JSON } from '../parse-cli-values';
import { buildInspectDocument } from '../format/build-inspect-document';
import { formatInspectionText } from '../format/format-inspection-text';
import { openNodeInput } from '../sources';
import { colorInspectionText, shouldColor } from '../format-color';
import { createSavepointRegistry } from '../../core/compat';
import { buildSizeBreakdown, sizedStatesOf } from '../../core/report';
import { readUserSchema, USER_SCHEMA_OPTIONS, USER_SCHEMA_USAGE } from './read-user-schema';

export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: 'list operators, states, serializers and entry counts of a savepoint',
  usage: [
    'Usage: savepoint-inspector inspect <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> [options]',
    '',
    'Options:',
    '  --format F      text (default) or json: the inspection as a stable JSON document (docs/cli.md)',
    '  --handles       with --format json: include the per-subtask state handles from _metadata',
    '  --headers-only  read only _metadata and the state headers; do not count entries',
    ...USER_SCHEMA_USAGE,
    '  --strict        exit 1 when any state is not decoded fully (with --headers-only: when a header',
    '                  shows one cannot be: unreadable, unknown serializer, a changelog not applied)',
    '  --metadata PATH  which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(19),
    '  -h, --help      show this help',
  ].join('\n'),
  formats: TEXT_OR_JSON,
  inputs: { positionals: true, options: ['descriptors', 'job-jar', 'with'], limits: { descriptors: MAX_DESCRIPTOR_BYTES } },
  quiet: 'text: only the closing line (how many states were decoded fully)',
  options: {
    ...METADATA_OPTION,
    format: { type: 'string' },
    ...USER_SCHEMA_OPTIONS,
    handles: { type: 'boolean' },
    'headers-only': { type: 'boolean' },
    strict: { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint to inspect');
    const format = parseFormat(values['format'], TEXT_OR_JSON);
    if (values['handles'] === true && format !== 'json') throw new CliUsageError('--handles needs --format json');
    const userSchema = await readUserSchema(values);
    const files = await openNodeInput(savepoint, savepointInputOptions(values, io));
    // `_metadata` read once: the inspection and --handles come from one session
    const session = await openSavepointSession(files, createSavepointRegistry({ schema: userSchema }));
    const inspection = await session.inspect({ countEntries: values['headers-only'] !== true });
    // where the bytes are: from the handles and the states listed, nothing more read
    const sizes = buildSizeBreakdown(session.opened.metadata, sizedStatesOf(inspection));
    if (format === 'json') {
      const doc = buildInspectDocument(inspection, { sizes, ...(values['handles'] === true ? { metadata: session.opened.metadata } : {}) });
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      const text = formatInspectionText(inspection, sizes);
      // --quiet: the closing line alone (the last one)
      const shown = values['quiet'] === true ? `${text.trimEnd().split('\n').pop()!}\n` : text;
      io.stdout(shouldColor(io) ? colorInspectionText(shown) : shown);
    }
    return values['strict'] === true && !isDecodedFully(inspection) ? EXIT_FINDINGS : EXIT_OK;
  },
};

/**
 * `--strict`: every state decoded fully and every subtask's states listed; without an entry scan
 * (--headers-only), no header showing a state that cannot be decoded fully.
 */
export function isDecodedFully(inspection: SavepointInspection): boolean {
  const { summary } = inspection;
  if (summary.streamsNotRead > 0 || summary.partlyDecoded > 0 || summary.notRead > 0) return false;
  if (summary.notScanned === 0) return true;
  return inspection.operators.every((op) => op.states.every((s) => s.status === 'ok' && s.incomplete === undefined));
}
