/**
 * The CLI run in-process (runCli with captured output) over the real savepoints in
 * ../shared/flink-savepoints: `inspect` as text and JSON, with handles, and over a copy missing a
 * state file. Skipped, and counted at the end of the run, when that folder is absent.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { NEEDS_SHARED, SHARED_SAVEPOINTS as ROOT } from '../helpers/shared-savepoints';

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}
/** The parts of the `inspect --json` document (docs/cli.md) that these tests read. */
interface InspectJson {
  metadataVersion: number;
  checkpointId: string;
  type: string;
  format: string;
  totalSize: number;
  operators: InspectJsonOperator[];
  errors: { code: string; message: string }[];
  summary: Record<string, number>;
}
interface InspectJsonOperator {
  id: string;
  name: string | null;
  uid: string | null;
  parallelism: number;
  maxParallelism: number;
  states: { name: string; keySerializer?: string; valueSerializer?: string }[];
  /** with --handles only */
  subtasks: { index: number; managedOperatorState?: unknown; managedKeyedState: { code: number; data: { code: number; path?: string } } }[];
}
async function inspectJson(folder: string, ...flags: string[]): Promise<InspectJson> {
  const r = await run('inspect', '--format', 'json', ...flags, path.join(ROOT, folder));
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as InspectJson;
}
function operatorOf(doc: InspectJson, id: string): InspectJsonOperator {
  const operator = doc.operators.find((o) => o.id === id);
  if (operator === undefined) throw new Error(`no operator ${id} in the document`);
  return operator;
}
function stateOf(doc: InspectJson, opId: string, name: string): InspectJsonOperator['states'][number] {
  const state = operatorOf(doc, opId).states.find((s) => s.name === name);
  if (state === undefined) throw new Error(`no state ${name} in operator ${opId}`);
  return state;
}

