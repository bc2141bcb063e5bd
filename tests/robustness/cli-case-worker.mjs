// Worker-thread side of run-cli-cases.ts: registers tsx (a worker thread needs a loader of its own),
// then runs one CLI command per message in-process with runCli and posts back its exit code and output
// (each stream capped at OUTPUT_CAP characters, with the total length). A command that never returns
// is ended from outside: the runner terminates this thread.
import { parentPort } from 'node:worker_threads';

// large enough for a whole JSON report of the fixtures (check --format json is ~100 KiB), which the
// answer-comparing suites parse
const OUTPUT_CAP = 1024 * 1024;
const { register } = await import('tsx/esm/api');
register();
const { runCli } = await import(new URL('../../src/cli/run-cli.ts', import.meta.url).href);

function capture() {
  let text = '';
  let length = 0;
  return {
    write: (t) => {
      length += t.length;
      if (text.length < OUTPUT_CAP) text += t.slice(0, OUTPUT_CAP - text.length);
    },
    get: () => ({ text, length }),
  };
}

parentPort.on('message', async ({ id, argv }) => {
  const out = capture();
  const err = capture();
  let code;
  try {
    code = await runCli(argv, { stdout: out.write, stderr: err.write });
  } catch (e) {
    code = -1;
    err.write(`runCli threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
  parentPort.postMessage({ id, code, stdout: out.get(), stderr: err.get() });
});
parentPort.postMessage({ ready: true });
