/**
 * The CLI's dispatch over a command table: parses argv with node:util parseArgs, runs the named
 * command and maps failures to exit codes by the core's classifyError: the user's input (a
 * DecodeError, a UsageError — CliUsageError adds the command's usage —, a path the file system
 * refuses) and the network → 2 with the located message on stderr; anything else is a bug → 3 with
 * its stack. run-cli.ts dispatches over every command (commands/index.ts); compare-entry.ts over
 * `compare` alone (the prebuilt compare bundle, which holds none of the other commands' code).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import packageJson from '../../package.json' with { type: 'json' };
import { classifyError, isUsageError, wrongInput, type UsageError } from '../core/io';
import { formatExitCodeLines } from '../core/report';
import { CliUsageError, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, type CliCommand, type CliIo, type CliRunArgs } from './cli-types';
import { suggestName } from './suggest-name';
import { describeHttpDeadlinePassed, isStreamedInput, runWithHttpDeadline, spoolStreamedInput } from './sources';

const PROGRAM = 'savepoint-inspector';

export async function dispatchCommand(commands: readonly CliCommand[], argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout(formatHelp(commands));
    return name === undefined ? EXIT_BAD_INPUT : EXIT_OK;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout(`${packageJson.version}\n`);
    return EXIT_OK;
  }
  if (name === 'help') {
    // `help <command>`: that command's help
    const named = findCommand(commands, rest[0]!, io);
    if (named === undefined) return EXIT_BAD_INPUT;
    io.stdout(`${formatCommandHelp(named)}\n`);
    return EXIT_OK;
  }
  const command = findCommand(commands, name, io);
  if (command === undefined) return EXIT_BAD_INPUT;
  const { args, deprecated } = rewriteDeprecatedSpellings(command, rest);
  for (const note of deprecated) io.stderr(`${PROGRAM} ${command.name}: ${note.note}\n`);
  const parsed = parseCommandLine(command, args, io);
  if (parsed === undefined) return EXIT_BAD_INPUT;
  if (parsed.values['help'] === true) {
    io.stdout(`${formatCommandHelp(command)}\n`);
    return EXIT_OK;
  }
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    if (deprecated.some((d) => d.spelling === '--json') && typeof parsed.values['format'] === 'string' && parsed.formatCount > 1) {
      throw new CliUsageError('--json is --format json: give one of them');
    }
    await spoolStreamedInputs(command, parsed, io, cleanups);
    // an HTTP input's deadline for all its reads (SAVEPOINT_INSPECTOR_HTTP_DEADLINE) that passed is exit 2, whatever the command made of the failed reads
    const run = () =>
      command.run(
        { values: parsed.values, positionals: parsed.positionals, deprecated: deprecated.map((d) => d.spelling), atExit: (c) => cleanups.push(c) },
        io,
      );
    const { result, passed } = await runWithHttpDeadline(run);
    if (passed === undefined) return result;
    io.stderr(`${PROGRAM} ${command.name}: ${describeHttpDeadlinePassed(passed)}\n`);
    return EXIT_BAD_INPUT;
  } catch (e) {
    const failure = fromFileSystemError(e) ?? e;
    if (classifyError(failure) === 'internal') {
      io.stderr(`${PROGRAM} ${command.name}: internal error: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}\n`);
      return EXIT_INTERNAL;
    }
    const usage = failure instanceof CliUsageError ? `\n${formatCommandHelp(command)}\n` : '';
    // several savepoints in one input: how to name one on the command line
    const how = isUsageError(failure) && failure.code === 'several-savepoints' ? ' with --metadata PATH (one of these), or point at its folder' : '';
    io.stderr(`${PROGRAM} ${command.name}: ${(failure as Error).message}${how}\n${usage}`);
    return EXIT_BAD_INPUT;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/**
 * `-` (stdin) and FIFOs among the command's file arguments (CliCommand.inputs) are spooled to temporary files,
 * which the command then reads in their place; at most one argument can be `-`.
 */
