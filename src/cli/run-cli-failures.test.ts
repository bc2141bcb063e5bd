/**
 * How runCli maps each kind of failure (the core's classifyError): the user's input and the network
 * exit 2 with the located message, anything else is a bug and exits 3 with its stack. Each case
 * runs the real command in-process on the bad input.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSnapshotRegistry } from '../core/flink';
import { readStateEntries } from '../../tests/helpers/read-state-entries';
import { classifyError } from '../core/io';
import { isUsageError } from '../core/io/usage-error';
import { COMMANDS } from './commands';
import { runCli } from './run-cli';
import { openNodeInput, walkFolder } from './sources';

const SAVEPOINT = 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint';
const OPERATORS =
  '0c80f7e50ab54b30f6a2580946f9e942, 732aacc57f1a1cd4ab51694dd9eed722, 6d821971c3bfd7ae2c972e89d7414f7c, c3919b0b80c770dcaba928458d2e49b0, 69ee92ec1299dfd00071bfb77ad99663, bc8a7c197f2c5342464d83d5fa4660e9, e635e88f2157f1386a91248eacaad37a';

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

afterEach(() => vi.restoreAllMocks());

describe("runCli: exit 2 for the user's input and the network, exit 3 with the stack for a bug", () => {
  it('an operator the savepoint does not have is a not-found UsageError: exit 2 with its message', async () => {
    const registry = createSnapshotRegistry();
    const entries = readStateEntries(await openNodeInput(SAVEPOINT), registry, { operatorId: 'no-such-uid', state: 'x' });
    const e = await entries.next().catch((x: unknown) => x);
    expect(isUsageError(e) && [classifyError(e), e.code, e.message]).toEqual([
      'input',
      'not-found',
      `expected an operator id or uid of this savepoint, found no-such-uid (operators: ${OPERATORS})`,
    ]);
    expect(await run('dump', SAVEPOINT, '--operator', 'no-such-uid', '--state', 'x')).toEqual({
      code: 2,
      stdout: '',
      stderr: `savepoint-inspector dump: expected an operator id or uid of this savepoint, found no-such-uid (operators: ${OPERATORS})\n`,
    });
  });

  it('an unreachable server is a network error: exit 2 with the located message', async () => {
    expect(await run('inspect', 'http://127.0.0.1:1/sp.zip')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "savepoint-inspector inspect: expected to reach http://127.0.0.1:1/sp.zip, found the request failed (fetch failed: bad port): a network error, or a cross-origin request the server does not allow — it must send Access-Control-Allow-Origin (the app's origin, or *) and, for the range reads, Access-Control-Expose-Headers: Content-Range, Content-Length — at http://127.0.0.1:1/sp.zip\n",
    });
  });

  it('a _metadata of format version 1 (Flink ≤ 1.2) is refused clearly by every command, with --strict and --json too: exit 2, nothing on stdout', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'spi-v2-'));
    try {
      // magic 0x4960672d, version 1, then what a V1 writer puts next (not read)
      writeFileSync(path.join(dir, '_metadata'), Buffer.concat([Buffer.from([0x49, 0x60, 0x67, 0x2d, 0, 0, 0, 1]), Buffer.alloc(32)]));
      const message = `_metadata format version 1 was written by Flink ≤ 1.2, not supported (this reader supports versions 2–7) — at ${path.basename(dir)}/_metadata, offset 4 (0x4)\n`;
      for (const argv of [
        ['inspect', dir, '--strict', '--format', 'json'],
        ['stats', dir],
        ['check', dir, '--no-values', '--descriptors', 'src/ui/demo-schema/events-changed.binpb'],
      ]) {
        expect(await run(...argv)).toEqual({ code: 2, stdout: '', stderr: `savepoint-inspector ${argv[0]}: ${message}` });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a path the file system refuses is a bad-path input error: exit 2', async () => {
    expect(await run('check', SAVEPOINT, '--descriptors', '/nonexistent/new.binpb')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'savepoint-inspector check: no such file or directory: /nonexistent/new.binpb\n',
    });
  });

  it('a folder of more files than the walk takes is a too-many-files UsageError', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'spi-many-'));
    try {
      for (const n of ['a', 'b', 'c']) writeFileSync(path.join(dir, n), 'x');
      const e = await walkFolder(dir, 2).catch((x: unknown) => x);
      expect(isUsageError(e) && [classifyError(e), e.code, e.message]).toEqual([
        'input',
        'too-many-files',
        `expected a savepoint folder of at most 2 files, found ${dir} holding more: point at the savepoint folder itself`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a broken invariant (any other exception) is internal: exit 3 with the stack', async () => {
    const inspect = COMMANDS.find((c) => c.name === 'inspect')!;
    vi.spyOn(inspect, 'run').mockRejectedValue(new TypeError('cannot read properties of undefined'));
    const r = await run('inspect', SAVEPOINT);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^savepoint-inspector inspect: internal error: TypeError: cannot read properties of undefined\n {4}at /);
  });

  it('a usage error keeps the command usage after its message', async () => {
    const r = await run('dump', SAVEPOINT, '--state', 'x');
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith('savepoint-inspector dump: expected --operator <id|uid>\n\nUsage: savepoint-inspector dump ')).toBe(true);
  });
});
