/** Node entry point of the CLI (`npm run cli -- …`, bin/savepoint-inspector.mjs). */
import { runCli } from './run-cli';

// a reader that stops early (`… | head`) closes the pipe: end quietly, as Unix tools do, instead of an unhandled EPIPE
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(process.exitCode ?? 0);
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
