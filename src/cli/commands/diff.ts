/**
 * `diff <older> <newer> [--values] [--format text|json|markdown] [--fail-on-growth N%] [--fail-on-removed-state]`:
 * what changed between two savepoints of one job — operators added, removed and renamed, states added and
 * removed, serializer and saved-schema changes, sizes per state and per subtask, parallelism; with
 * `--values` entries and key-group skew. Exit 1 when a `--fail-on-*` condition is met or the two share no
 * operator (core/report's evaluateDiffFailures).
 */
import { openSavepointSession } from '../../core/flink';
import { createSavepointRegistry } from '../../core/compat';
import { diffSavepoints, evaluateDiffFailures, formatSavepointDiffMarkdown, formatSavepointDiffText } from '../../core/report';
import { CliUsageError, EXIT_FINDINGS, EXIT_OK, type CliCommand } from '../cli-types';
import { formatJsonDocument, pathMapUsage, parseFormat, savepointInputOptions } from '../parse-cli-values';
import { openNodeInput } from '../sources';

const DIFF_FORMATS = ['text', 'json', 'markdown'] as const;

export const diffCommand: CliCommand = {
  name: 'diff',
  summary: 'what changed between two savepoints of a job: operators, states, serializers, saved schemas, sizes',
  usage: [
    'Usage: savepoint-inspector diff <older savepoint> <newer savepoint> [options]',
    '',
    'Each savepoint as `inspect` takes it: a folder, a _metadata file, a .zip/.tar/.tar.gz, an http(s), s3://,',
    'abfss:// / wasbs:// or gs:// URL. Only _metadata and the state headers are read unless --values.',
    '',
    'Options:',
    '  --format F               text (default), json or markdown',
    '  --values                 also scan the entries of both: entries, value bytes and key-group skew per state',
    "  --fail-on-growth N%      exit 1 when a state grew by more than N% (operator and broadcast states, each operator's",
    "                           keyed state together; with --values each keyed state's value bytes)",
    '  --fail-on-removed-state  exit 1 when a state, or an operator holding state, is in the older savepoint only',
    ...pathMapUsage(26),
    '  -h, --help               show this help',
    '',
    'Exit codes: 0 compared, no --fail-on-* condition met; 1 a --fail-on-* condition met, the two savepoints share',
    'no operator holding state (different jobs), or with a --fail-on-* option part of either could not be compared;',
    '2 bad input or usage.',
  ].join('\n'),
  formats: DIFF_FORMATS,
  inputs: { positionals: true },
  quiet: 'text and markdown: only the summary and FAIL lines; json: the whole document',
  options: {
    'path-map': { type: 'string', multiple: true },
    format: { type: 'string' },
    values: { type: 'boolean' },
    'fail-on-growth': { type: 'string' },
    'fail-on-removed-state': { type: 'boolean' },
  },
  async run({ values, positionals }, io) {
    if (positionals.length !== 2)
      throw new CliUsageError(
        positionals.length < 2
          ? `expected two savepoints, the older and the newer, found ${positionals.length}`
          : `expected two savepoints, found ${positionals.length}: ${positionals.join(', ')}`,
      );
    const [olderPath, newerPath] = positionals as [string, string];
    const format = parseFormat(values['format'], DIFF_FORMATS);
    const growth = parseGrowth(values['fail-on-growth']);
    const inputOptions = savepointInputOptions(values, io);
    const older = await openSavepointSession(await openNodeInput(olderPath, inputOptions), createSavepointRegistry());
    const newer = await openSavepointSession(await openNodeInput(newerPath, inputOptions), createSavepointRegistry());
    const diff = await diffSavepoints({ older, newer, values: values['values'] === true });
    const failures = evaluateDiffFailures(diff, { ...(growth !== undefined ? { growth } : {}), removedState: values['fail-on-removed-state'] === true });
    if (format === 'json') io.stdout(formatJsonDocument({ diff, failures }));
    else {
      const text = format === 'markdown' ? formatSavepointDiffMarkdown(diff, failures) : formatSavepointDiffText(diff, failures);
      io.stdout(values['quiet'] === true ? keepSummary(text) : text);
    }
    return failures.length > 0 ? EXIT_FINDINGS : EXIT_OK;
  },
};

/** `--quiet`: the Summary section alone (its heading line and the lines under it). */
function keepSummary(text: string): string {
  const lines = text.trimEnd().split('\n');
  const at = lines.findIndex((l) => /^(### )?Summary$/.test(l));
  return `${lines.slice(at).join('\n')}\n`;
}

/** `50%` or `50` → 0.5 */
export function parseGrowth(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const m = typeof raw === 'string' ? /^(\d+(?:\.\d+)?)%?$/.exec(raw) : null;
  if (!m) throw new CliUsageError(`--fail-on-growth expects a percentage such as 50%, found '${String(raw)}'`);
  return Number(m[1]) / 100;
}
