/**
 * Fuzzing of misbehaving HTTP servers (loopback-http-server.ts): a savepoint zip, folder or tar
 * served on 127.0.0.1 by a server that, from a seeded request on, answers never, slowly, cut
 * short, with a body larger than the range (10 GB declared, or endless), another range, a 200,
 * a garbage gzip encoding, a broken chunked encoding, a redirect loop or a reset. Every command
 * runs in-process with a 1 s HTTP timeout and must end in time: a failure of the first request
 * is exit 2 naming the URL; a later one may leave state unread (listed, located) but is never an
 * internal error, a hang or a body buffered past its range. Plus a tar of 100,000 members over a
 * well-behaved server, which took 100,000 Range requests before the tar read-ahead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSummary, FIXTURE_SAVEPOINT, FULL, runFuzzCases, savepointCommand, type FuzzCase } from './fuzz-workspace';
import { generateTarArchive } from './generate-tar-archives';
import { REPO_ROOT } from './list-robustness-inputs';
import { MISBEHAVIOURS, startLoopbackServer, type LoopbackServer, type Misbehaviour } from './loopback-http-server';
import { judgeBadInputRun, judgeNoInternalError, type CliRun } from './run-cli-cases';
import { createSeededRandom } from './seeded-random';

const SEED = 0x4e77;
const PER_MISBEHAVIOUR = FULL ? 6 : 1;
const ZIP = path.join(REPO_ROOT, 'fixtures/savepoints/flink-2.3/hashmap/canonical-compressed/savepoint.zip');
/** seconds: every wait of the CLI's fetch in these cases */
const ENV = { SAVEPOINT_INSPECTOR_HTTP_TIMEOUT: '1', SAVEPOINT_INSPECTOR_HTTP_RETRIES: '1' };

describe('fuzz: misbehaving HTTP servers', () => {
  it(`${MISBEHAVIOURS.length * PER_MISBEHAVIOUR + 2} cases end in time, never an internal error; a failed first request is exit 2 naming the URL`, async () => {
    const folder = new Map<string, Uint8Array>();
    for (const name of readdirSync(FIXTURE_SAVEPOINT)) folder.set(`/sp/${name}`, new Uint8Array(readFileSync(path.join(FIXTURE_SAVEPOINT, name))));
    const files = new Map<string, Uint8Array>([...folder, ['/sp.zip', new Uint8Array(readFileSync(ZIP))]]);
    const rnd = createSeededRandom(SEED);
    const cases: FuzzCase[] = [];
    let server: LoopbackServer | undefined;
    const serveCase = (
      name: string,
      served: ReadonlyMap<string, Uint8Array>,
      misbehaviour: Misbehaviour | undefined,
      from: number,
      url: string,
      index: number,
      judge: (run: CliRun) => string | undefined,
    ): FuzzCase => ({
      name,
      prepare: async () => {
        await server?.close();
        server = await startLoopbackServer(served, misbehaviour, from);
        return savepointCommand(index, `${server.base}${url}`);
      },
      judge: (run) => judge(run) ?? (run.stdoutLength > 16 * 1024 * 1024 ? `printed ${run.stdoutLength} characters` : undefined),
    });
    let i = 0;
    for (const misbehaviour of MISBEHAVIOURS) {
      for (let k = 0; k < PER_MISBEHAVIOUR; k++, i++) {
        const url = ['/sp.zip', '/sp/', '/sp/_metadata'][rnd.int(3)]!;
        // from the first request (the probe), or from a later one (_metadata, a header, a state read)
        const from = rnd.int(3) === 0 ? 0 : 1 + rnd.int(6);
        const located = (run: CliRun) => judgeBadInputRun(run, /https?:\/\/127\.0\.0\.1:\d+\//);
        // a redirect loop is named as one, not as a network or CORS problem
        const named = (run: CliRun) =>
          located(run) ?? (run.stderr.includes('found the server redirects in a loop') ? undefined : `not named a redirect loop: ${run.stderr.slice(0, 300)}`);
        const judge = from === 0 ? (misbehaviour === 'redirect-loop' ? named : located) : judgeNoInternalError;
        cases.push(serveCase(`http #${i} (seed ${SEED}): ${misbehaviour} from request ${from} for ${url}`, files, misbehaviour, from, url, i, judge));
      }
    }
    // a tar of 100,000 members over a server that behaves: readable, in a bounded number of requests
    const sp = readdirSync(FIXTURE_SAVEPOINT)
      .sort()
      .map((name) => ({ path: name, bytes: folder.get(`/sp/${name}`)! }));
    for (let k = 0; k < 2; k++, i++) {
      let tar = generateTarArchive(sp, 'same-name', rnd, 100_000);
      while (!tar.readable || tar.label.endsWith('gzipped')) tar = generateTarArchive(sp, 'same-name', rnd, 100_000);
      const name = `http #${i}: a tar of ${tar.label}, served correctly`;
      cases.push(
        serveCase(name, new Map([['/sp.tar', tar.bytes]]), undefined, 0, '/sp.tar', i, (run) => {
          const why = judgeNoInternalError(run);
          if (why) return why;
          if (run.code !== 0 && run.code !== 1) return `exit ${run.code}: ${run.stderr.slice(0, 300)}`;
          return server!.requests > 2000 ? `${server!.requests} requests` : undefined;
        }),
      );
    }
    try {
      const summary = await runFuzzCases(cases, ENV);
      console.log(describeSummary('http fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      await server?.close();
    }
  });
});
