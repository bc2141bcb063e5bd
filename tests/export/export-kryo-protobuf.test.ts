/**
 * `export --descriptors` / `--job-jar`: Protobuf held by Kryo (chill-protobuf) exports decoded, as `dump` and
 * `stats` decode it, instead of opaque base64.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';

const ROOT = path.resolve('fixtures/kryo-savepoints');
const SAVEPOINT = path.join(ROOT, 'flink-2.3/hashmap/kryo-registered/savepoint');
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'export-kryo-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function exportLastEvent(extra: string[]): Promise<{ code: number; stderr: string; rows: { key: number; value: Record<string, unknown> }[] }> {
  const output = path.join(dir, `${extra.length}.jsonl`);
  let stderr = '';
  const code = await runCli(
    ['export', SAVEPOINT, '--operator', 'kryo-keyed', '--state', 'last-event', '--format', 'jsonl', '--output', output, '--quiet', ...extra],
    { stdout: () => {}, stderr: (t) => (stderr += t) },
  );
  const rows = (await readFile(output, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { key: number; value: Record<string, unknown> });
  return { code, stderr, rows };
}

describe('export of Protobuf held by Kryo', () => {
  it("without the job's schema: opaque values, and a warning that says how to decode them", async () => {
    const { rows, stderr } = await exportLastEvent([]);
    expect(rows[0]!.value['kind']).toBe('opaque');
    expect(stderr).toBe(
      "savepoint-inspector export: warning: last-event: its values are Protobuf held by Kryo, written as opaque bytes: give the job's schema (--descriptors or --job-jar) to decode them\n",
    );
  });

  it('with --descriptors: the values decoded as ProtoJSON', async () => {
    const { code, rows, stderr } = await exportLastEvent(['--descriptors', path.join(ROOT, 'events.binpb')]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(rows.find((r) => r.key === 1)!.value).toMatchObject({ id: '7', name: 'event-7', kind: 'UPDATED', tags: ['t0'], score: 10.5 });
  });
});
