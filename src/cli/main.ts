/** Node entry point of the CLI (`npm run cli -- …`, bin/savepoint-inspector.mjs). */
import { runCli } from './run-cli';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
