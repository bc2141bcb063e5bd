/**
 * The deadline for all of a command's HTTP requests together (SAVEPOINT_INSPECTOR_HTTP_DEADLINE): a
 * server that answers every request correctly but only after a delay (within each request's bound)
 * cannot hold `inspect http://…/sp/` for minutes. Once the deadline passes the requests in flight are
 * aborted, every later one fails at once, and the command ends with exit 2 saying the deadline and what
 * was read by then — while `inspect` alone would list the states as not read and exit 0. Small delays
 * and deadlines keep it fast; the delays add up past the deadline however busy the machine is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_SAVEPOINT } from './fuzz-workspace';
import { startLoopbackServer, type LoopbackServer } from './loopback-http-server';
import { CliCaseRunner } from './run-cli-cases';

const files = new Map<string, Uint8Array>();
for (const name of readdirSync(FIXTURE_SAVEPOINT)) files.set(`/sp/${name}`, new Uint8Array(readFileSync(path.join(FIXTURE_SAVEPOINT, name))));

let server: LoopbackServer | undefined;
let runner: CliCaseRunner | undefined;
afterEach(async () => {
  await runner?.close();
  await server?.close();
});

describe('HTTP: a deadline for the whole command', () => {
  it('a server that answers every request after 400 ms: inspect of the folder ends at the 1.5 s deadline, exit 2 with what was read', async () => {
    server = await startLoopbackServer(files, 'delayed', 0, 400);
    // each request's own bound (5 s) is never reached: only the deadline for all of them together
    runner = new CliCaseRunner({ SAVEPOINT_INSPECTOR_HTTP_TIMEOUT: '5', SAVEPOINT_INSPECTOR_HTTP_DEADLINE: '1.5' });
    const run = await runner.run(['inspect', `${server.base}/sp/`], 120_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^savepoint-inspector inspect: expected all HTTP reads to end within 1\.5 s \(SAVEPOINT_INSPECTOR_HTTP_DEADLINE\), found the deadline passed after \d+ requests? answered and \d+ bytes received: what is shown covers only what was read by then\n$/,
    );
    // what was read is shown, the rest named as not read, with the deadline as the reason
    expect(run.stdout).toContain(`Savepoint inspection of ${server.base}/sp\n`);
    expect(run.stdout).toContain(
      'found no answer in time (the deadline of 1.5 s for all HTTP requests together passed (SAVEPOINT_INSPECTOR_HTTP_DEADLINE), after ',
    );
    // far fewer requests than the ~30 a full inspection makes: the later ones were never sent
    expect(server.requests).toBeLessThan(15);
  });

  it('the same server without a deadline (0): every request answered, exit 0 (the control)', async () => {
    server = await startLoopbackServer(files, 'delayed', 0, 50);
    runner = new CliCaseRunner({ SAVEPOINT_INSPECTOR_HTTP_TIMEOUT: '5', SAVEPOINT_INSPECTOR_HTTP_DEADLINE: '0' });
    const run = await runner.run(['inspect', `${server.base}/sp/`], 120_000);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).not.toContain('not read');
  });
});
