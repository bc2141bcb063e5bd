/**
 * The CLI as a process runs it: `process.argv` and the process streams wired into runCli, the exit
 * code set on the process. Shared by main.ts (the TypeScript entry) and bundle-entry.ts (the
 * prebuilt bundle).
 */
import { runCli } from './run-cli';

export async function runMain(argv: readonly string[]): Promise<void> {
  // a reader that stops early (`… | head`) closes the pipe: end quietly, as Unix tools do, instead of an unhandled EPIPE
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(process.exitCode ?? 0);
  });
  process.exitCode = await runCli(argv, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutStream: process.stdout,
  });
}
