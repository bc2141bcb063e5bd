/**
 * A CLI function as a process runs it: `process.argv` and the process streams wired into it, the exit
 * code set on the process. Used by run-main.ts (every command) and compare-entry.ts (the compare bundle).
 */
import type { CliIo } from './cli-types';

export async function runAsProcess(run: (argv: readonly string[], io: CliIo) => Promise<number>, argv: readonly string[]): Promise<void> {
  // a reader that stops early (`… | head`) closes the pipe: end quietly, as Unix tools do, instead of an unhandled EPIPE
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });
  process.exitCode = await run(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutStream: process.stdout,
  });
}
