/**
 * Independent state files of an HTTP savepoint folder are read concurrently, a bounded number at a time
 * (issue #35): against a server that answers every request only after a delay, `inspect http://…/sp/`
 * has more than one request open at once, never more than the bound, and prints exactly what it prints
 * against a server without delay. No timing is asserted: only how many requests the server saw open together.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INSPECT_READ_AHEAD } from '../../src/core/flink/savepoint/inspect-savepoint';
import { FIXTURE_SAVEPOINT } from './fuzz-workspace';
import { startLoopbackServer, type LoopbackServer } from './loopback-http-server';
import { CliCaseRunner } from './run-cli-cases';

const files = new Map<string, Uint8Array>();
for (const name of readdirSync(FIXTURE_SAVEPOINT)) files.set(`/sp/${name}`, new Uint8Array(readFileSync(path.join(FIXTURE_SAVEPOINT, name))));

const servers: LoopbackServer[] = [];
let runner: CliCaseRunner | undefined;
afterEach(async () => {
  await runner?.close();
  for (const s of servers.splice(0)) await s.close();
});

describe('HTTP: independent state files read concurrently', () => {
  it('inspect of a folder with several state files has more than one request open at once, at most the bound, and prints what it prints without delay', async () => {
    expect(files.size).toBeGreaterThan(4);
    const delayed = await startLoopbackServer(files, 'delayed', 0, 250);
    const plain = await startLoopbackServer(files, undefined);
    servers.push(delayed, plain);
    runner = new CliCaseRunner({ SAVEPOINT_INSPECTOR_HTTP_TIMEOUT: '30', SAVEPOINT_INSPECTOR_HTTP_DEADLINE: '0' });
    const slow = await runner.run(['inspect', `${delayed.base}/sp/`], 120_000);
    expect([slow.code, slow.stderr]).toEqual([0, '']);
    expect(delayed.maxInFlight).toBeGreaterThan(1);
    expect(delayed.maxInFlight).toBeLessThanOrEqual(INSPECT_READ_AHEAD);
    const fast = await runner.run(['inspect', `${plain.base}/sp/`], 120_000);
    expect([fast.code, fast.stderr]).toEqual([0, '']);
    expect(slow.stdout.replaceAll(delayed.base, 'BASE')).toBe(fast.stdout.replaceAll(plain.base, 'BASE'));
    // the same requests as one at a time: each state file's 1-byte probe and header range, `_metadata`'s two
    expect(delayed.requests).toBe(plain.requests);
  });
});
