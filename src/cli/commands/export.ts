/**
 * `export <savepoint> --operator <id|uid> (--state <name> | --all) --format jsonl|csv|parquet --output <file|folder>`:
 * a state's entries as rows (core/export: exportStates over the one state scan), streamed to a file;
 * `--all` writes one file per state of the operator into a folder, all in one read of its state files. Progress on stderr for long
 * exports; `--every-key-group N` / `--limit N` (was `--first N`) sample as in `stats`. Bytes go through a Writable (the
 * file's stream, or stdout for `--output -`) and the export waits for its 'drain' when it is behind
 * (back pressure: a slow pipe or disk pauses the scan; memory stays at a row group). A state whose values cannot be
 * read is refused with its reason (exit 2); rows that are not the whole state are said so on stderr.
 */
import { MAX_DESCRIPTOR_BYTES } from '../../core/protobuf';
import { createWriteStream, mkdirSync, openSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { EXPORT_UNKNOWN_FIELDS_PER_VALUE, exportStates, type ExportFormat, type ExportProgress, type ParquetListLayout } from '../../core/export';
import { findOperator, getKryoSnapshotDetails, openSavepointSession, type InspectedState, type SerializerSnapshot, type StateSample } from '../../core/flink';
import { wrongInput } from '../../core/io';
import { CliUsageError, EXIT_FINDINGS, EXIT_OK, type CliCommand, type CliIo } from '../cli-types';
import { METADATA_OPTION, pathMapUsage, savepointInputOptions, takeOnePositional } from '../parse-cli-values';
import { openNodeInput } from '../sources';
import { checkShardRange, parseKeyGroupRange, parseOperatorStateFlag } from '../scan';
import { rethrowAsOutputFailure } from '../output-failure';
import { endWritable, flushWritable, writeToWritable } from '../write-to-writable';
import { createSavepointRegistry } from '../../core/compat';
import { readUserSchema, USER_SCHEMA_OPTIONS, USER_SCHEMA_USAGE } from './read-user-schema';

const FORMATS: readonly ExportFormat[] = ['jsonl', 'csv', 'parquet', 'arrow'];
const EXTENSIONS: Record<ExportFormat, string> = { jsonl: 'jsonl', csv: 'csv', parquet: 'parquet', arrow: 'arrows' };

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write the entries of a state as JSON Lines, CSV or Parquet (Protobuf values as nested columns)',
  usage: [
    'Usage: savepoint-inspector export <savepoint folder | _metadata | .zip/.tar/.tar.gz | http(s), s3://, abfss:// / wasbs:// or gs:// URL> --operator <id|uid> (--state <name> | --all) --format jsonl|csv|parquet --output <file | folder> [options]',
    '',
    'Options:',
    '  --operator <id|uid>   the operator: 32-hex operator id or its uid',
    '  --state <name>        the state to export (one file: --output is the file)',
    '  --all                 every state of the operator, one file each (--output is a folder)',
    '  --format <f>          jsonl (Protobuf values as ProtoJSON), csv, parquet (nested columns as parquet-protobuf derives them), arrow (Arrow IPC stream, the Parquet columns)',
    '  --output <path>       the file (or with --all the folder) to write; - for stdout (then the summary goes to stderr)',
    "  --layout <l>          parquet: legacy (bare repeated fields, as Flink's ParquetProtoWriters writes; default) or spec (LIST/MAP wrappers)",
    '  --every-key-group N   sample: read only key groups 0, N, 2N, … of keyed state',
    '  --limit N             sample: only the first N entries of each state (was --first)',
    '  --key-groups A-B      a key-group shard (inclusive): --output is a folder, the rows go to part-A-B.<ext> in it (--all: in <scope>-<state>/)',
    '  --operator-state yes|no  with --key-groups: export operator state in this shard (default: yes for key group 0)',
    '  --keep-partial        when the export fails, keep what was written as <file>.partial (the reason in its metadata) instead of removing it',
    ...USER_SCHEMA_USAGE,
    '  --metadata PATH       which savepoint of an input holding several (its _metadata path in it, or its folder)',
    ...pathMapUsage(24),
    '  -h, --help            show this help',
  ].join('\n'),
  formats: FORMATS,
  inputs: { positionals: true, options: ['descriptors', 'job-jar', 'with'], limits: { descriptors: MAX_DESCRIPTOR_BYTES } },
  quiet: 'no progress on stderr, and no summary line on success (warnings and failures are still said)',
  options: {
    ...METADATA_OPTION,
    operator: { type: 'string' },
    state: { type: 'string' },
    all: { type: 'boolean' },
    format: { type: 'string' },
    output: { type: 'string' },
    layout: { type: 'string' },
    'every-key-group': { type: 'string' },
    limit: { type: 'string' },
    'keep-partial': { type: 'boolean' },
    'key-groups': { type: 'string' },
    'operator-state': { type: 'string' },
    ...USER_SCHEMA_OPTIONS,
  },
  async run({ values, positionals }, io) {
    const savepoint = takeOnePositional(positionals, 'expected a savepoint to export');
    const operator = values['operator'];
    const stateName = values['state'];
    const all = values['all'] === true;
    const format = values['format'];
    const output = values['output'];
    if (typeof operator !== 'string' || operator === '') throw new CliUsageError('expected --operator <id|uid>');
    if (all === (typeof stateName === 'string')) throw new CliUsageError('expected either --state <name> or --all');
    if (typeof format !== 'string' || !FORMATS.includes(format as ExportFormat))
      throw new CliUsageError(`expected --format jsonl, csv, parquet or arrow, found ${JSON.stringify(format ?? null)}`);
    if (typeof output !== 'string' || output === '') throw new CliUsageError('expected --output <path>');
    const toStdout = output === '-';
    if (toStdout && all) throw new CliUsageError('--all writes one file per state: --output must be a folder, not -');
    if (toStdout && io.stdoutStream === undefined) throw new CliUsageError('--output - needs a byte stream on stdout, which this caller does not give');
    const layoutText = values['layout'] ?? 'legacy';
    if (layoutText !== 'legacy' && layoutText !== 'spec') throw new CliUsageError(`expected --layout legacy or spec, found ${JSON.stringify(layoutText)}`);
    const every = parsePositive(values['every-key-group'], '--every-key-group');
    const first = parsePositive(values['limit'], '--limit');
    if (every !== undefined && first !== undefined) throw new CliUsageError('use either --every-key-group or --limit, not both');
    const sample: StateSample | undefined =
      every !== undefined ? { kind: 'key-groups', every } : first !== undefined ? { kind: 'first-entries', count: first } : undefined;
    // a key-group shard: --output is the folder of the state's part files (part-A-B.<ext>), one table for a reader of the folder
    const keyGroupRange = parseKeyGroupRange(values['key-groups']);
    const operatorState = parseOperatorStateFlag(values['operator-state']);
    if (operatorState !== undefined && keyGroupRange === undefined) throw new CliUsageError('--operator-state needs --key-groups A-B');
    if (keyGroupRange !== undefined && toStdout) throw new CliUsageError('--key-groups writes a part file into the folder --output names, not to -');
    if (keyGroupRange !== undefined && first !== undefined)
      throw new CliUsageError('use either --key-groups or --limit, not both (the first N entries of a state are not split by key group)');

    // the job's schema decodes Protobuf held by Kryo or flink-protobuf-serde (no snapshot of theirs embeds one), as dump and stats do
    const userSchema = await readUserSchema(values);
    const files = await openNodeInput(savepoint, savepointInputOptions(values, io));
    // `_metadata` read once: the operator, the inspection and the export come from one session
    const session = await openSavepointSession(files, createSavepointRegistry({ schema: userSchema }));
    const { opened, registry } = session;
    if (keyGroupRange !== undefined) checkShardRange(opened, keyGroupRange);
    const op = findOperator(opened, operator);
    if (op === undefined) throw wrongInput('not-found', `expected an operator of the savepoint (id or uid), found ${JSON.stringify(operator)}`);
    const inspection = await session.inspect();
    const states = inspection.operators.find((o) => o.id === op.id)?.states ?? [];
    const names = [...new Set(states.map((s) => s.name))].sort();
    let chosen: InspectedState[];
    if (all) {
      chosen = states;
      mkdirSync(output, { recursive: true });
    } else {
      chosen = states.filter((s) => s.name === stateName);
      if (chosen.length === 0)
        throw wrongInput(
          'not-found',
          `expected a state of operator ${op.id}, found ${JSON.stringify(stateName)} (its states: ${names.length === 0 ? 'none' : names.map((n) => JSON.stringify(n)).join(', ')})`,
        );
      chosen = chosen.slice(0, 1);
    }
    if (keyGroupRange !== undefined) mkdirSync(output, { recursive: true });
    const quiet = values['quiet'] === true;
    const keepPartial = values['keep-partial'] === true;
    let partial = false;
    // every chosen state in one read of the operator's state files (exportStates), each into its own file
    const extension = EXTENSIONS[format as ExportFormat];
    const stateFile = (state: InspectedState) => `${state.scope}-${state.name.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    const part = keyGroupRange === undefined ? '' : `part-${keyGroupRange.start}-${keyGroupRange.end}.${extension}`;
    const targets = chosen.map((state) => {
      if (toStdout) return 'stdout';
      if (keyGroupRange !== undefined) {
        // --all: a folder per state, each holding its part files
        if (!all) return path.join(output, part);
        mkdirSync(path.join(output, stateFile(state)), { recursive: true });
        return path.join(output, stateFile(state), part);
      }
      return all ? path.join(output, `${stateFile(state)}.${extension}`) : output;
    });
    // opened here, so a path the file system refuses fails at once with its own message; a regular file is
    // written under a temporary name beside it and renamed only when its export succeeded
    const outputs = toStdout ? [{ target: 'stdout', out: io.stdoutStream!, temp: undefined }] : targets.map(openOutputFile);
    const progress = quiet ? undefined : chosen.map((state) => reportProgress(state.name, io));
    let results;
    try {
      const sinks = outputs.map(({ out, target }) => {
        const write = writeToWritable(out);
        return (chunk: Uint8Array) => {
          try {
            return write(chunk)?.catch((e: unknown) => rethrowAsOutputFailure(e, target));
          } catch (e) {
            // stdout on a file or device writes synchronously
            return rethrowAsOutputFailure(e, target);
          }
        };
      });
      results = await exportStates(
        opened,
        registry,
        {
          states: chosen,
          operator: op.id,
          format: format as ExportFormat,
          layout: layoutText as ParquetListLayout,
          headers: session.headers,
          ...(sample === undefined ? {} : { sample }),
          ...(keyGroupRange === undefined ? {} : { keyGroupRange, ...(operatorState === undefined ? {} : { operatorState }) }),
          ...(progress === undefined ? {} : { progress: (i: number, p: ExportProgress) => progress[i]!(p) }),
        },
        (i, chunk) => sinks[i]!(chunk),
      );
      for (const { out, target } of outputs) await (toStdout ? flushWritable(out) : endWritable(out)).catch((e: unknown) => rethrowAsOutputFailure(e, target));
    } catch (e) {
      // nothing complete-looking is left behind: the temporary files go (or become <file>.partial when asked)
      for (const o of outputs) {
        if (o.temp === undefined) continue;
        o.out.destroy();
        try {
          const kept = settleTemp(o.temp, o.target, false, keepPartial);
          if (kept !== undefined) io.stderr(`savepoint-inspector export: the export failed; what was written is kept as ${kept}\n`);
        } catch {
          // the failure being reported says more than a temporary file that would not go
        }
      }
      throw e;
    } finally {
      if (!toStdout) for (const { out } of outputs) out.destroy();
    }
    results.forEach((result, i) => {
      const state = chosen[i]!;
      // Protobuf behind Kryo without the job's schema: its values are written as opaque bytes — say how to decode them
      if (userSchema === undefined && holdsUndecodedKryoProtobuf(state.valueSerializer)) {
        io.stderr(
          `savepoint-inspector export: warning: ${state.name}: its values are Protobuf held by Kryo, written as opaque bytes: give the job's schema (--descriptors or --job-jar) to decode them\n`,
        );
      }
      const { target, temp } = outputs[toStdout ? 0 : i]!;
      // part of the state could not be read or decoded (a stream failed, a part not readable here, values kept as bytes): the file is partial
      const failed = result.failures.length > 0;
      if (failed) partial = true;
      const written = temp === undefined ? target : settleTemp(temp, target, !failed, keepPartial);
      const rows = `${result.rows} row${result.rows === 1 ? '' : 's'} of state ${JSON.stringify(state.name)} (${result.entries} entr${result.entries === 1 ? 'y' : 'ies'})`;
      const undecoded = result.undecodable === 0 ? '' : `, ${result.undecodable} value${result.undecodable === 1 ? '' : 's'} not decoded`;
      const outcome = !failed
        ? ''
        : temp === undefined
          ? ` — the export failed: ${toStdout ? 'the output' : 'the file'} is partial`
          : written === undefined
            ? ' — the export failed: file removed (--keep-partial keeps it as <file>.partial)'
            : ` — the export failed: kept as ${written}`;
      const summary = `${written ?? target}: ${rows}${undecoded}${outcome}\n`;
      // --quiet: the summary only when the export failed
      if (quiet && !failed) {
        // nothing on success
      } else if (toStdout) io.stderr(`savepoint-inspector export: ${summary}`);
      else io.stdout(summary);
      for (const why of result.incomplete) io.stderr(`savepoint-inspector export: warning: ${state.name}: not the whole state: ${why}\n`);
      if (result.undecodable > 0) io.stderr(`savepoint-inspector export: warning: ${state.name}: ${result.failures[result.failures.length - 1]}\n`);
      const capped = result.unknownFieldsCapped;
      if (capped.rows > 0) {
        io.stderr(
          `savepoint-inspector export: warning: ${state.name}: ${capped.rows} value${capped.rows === 1 ? ' has' : 's have'} more than ${EXPORT_UNKNOWN_FIELDS_PER_VALUE} unknown fields: the first ${EXPORT_UNKNOWN_FIELDS_PER_VALUE} of each are written, ${capped.omitted} left out (counted in each row)\n`,
        );
      }
    });
    return partial ? EXIT_FINDINGS : EXIT_OK;
  },
};

