/**
 * Every state of the committed fixture and of the shared Flink savepoints: the values table read
 * page by page (and one row at a time, from the row's key group) equals an independent full read
 * with the core's readStateEntries and the full decoder, and entry counts equal the stats scan.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, readStateEntries, type StateEntry } from '../core/flink';
import { openSavepointInput } from '../core/io';
import { registerProtobufSnapshotReaders } from '../core/protobuf';
import { LocalInspector } from './local-inspector';
import { toInputFiles } from './sources';
import { summarizeDecodedValue } from './summarize-decoded-value';
import type { InputFile } from './inspector';

const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const SHARED = path.resolve(process.cwd(), '../shared/flink-savepoints');

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? listFiles(path.join(dir, n)) : [path.join(dir, n)]));
}

function inputFiles(dir: string): InputFile[] {
  return listFiles(dir).map((f) => ({ path: `sp/${path.relative(dir, f).split(path.sep).join('/')}`, blob: new Blob([readFileSync(f)]) }));
}

async function readReference(dir: string, operatorId: string, state: string): Promise<StateEntry[]> {
  const input = await openSavepointInput({ kind: 'files', name: 'sp', files: toInputFiles(inputFiles(dir)) });
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const out: StateEntry[] = [];
  for await (const e of readStateEntries(input, registry, { operatorId, state })) out.push(e);
  return out;
}

async function expectPagesMatchFullRead(dir: string): Promise<number> {
  const inspector = new LocalInspector();
  await inspector.open({ kind: 'files', files: inputFiles(dir) });
  const inspection = await inspector.getInspection();
  let checked = 0;
  for (const op of inspection.operators) {
    for (const s of op.states) {
      if (s.status === 'unreadable') continue;
      const query = { operatorId: op.id, state: s.name };
      const reference = await readReference(dir, op.id, s.name);
      const stats = await inspector.getStateStats(query);
      // the table lists every subtask's copy of a broadcast state; the statistics count one copy
      expect(stats.rows, `${op.id}/${s.name}`).toBe(reference.length);
      const all = await inspector.listEntries({ ...query, offset: 0, limit: reference.length + 10 });
      expect(all.rows.map((r) => [r.subtask, r.keyGroup, r.key, r.namespace, r.userKey, r.value, r.size]), `${op.id}/${s.name}`).toEqual(
        reference.map((e) => [e.subtask, e.keyGroup, e.key && summarizeDecodedValue(e.key), e.namespace && summarizeDecodedValue(e.namespace), e.userKey && summarizeDecodedValue(e.userKey), summarizeDecodedValue(e.value), e.valueRange.length]),
      );
      for (let i = 0; i < reference.length; i++) {
        const one = await inspector.listEntries({ ...query, offset: i, limit: 1 });
        expect(one.rows, `${op.id}/${s.name} row ${i}`).toEqual([all.rows[i]]);
      }
      checked += reference.length;
    }
  }
  return checked;
}

describe.skipIf(!existsSync(path.join(FIXTURE, '_metadata')))('values table over the fixture (flink-1.20/hashmap/canonical)', () => {
  it('every state, page by page and row by row, equals a full read with the full decoder', async () => {
    expect(await expectPagesMatchFullRead(FIXTURE)).toBeGreaterThan(80);
  });

  it('shows the decoded key and value of a known entry, and its detail with JSON and unknown fields', async () => {
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: inputFiles(FIXTURE) });
    const query = { operatorId: '6d821971c3bfd7ae2c972e89d7414f7c', state: 'last-event' };
    const page = await inspector.listEntries({ ...query, offset: 0, limit: 1 });
    expect(page.total).toBe(5);
    expect(page.rows[0]).toMatchObject({ index: 0, subtask: 0, keyGroup: 1, key: '3', namespace: 'VoidNamespace', unknownFields: 1 });
    expect(page.rows[0]!.value.startsWith('fixtures.events.Event {"id":"23","name":"event-23","kind":"DELETED","tags":["t0","t1"]')).toBe(true);
    const detail = await inspector.getEntryDetail({ ...query, index: 0 });
    expect(detail.values).toHaveLength(1);
    expect(detail.values[0]!.typeName).toBe('fixtures.events.Event');
    expect(detail.values[0]!.json).toMatchObject({ id: '23', name: 'event-23', kind: 'DELETED', tags: ['t0', 't1'] });
    expect(detail.values[0]!.unknownFields.map((u) => [u.number, u.wireType])).toEqual([[100, 0]]);
    // the entry crosses the boundary without the JSON (the detail carries it once)
    expect(detail.entry.value).toMatchObject({ kind: 'message', json: null });
    await expect(inspector.getEntryDetail({ ...query, index: 5 })).rejects.toMatchObject({ name: 'UsageError', code: 'not-found', detail: 'entry 5 does not exist: state last-event has 5 entries' });
  });
});

const sharedDirs = existsSync(SHARED) ? readdirSync(SHARED).filter((n) => existsSync(path.join(SHARED, n, '_metadata'))) : [];

describe.skipIf(sharedDirs.length === 0)('values table over the shared Flink savepoints (../shared/flink-savepoints)', () => {
  it.each(sharedDirs)('%s: every state page by page and row by row equals a full read', async (name) => {
    expect(await expectPagesMatchFullRead(path.join(SHARED, name))).toBeGreaterThan(0);
  });
});
