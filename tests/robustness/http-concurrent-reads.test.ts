/**
 * Independent state files of an HTTP savepoint folder are read concurrently, a bounded number at a time
 * (issue #35): against a server that answers every request only after a delay, `inspect http://…/sp/`
 * has more than one request open at once, never more than the bound, in each of its two phases (the
 * state headers, then the entry count's full read of the state files), and prints exactly what it prints
 * against a server without delay, after the same requests for the same bytes. No timing is asserted:
 * only how many requests the server saw open together.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INSPECT_READ_AHEAD } from '../../src/core/flink/inspection/inspect-savepoint';
import { COUNT_READ_AHEAD } from '../../src/core/flink/scan/count-state-entries';
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
  it('inspect of a folder with several state files has more than one request open at once in the header phase and in the entry count, at most the bound, and prints what it prints without delay after the same requests', async () => {
    expect(files.size).toBeGreaterThan(4);
    const delayed = await startLoopbackServer(files, 'delayed', 0, 250);
    const plain = await startLoopbackServer(files, undefined);
    const headersOnly = await startLoopbackServer(files, undefined);
    servers.push(delayed, plain, headersOnly);
    runner = new CliCaseRunner({ SAVEPOINT_INSPECTOR_HTTP_TIMEOUT: '30', SAVEPOINT_INSPECTOR_HTTP_DEADLINE: '0' });
    // the header phase alone: its requests are the first ones of a full inspection, the entry count's follow
    const headers = await runner.run(['inspect', '--headers-only', `${headersOnly.base}/sp/`], 120_000);
    expect([headers.code, headers.stderr]).toEqual([0, '']);
    const headerRequests = headersOnly.requests;
    const slow = await runner.run(['inspect', `${delayed.base}/sp/`], 120_000);
    expect([slow.code, slow.stderr]).toEqual([0, '']);
    const headerPhase = delayed.inFlightAtArrival.slice(0, headerRequests);
    const countPhase = delayed.inFlightAtArrival.slice(headerRequests);
    // the entry count reads every state file again, in full: far more requests than the headers
    expect(countPhase.length).toBeGreaterThan(files.size);
    expect(Math.max(...headerPhase)).toBeGreaterThan(1);
    expect(Math.max(...countPhase)).toBeGreaterThan(1);
    expect(Math.max(...headerPhase)).toBeLessThanOrEqual(INSPECT_READ_AHEAD);
    expect(Math.max(...countPhase)).toBeLessThanOrEqual(COUNT_READ_AHEAD);
    const fast = await runner.run(['inspect', `${plain.base}/sp/`], 120_000);
    expect([fast.code, fast.stderr]).toEqual([0, '']);
    expect(plain.maxInFlight).toBe(1);
    expect(slow.stdout.replaceAll(delayed.base, 'BASE')).toBe(fast.stdout.replaceAll(plain.base, 'BASE'));
    // the same requests for the same bytes as one at a time: each state file's 1-byte probe and header range,
    // `_metadata`'s two, then each file's reads of the count
    expect(delayed.requests).toBe(plain.requests);
    expect(delayed.bytes).toBe(plain.bytes);
  });
});