async function spoolStreamedInputs(command: CliCommand, parsed: ParsedCommandLine, io: CliIo, cleanups: (() => Promise<void> | void)[]): Promise<void> {
  const inputs = command.inputs;
  if (inputs === undefined) return;
  const slots: { arg: string; option?: string; set: (path: string) => void }[] = [];
  if (inputs.positionals === true) parsed.positionals.forEach((arg, i) => slots.push({ arg, set: (p) => (parsed.positionals[i] = p) }));
  for (const option of inputs.options ?? []) {
    const value = parsed.values[option];
    if (typeof value === 'string') slots.push({ arg: value, option, set: (p) => (parsed.values[option] = p) });
    if (Array.isArray(value)) value.forEach((arg, i) => typeof arg === 'string' && slots.push({ arg, option, set: (p) => (value[i] = p) }));
  }
  if (slots.filter((s) => s.arg === '-').length > 1) throw new CliUsageError('only one input can be - (stdin)');
  for (const slot of slots) {
    if (!(await isStreamedInput(slot.arg))) continue;
    const spooled = await spoolStreamedInput(slot.arg, io.openStdin, slot.option === undefined ? undefined : inputs.limits?.[slot.option]);
    cleanups.push(spooled.remove);
    slot.set(spooled.path);
  }
}

/** The command named `name`; else an `unknown command` line (with the closest name, if any) on stderr and undefined. */
function findCommand(commands: readonly CliCommand[], name: string, io: CliIo): CliCommand | undefined {
  const command = commands.find((c) => c.name === name);
  if (command !== undefined) return command;
  const close = suggestName(
    name,
    commands.map((c) => c.name),
  );
  io.stderr(`${PROGRAM}: unknown command '${name}'${close === undefined ? '' : `; did you mean '${close}'?`}\nRun '${PROGRAM} help' for the commands.\n`);
  return undefined;
}

/** The options every command takes besides its own. */
export const COMMON_OPTIONS = { help: { type: 'boolean', short: 'h' }, quiet: { type: 'boolean', short: 'q' } } as const;

/** Every option a command takes, `--help` and `--quiet` included. */
export function listCommandOptions(command: CliCommand): NonNullable<ParseArgsConfig['options']> {
  return { ...command.options, ...COMMON_OPTIONS };
}

interface DeprecatedUse {
  spelling: string;
  note: string;
}

/**
 * The old spellings, kept for one release with a note on stderr: `--json` is `--format json` on a command
 * printing a document, `--first N` is `--limit N` where `--limit` is the first-N option.
 */
function rewriteDeprecatedSpellings(command: CliCommand, args: readonly string[]): { args: string[]; deprecated: DeprecatedUse[] } {
  const out: string[] = [];
  const deprecated: DeprecatedUse[] = [];
  const takesJson = command.formats?.includes('json') === true && !('json' in command.options);
  const takesFirst = 'limit' in command.options && !('first' in command.options);
  const note = (spelling: string, instead: string) => {
    if (!deprecated.some((d) => d.spelling === spelling))
      deprecated.push({ spelling, note: `warning: ${spelling} is deprecated, use ${instead} (the old spelling works until the next release)` });
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (takesJson && arg === '--json') {
      note('--json', '--format json');
      out.push('--format', 'json');
    } else if (takesFirst && (arg === '--first' || arg.startsWith('--first='))) {
      note('--first', '--limit');
      out.push(arg === '--first' ? '--limit' : `--limit=${arg.slice('--first='.length)}`);
    } else {
      out.push(arg);
    }
  }
  return { args: out, deprecated };
}

type ParsedCommandLine = { values: CliRunArgs['values']; positionals: string[]; formatCount: number };