interface OutputFile {
  /** the path the user asked for */
  target: string;
  out: Writable;
  /** the temporary file beside it (a regular file target), renamed to it on success */
  temp: string | undefined;
}

/**
 * The output of one state: a regular file (or a path not there yet) is written as a hidden temporary file
 * beside it (`.<name>.<pid>.tmp`), so a failed export never leaves a complete-looking file; what is not a
 * regular file (a device such as /dev/null, a FIFO) is written in place. A folder is refused.
 */
function openOutputFile(target: string): OutputFile {
  let info: Stats | undefined;
  try {
    info = statSync(target);
  } catch {
    info = undefined;
  }
  if (info?.isDirectory() === true) throw wrongInput('bad-path', `expected a file to write, found a directory: ${target}`);
  const temp = info === undefined || info.isFile() ? path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`) : undefined;
  try {
    return { target, temp, out: createWriteStream('', { fd: openSync(temp ?? target, 'w') }) };
  } catch (e) {
    return rethrowAsOutputFailure(e, target);
  }
}

/**
 * The temporary file after its export: renamed to the target on success; on failure removed, or renamed
 * to `<target>.partial` with --keep-partial. Returns the path it now has (undefined: removed).
 */
function settleTemp(temp: string, target: string, succeeded: boolean, keepPartial: boolean): string | undefined {
  const to = succeeded ? target : keepPartial ? `${target}.partial` : undefined;
  try {
    if (to === undefined) rmSync(temp, { force: true });
    else renameSync(temp, to);
  } catch (e) {
    rethrowAsOutputFailure(e, to ?? target);
  }
  return to;
}

/**
 * Progress on stderr for a long export: a line once 1,000 rows are written, then at most one a second,
 * and the last count when a line was printed before (so short exports stay silent).
 */
function reportProgress(name: string, io: CliIo): (p: ExportProgress) => void {
  let last: number | undefined;
  return (p) => {
    const now = Date.now();
    if (p.done === true ? last === undefined : p.rows < 1000 || (last !== undefined && now - last < 1000)) return;
    last = now;
    io.stderr(`savepoint-inspector export: ${name}: ${p.rows} rows, ${(p.valueBytes / 1048576).toFixed(1)} MiB of values${p.done === true ? ', done' : ''}\n`);
  };
}

function parsePositive(v: unknown, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v) || n < 1) throw new CliUsageError(`${flag} expects a whole number of at least 1, found '${String(v)}'`);
  return n;
}

/** A Kryo serializer (at any depth) whose values are Protobuf it cannot decode without the job's schema. */
function holdsUndecodedKryoProtobuf(s: SerializerSnapshot | undefined, depth = 0): boolean {
  if (s === undefined || depth > 64) return false;
  if (getKryoSnapshotDetails(s) !== undefined && s.details?.['protobuf'] !== undefined && s.codec === undefined) return true;
  return s.nested.some((n) => holdsUndecodedKryoProtobuf(n, depth + 1));
}
