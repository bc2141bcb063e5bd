/**
 * A CLI function as a process runs it: `process.argv` and the process streams wired into it, the exit
 * code set on the process. Used by run-main.ts (every command) and compare-entry.ts (the compare bundle).
 * A write to stdout that the system refuses (a full disk behind `> file`, an I/O error) is the user's
 * environment: exit 2 with what the OS said (output-failure.ts), never a stack.
 */
import type { CliIo } from './cli-types';
import { EXIT_BAD_INPUT } from './cli-types';
import { toOutputFailure } from './output-failure';

export async function runAsProcess(run: (argv: readonly string[], io: CliIo) => Promise<number>, argv: readonly string[]): Promise<void> {
  const refused = (e: unknown): never => {
    const failure = toOutputFailure(e, 'stdout');
    if (failure === undefined) throw e;
    process.stderr.write(`savepoint-inspector ${argv[0] ?? ''}: ${failure.message}\n`);
    process.exit(EXIT_BAD_INPUT);
  };
  // a reader that stops early (`… | head`) closes the pipe: end quietly, as Unix tools do, instead of an unhandled EPIPE
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') refused(e);
    process.exit(process.exitCode ?? 0);
  });
  process.exitCode = await run(argv, {
    stdout: (text) => {
      // stdout on a file or device writes synchronously: its error is thrown here, not emitted
      try {
        process.stdout.write(text);
      } catch (e) {
        refused(e);
      }
    },
    stderr: (text) => process.stderr.write(text),
    stdoutStream: process.stdout,
    openStdin: () => process.stdin,
    stdoutIsTTY: process.stdout.isTTY === true,
    ...(process.stdout.isTTY === true && process.stdout.columns > 0 ? { stdoutColumns: process.stdout.columns } : {}),
    env: process.env,
  });
}