describe('runCli inspect: real savepoints', NEEDS_SHARED, () => {
  it('--json: header fields, operators and stable key order', async () => {
    const doc = await inspectJson('new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint');
    expect(Object.keys(doc)).toEqual([
      'schemaVersion',
      'documentVersion',
      'input',
      'metadataVersion',
      'checkpointId',
      'type',
      'format',
      'totalSize',
      'operators',
      'warnings',
      'errors',
      'summary',
      'sizes',
    ]);
    expect([doc.metadataVersion, doc.checkpointId, doc.type, doc.format, doc.totalSize]).toEqual([4, '2', 'savepoint', 'CANONICAL', 18068]);
    expect(doc.operators.map((o) => [o.id, o.parallelism, o.maxParallelism])).toEqual([
      ['1f2b5df5a66154aca61fcb26193792be', 1, 4],
      ['d5c8b168c6cbfe8c507a10f88b325243', 4, 4],
      ['41e91aae0bee218c44306cf7d21940ad', 4, 4],
      ['06d8049845c382d79d17d43c9ef349f7', 4, 4],
      ['330bf7ad4176e7c36829a4bf9459db07', 4, 4],
      ['dab25811652d3d4983a30c6e4afacb1c', 4, 4],
      ['4b818c7923a927796d24b727201ba34d', 4, 4],
      ['69f32d314b97c6f7f9ed7873983167f2', 1, 4],
    ]);
    expect(Object.keys(doc.operators[0])).toEqual([
      'id',
      'name',
      'uid',
      'parallelism',
      'maxParallelism',
      'fullyFinished',
      'subtaskCount',
      'stateSize',
      'keyedFormat',
      'states',
      'warnings',
      'streamsNotRead',
    ]);
    const source = stateOf(doc, '1f2b5df5a66154aca61fcb26193792be', 'source-state');
    expect(source).toMatchObject({ kind: 'OPERATOR_UNION', scope: 'operator', valueType: 'String', entries: 4, subtasks: [0] });
    expect(source.valueSerializer).toBe('org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot');
    const value = stateOf(doc, 'd5c8b168c6cbfe8c507a10f88b325243', 'state-name');
    expect(value).toMatchObject({ kind: 'VALUE', scope: 'keyed', keyType: 'Tuple1<Long>', valueType: 'Long', entries: 4, subtasks: [1, 2, 3] });
    expect(value.keySerializer).toBe('org.apache.flink.api.java.typeutils.runtime.TupleSerializerSnapshot');
    expect(Object.keys(value).slice(-3)).toEqual(['decoded', 'decodedReason', 'incomplete']);
    expect(value).toMatchObject({ decoded: 'fully', decodedReason: null, incomplete: null });
    expect(doc.errors).toEqual([]);
    expect(doc.summary).toEqual({ states: 10, decodedFully: 10, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 });
  });

  it('--json on the V5 savepoint carries names and uids; the sinks have no uid', async () => {
    const doc = await inspectJson('new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint');
    expect(doc.metadataVersion).toBe(5);
    expect(doc.operators.map((o) => [o.name, o.uid])).toEqual([
      ['Source: Custom Source', 'CheckpointingSource2'],
      ['Flat Map', 'CheckpointingKeyedStateFlatMap1'],
      ['timely_stateful_operator', 'CheckpointingTimelyStatefulOperator2'],
      ['Sink: Unnamed', null],
      ['Sink: Unnamed', null],
      ['Flat Map', 'CheckpointingKeyedStateFlatMap2'],
      ['timely_stateful_operator', 'CheckpointingTimelyStatefulOperator1'],
      ['Source: Custom Source', 'CheckpointingSource1'],
    ]);
  });

  it('--json --handles: inline operator state at offset 180 and inline code-7 keyed handles (complexKeyed)', async () => {
    const doc = await inspectJson('operatorstate/complexKeyed-flink1.20', '--handles');
    expect(doc.checkpointId).toBe('382');
    const second = operatorOf(doc, '6730ef7375fb60f9d9bbdfdfd174d803');
    expect(second.subtasks.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    expect(second.subtasks[0].managedOperatorState).toMatchObject({
      code: 4,
      states: [{ name: '_default_', mode: 'SPLIT_DISTRIBUTE', offsets: [180] }],
      data: { code: 1, kind: 'inline', size: 194 },
    });
    const window = operatorOf(doc, '01203aa9a12dc1ec725e03853dd7c8f2');
    expect(window.subtasks[2].managedKeyedState).toMatchObject({ code: 7, kind: 'key-groups', keyGroups: { start: 64, end: 95 }, data: { code: 1 } });
    expect(window.states.map((s) => s.name)).toEqual([
      '_timer_state/event_window-timers',
      '_timer_state/processing_window-timers',
      'count',
      'values',
      'window-contents',
    ]);
    expect(operatorOf(doc, 'bc764cd8ddf7a0cff126f51c16239658').subtasks).toEqual([]);
  });

  it('--json --handles: relative files (code 6) behind code-7 handles, subtask 0 absent (1.20 heap)', async () => {
    const doc = await inspectJson('new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint', '--handles');
    const flatMap = operatorOf(doc, 'd5c8b168c6cbfe8c507a10f88b325243');
    expect(flatMap.subtasks.map((s) => [s.index, s.managedKeyedState.code, s.managedKeyedState.data.code])).toEqual([
      [1, 7, 6],
      [2, 7, 6],
      [3, 7, 6],
    ]);
  });

  it('prints the same document twice (deterministic output)', async () => {
    const folder = path.join(ROOT, 'new-stateful-broadcast-udf-migration-itcase-flink1.20-hashmap-savepoint');
    const a = await run('inspect', '--format', 'json', folder);
    const b = await run('inspect', '--format', 'json', folder);
    expect(a.stdout).toBe(b.stdout);
    expect(stateOf(JSON.parse(a.stdout), '12d7d939fd56473cac7cff0603179a41', 'broadcast-state-1')).toMatchObject({
      kind: 'BROADCAST',
      scope: 'broadcast',
      subtasks: [0, 1, 2, 3],
      entries: 4,
    }); // 4 entries; each of the 4 subtasks holds a copy, counted once
  });

  it('text summary names the savepoint, operators and states', async () => {
    const r = await run('inspect', path.join(ROOT, 'operatorstate/nonKeyed-flink1.20'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  savepoint, format CANONICAL, _metadata version 4, checkpoint id 54\n');
    expect(r.stdout).toContain('Operator 013ef814c76e319e5fe9a82a3ba14933\n  parallelism 4, max parallelism 128, 4 subtask states');
    expect(r.stdout).toContain('  - _default_  OPERATOR_LIST (operator), 4 entries, subtasks 0,1,2,3');
  });

  it('a savepoint folder with a state file removed: exit 0, the missing file reported with its operator and subtask', async () => {
    const src = path.join(ROOT, 'new-stateful-udf-migration-itcase-flink1.20-hashmap-savepoint');
    const dir = mkdtempSync(path.join(tmpdir(), 'spi-cli-'));
    const doc0 = JSON.parse((await run('inspect', '--format', 'json', '--handles', src)).stdout);
    const removed = operatorOf(doc0, 'd5c8b168c6cbfe8c507a10f88b325243').subtasks[0].managedKeyedState.data.path as string;
    for (const f of readdirSync(src)) if (f !== removed) copyFileSync(path.join(src, f), path.join(dir, f));
    expect(readFileSync(path.join(dir, '_metadata')).length).toBe(2617);
    const r = await run('inspect', '--format', 'json', dir);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as InspectJson;
    const missing = doc.errors.filter((e) => e.code === 'missing-file');
    expect(missing.length).toBeGreaterThan(0);
    expect(missing[0]!.message).toContain(
      `expected state file "${removed}" next to _metadata in ${dir}, found no such file: the savepoint is incomplete (copy the whole folder) — at`,
    );
    expect(missing[0]!.message).toMatch(/\/_metadata, offset \d+ \(0x[0-9a-f]+\) \[operator d5c8b168… \/ subtask 1 \/ managed keyed state\]$/);
    // the offset points at the handle's path string in `_metadata` (a u16 length, then the file name)
    const at = (missing[0] as { offset?: number }).offset;
    expect(at).toBeTypeOf('number');
    const metadataBytes = readFileSync(path.join(dir, '_metadata'));
    expect(metadataBytes.readUInt16BE(at!)).toBe(Buffer.byteLength(removed));
    expect(metadataBytes.subarray(at! + 2, at! + 2 + Buffer.byteLength(removed)).toString('utf8')).toBe(removed);
  });
});
