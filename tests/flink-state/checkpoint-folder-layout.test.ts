/**
 * A retained checkpoint as Flink lays it out: `<job>/chk-N/_metadata` whose handles name their files by
 * absolute path, the files in `<job>/shared/` and `<job>/taskowned/` beside the checkpoint folders.
 * Opening the job folder reads the latest checkpoint and finds every file by the trailing segments of
 * its absolute path, with the same entries as the savepoint the layout was made from.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import { writeCheckpointMetadata } from '../../src/core/flink/metadata/write-checkpoint-metadata';
import type { StreamHandle } from '../../src/core/flink/metadata/metadata-types';
import { runCli } from '../../src/cli/run-cli';
import { requireCommitted } from '../helpers/committed-data';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** The fixture savepoint rewritten as checkpoint `chk-<n>` of job folder `job`: absolute handles, files in shared/ (keyed) and taskowned/ (operator). */
function writeCheckpointLayout(job: string, n: number, checkpointId: bigint): void {
  const original = new Uint8Array(readFileSync(path.join(SAVEPOINT, '_metadata')));
  const metadata = readCheckpointMetadata(original, '_metadata');
  const trailer = original.subarray(metadata.properties!.trailerOffset!);
  const absolute = (h: StreamHandle | null, folder: string): StreamHandle | null => {
    if (h?.kind !== 'relative-file') return h;
    mkdirSync(path.join(job, folder), { recursive: true });
    cpSync(path.join(SAVEPOINT, h.relativePath), path.join(job, folder, h.relativePath));
    return { kind: 'file', path: `hdfs://namenode:8020/flink/checkpoints/7f3a/${folder}/${h.relativePath}`, size: h.size };
  };
  for (const op of metadata.operators) {
    for (const st of op.subtasks) {
      const k = st.managedKeyedState;
      if (k?.kind === 'key-groups') k.delegate = absolute(k.delegate, 'shared');
      const o = st.managedOperatorState;
      if (o?.kind === 'operator') o.delegate = absolute(o.delegate, 'taskowned');
    }
  }
  metadata.checkpointId = checkpointId;
  mkdirSync(path.join(job, `chk-${n}`), { recursive: true });
  writeFileSync(path.join(job, `chk-${n}`, '_metadata'), new Uint8Array([...writeCheckpointMetadata(metadata), ...trailer]));
}

requireCommitted(path.join(SAVEPOINT, '_metadata'));

describe("a job's checkpoint folder, as Flink lays it out", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'si-chk-layout-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the latest chk-N and finds its files in shared/ and taskowned/ by their absolute paths', async () => {
    const job = path.join(dir, '7f3a');
    writeCheckpointLayout(job, 9, 9n);
    writeCheckpointLayout(job, 10, 10n);
    expect(readdirSync(job).sort()).toEqual(['chk-10', 'chk-9', 'shared', 'taskowned']);
    const expected = JSON.parse((await run('stats', '--format', 'json', SAVEPOINT)).stdout);
    const r = await run('stats', '--format', 'json', job);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    // the same entries, every state read, nothing missing
    const counts = (d: { states: { operatorId: string; state: string; scope: string; entries: number; valueBytes: number }[] }) =>
      d.states.map((s) => `${s.operatorId}/${s.state}/${s.scope}=${s.entries}/${s.valueBytes}`).sort();
    expect(counts(doc).length).toBeGreaterThan(10);
    expect(counts(doc)).toEqual(counts(expected));
    expect(doc.errors).toEqual([]);
    const inspect = JSON.parse((await run('inspect', '--format', 'json', job)).stdout);
    expect(inspect.checkpointId).toBe('10');
    expect(inspect.warnings).toContain(`found 2 _metadata files in ${job}; using 'chk-10/_metadata' (the latest checkpoint) and ignoring 'chk-9/_metadata'`);
    expect(inspect.warnings).toContain(
      `${readdirSync(path.join(job, 'shared')).length + readdirSync(path.join(job, 'taskowned')).length + 1} files of ${job} outside the _metadata folder 'chk-10' (Flink's checkpoint layout: shared/, taskowned/) are read where a handle names them by absolute path`,
    );
    expect(
      inspect.warnings.some((w: string) =>
        /^absolute path "hdfs:\/\/namenode:8020\/flink\/checkpoints\/7f3a\/shared\/[0-9a-f-]{36}" resolved to 'shared\/[0-9a-f-]{36}' of /.test(w),
      ),
    ).toBe(true);
    expect(inspect.errors).toEqual([]);
  });

  it('a file that is in neither place is missing, located at its handle in _metadata', async () => {
    const job = path.join(dir, 'gone');
    writeCheckpointLayout(job, 3, 3n);
    const victim = readdirSync(path.join(job, 'shared'))[0]!;
    rmSync(path.join(job, 'shared', victim));
    const inspect = JSON.parse((await run('inspect', '--format', 'json', job)).stdout);
    const missing = inspect.errors.filter((e: { code: string; message: string }) => e.code === 'missing-file' && e.message.includes(victim));
    expect(missing.length).toBeGreaterThan(0);
    expect(missing[0].message).toMatch(/, offset \d+ \(0x[0-9a-f]+\) \[operator [0-9a-f]{8}… \/ subtask \d+ \/ managed keyed state\]$/);
    expect(missing[0].message).toContain(
      `expected state file "${victim}" (absolute path "hdfs://namenode:8020/flink/checkpoints/7f3a/shared/${victim}", a file of the checkpoint's shared/ folder (open the folder that holds both chk-N and shared/)) next to _metadata in ${job}, found no such file`,
    );
  });
});