/**
 * The command line parsed by node:util parseArgs against the command's options; a mistake is one line on
 * stderr — `unknown option '--ouput' for 'check'; did you mean '--output'?` — and a pointer to
 * `help <command>`, not the parser's message and the whole usage.
 */
function parseCommandLine(command: CliCommand, args: readonly string[], io: CliIo): ParsedCommandLine | undefined {
  const options = listCommandOptions(command);
  const hint = `\nRun '${PROGRAM} help ${command.name}' for its options.\n`;
  try {
    const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true, tokens: true });
    const formatCount = parsed.tokens.filter((t) => t.kind === 'option' && t.name === 'format').length;
    return { values: parsed.values, positionals: parsed.positionals, formatCount };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const loose = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true }).tokens;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const unknown = loose.find((t) => t.kind === 'option' && !(t.name in options));
      const typed = unknown?.kind === 'option' ? unknown.rawName : '?';
      const known = Object.entries(options).flatMap(([n, o]) => [`--${n}`, ...(o.short === undefined ? [] : [`-${o.short}`])]);
      const close = typed.startsWith('--')
        ? suggestName(
            typed,
            known.filter((k) => k.startsWith('--')),
          )
        : undefined;
      io.stderr(`${PROGRAM}: unknown option '${typed}' for '${command.name}'${close === undefined ? '' : `; did you mean '${close}'?`}${hint}`);
      return undefined;
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      // a string option without its value, or a value given to a flag (`--quiet=yes`)
      const bad = loose.find(
        (t) => t.kind === 'option' && t.name in options && (options[t.name]!.type === 'string' ? t.value === undefined : t.value !== undefined),
      );
      const what =
        bad?.kind === 'option'
          ? options[bad.name]!.type === 'string'
            ? `option '${bad.rawName}' needs a value`
            : `option '${bad.rawName}' takes no value`
          : 'an option value is missing';
      io.stderr(`${PROGRAM} ${command.name}: ${what}${hint}`);
      return undefined;
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      io.stderr(`${PROGRAM} ${command.name}: unexpected argument${hint}`);
      return undefined;
    }
    io.stderr(`${PROGRAM} ${command.name}: ${e instanceof Error ? e.message : String(e)}${hint}`);
    return undefined;
  }
}

/** A command's help: its usage, with what `--quiet` leaves of its output on the line before `-h, --help`. */
export function formatCommandHelp(command: CliCommand): string {
  const lines = command.usage.split('\n');
  const at = lines.findIndex((l) => /^ {2}-h, --help +show this help$/.test(l));
  if (at < 0) return `${command.usage}\n  -q, --quiet  ${command.quiet}`;
  const column = lines[at]!.indexOf('show this help');
  lines.splice(at, 0, `${'  -q, --quiet'.padEnd(column)}${command.quiet}`);
  return lines.join('\n');
}

/** A path the file system refuses (Node's errno codes) is the user's input: a `bad-path` UsageError. */
function fromFileSystemError(e: unknown): UsageError | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, path } = e as { code?: unknown; path?: unknown };
  const where = typeof path === 'string' ? path : 'input';
  if (code === 'ENOENT') return wrongInput('bad-path', `no such file or directory: ${where}`);
  if (code === 'EACCES' || code === 'EPERM') return wrongInput('bad-path', `permission denied: ${where}`);
  if (code === 'EISDIR') return wrongInput('bad-path', `expected a file, found a directory: ${where}`);
  if (code === 'ENOTDIR') return wrongInput('bad-path', `not a directory: ${where}`);
  return undefined;
}

export function formatHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return (
    `Usage: ${PROGRAM} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun '${PROGRAM} help <command>' (or '<command> --help') for a command's options, '${PROGRAM} --version' for the version.\n\n` +
    `Exit codes of check and compare, by the report's overall verdict (only compatible passes):\n${formatExitCodeLines().join('\n')}\n` +
    `Other commands: 0 ok, 1 findings where their help says so, 2 bad input or usage, 3 internal error.\n`
  );
}
