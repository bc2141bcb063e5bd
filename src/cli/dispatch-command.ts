/**
 * The CLI's dispatch over a command table: parses argv with node:util parseArgs, runs the named
 * command and maps failures to exit codes by the core's classifyError: the user's input (a
 * DecodeError, a UsageError — CliUsageError adds the command's usage —, a path the file system
 * refuses) and the network → 2 with the located message on stderr; anything else is a bug → 3 with
 * its stack. run-cli.ts dispatches over every command (commands/index.ts); compare-entry.ts over
 * `compare` alone (the prebuilt compare bundle, which holds none of the other commands' code).
 */
import { parseArgs } from 'node:util';
import packageJson from '../../package.json' with { type: 'json' };
import { classifyError, isUsageError, wrongInput, type UsageError } from '../core/io';
import { formatExitCodeLines } from '../core/report';
import { CliUsageError, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, type CliCommand, type CliIo } from './cli-types';
import { describeHttpDeadlinePassed, runWithHttpDeadline } from './sources';

const PROGRAM = 'savepoint-inspector';

export async function dispatchCommand(commands: readonly CliCommand[], argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(formatHelp(commands));
    return name === undefined ? EXIT_BAD_INPUT : EXIT_OK;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout(`${packageJson.version}\n`);
    return EXIT_OK;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`${PROGRAM}: unknown command '${name}'\n\n${formatHelp(commands)}`);
    return EXIT_BAD_INPUT;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest], options: { ...command.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (e) {
    io.stderr(`${PROGRAM} ${command.name}: ${e instanceof Error ? e.message : String(e)}\n\n${command.usage}\n`);
    return EXIT_BAD_INPUT;
  }
  if (parsed.values['help'] === true) {
    io.stdout(`${command.usage}\n`);
    return EXIT_OK;
  }
  try {
    // an HTTP input's deadline for all its reads (SAVEPOINT_INSPECTOR_HTTP_DEADLINE) that passed is exit 2, whatever the command made of the failed reads
    const { result, passed } = await runWithHttpDeadline(() => command.run({ values: parsed.values, positionals: parsed.positionals }, io));
    if (passed === undefined) return result;
    io.stderr(`${PROGRAM} ${command.name}: ${describeHttpDeadlinePassed(passed)}\n`);
    return EXIT_BAD_INPUT;
  } catch (e) {
    const failure = fromFileSystemError(e) ?? e;
    if (classifyError(failure) === 'internal') {
      io.stderr(`${PROGRAM} ${command.name}: internal error: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}\n`);
      return EXIT_INTERNAL;
    }
    const usage = failure instanceof CliUsageError ? `\n${command.usage}\n` : '';
    // several savepoints in one input: how to name one on the command line
    const how = isUsageError(failure) && failure.code === 'several-savepoints' ? ' with --metadata PATH (one of these), or point at its folder' : '';
    io.stderr(`${PROGRAM} ${command.name}: ${(failure as Error).message}${how}\n${usage}`);
    return EXIT_BAD_INPUT;
  }
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
    `Usage: ${PROGRAM} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun '${PROGRAM} <command> --help' for a command's options, '${PROGRAM} --version' for the version.\n\n` +
    `Exit codes of check and compare, by the report's overall verdict (only compatible passes):\n${formatExitCodeLines().join('\n')}\n` +
    `Other commands: 0 ok, 1 findings where their help says so, 2 bad input or usage, 3 internal error.\n`
  );
}
