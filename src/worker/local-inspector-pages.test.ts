/**
 * Every state of the committed fixture: the values table read page by page (and one row at a time,
 * from the row's key group) equals an independent full read with the core's readStateEntries and the
 * full decoder, and entry counts equal the stats scan (tests/helpers/expect-pages-match-full-read.ts;
 * the same over the shared Flink savepoints: tests/shared-savepoints/local-inspector-pages.test.ts).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectPagesMatchFullRead, inputFiles } from '../../tests/helpers/expect-pages-match-full-read';
import { LocalInspector } from './local-inspector';
import { requireCommitted } from '../../tests/helpers/committed-data';

const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');

requireCommitted(path.join(FIXTURE, '_metadata'));

describe('values table over the fixture (flink-1.20/hashmap/canonical)', () => {
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
    await expect(inspector.getEntryDetail({ ...query, index: 5 })).rejects.toMatchObject({
      name: 'UsageError',
      code: 'not-found',
      detail: 'entry 5 does not exist: state last-event has 5 entries',
    });
  });
});
