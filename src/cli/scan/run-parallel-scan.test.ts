import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyWithDuplicateOperatorId } from '../../../tests/helpers/copy-with-duplicate-operator-id';
import { runParallelScan } from './run-parallel-scan';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const FIRST = '6d821971c3bfd7ae2c972e89d7414f7c';
const SECOND = '732aacc57f1a1cd4ab51694dd9eed722';
let dir = '';

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('runParallelScan', () => {
  it('scans each subtask once when _metadata lists an operator id twice, with one worker or two', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stats-duplicate-id-'));
    // SECOND's id becomes FIRST's: the operator listed last of the two is the one read, as Flink reads it (a map of ids)
    const { listedLast } = await copyWithDuplicateOperatorId(SAVEPOINT, dir, FIRST, SECOND);
    const entriesOf = (r: Awaited<ReturnType<typeof runParallelScan>>, id: string) =>
      r.states
        .filter((s) => s.operatorId === id)
        .map((s) => `${s.scope}|${s.state}|${s.entries}|${s.valueBytes}`)
        .sort();
    const original = entriesOf(await runParallelScan(SAVEPOINT, { workers: 1 }), listedLast);
    expect(original.length).toBeGreaterThan(0);
    expect(entriesOf(await runParallelScan(dir, { workers: 1 }), FIRST)).toEqual(original);
    expect(entriesOf(await runParallelScan(dir, { workers: 2 }), FIRST)).toEqual(original);
  });
});
