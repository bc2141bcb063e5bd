/**
 * The CLI entry as a function: parses argv with node:util parseArgs, dispatches to a command of
 * commands/index.ts and maps failures to exit codes (DecodeError / missing input → 2 with the
 * message on stderr). main.ts calls it with process streams; tests call it in-process.
 */
import { parseArgs } from 'node:util';
import { isDecodeError } from '../core/io';
import { CliUsageError, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, type CliIo } from './cli-types';
import { COMMANDS } from './commands';

const PROGRAM = 'savepoint-inspector';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(formatHelp());
    return name === undefined ? EXIT_BAD_INPUT : EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`${PROGRAM}: unknown command '${name}'\n\n${formatHelp()}`);
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
    return await command.run({ values: parsed.values, positionals: parsed.positionals }, io);
  } catch (e) {
    if (e instanceof CliUsageError) {
      io.stderr(`${PROGRAM} ${command.name}: ${e.message}\n\n${command.usage}\n`);
      return EXIT_BAD_INPUT;
    }
    if (isDecodeError(e)) {
      io.stderr(`${PROGRAM} ${command.name}: ${e.message}\n`);
      return EXIT_BAD_INPUT;
    }
    const fsMessage = describeFileSystemError(e);
    if (fsMessage !== undefined) {
      io.stderr(`${PROGRAM} ${command.name}: ${fsMessage}\n`);
      return EXIT_BAD_INPUT;
    }
    io.stderr(`${PROGRAM} ${command.name}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return EXIT_INTERNAL;
  }
}

function describeFileSystemError(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const { code, path } = e as { code?: unknown; path?: unknown };
  const where = typeof path === 'string' ? path : 'input';
  if (code === 'ENOENT') return `no such file or directory: ${where}`;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied: ${where}`;
  if (code === 'EISDIR') return `expected a file, found a directory: ${where}`;
  if (code === 'ENOTDIR') return `not a directory: ${where}`;
  return undefined;
}

export function formatHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: ${PROGRAM} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun '${PROGRAM} <command> --help' for a command's options. Exit codes: 0 ok, 1 findings (check, compare), 2 bad input or usage, 3 internal error.\n`;
}
