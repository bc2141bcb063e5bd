/**
 * The entry detail pane carries a large value cut at the caps `dump` prints (core/report's
 * VALUE_VIEW_CAPS): the JSON only when it fits, 1,000 unknown fields with their first bytes, the first
 * MiB of the frame and the field ranges inside it; `whole` carries all of it. Over a fixture savepoint
 * with one huge value patched in (tests/helpers/write-savepoint-with-huge-value.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inputFiles } from '../../tests/helpers/expect-pages-match-full-read';
import { writeSavepointWithHugeValue } from '../../tests/helpers/write-savepoint-with-huge-value';
import { LocalInspector } from './local-inspector';
import { requireCommitted } from '../../tests/helpers/committed-data';

const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const MiB = 1024 * 1024;

requireCommitted(path.join(FIXTURE, '_metadata'));

describe('entry detail of a huge value', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'si-detail-caps-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is cut at the view caps and says where; `whole` lifts them', async () => {
    const sp = writeSavepointWithHugeValue(FIXTURE, path.join(dir, 'sp'), 1_500_000);
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files: inputFiles(sp) });
    const query = { operatorId: '6d821971c3bfd7ae2c972e89d7414f7c', state: 'processed-events' };
    const page = await inspector.listEntries({ ...query, offset: 0, limit: 50 });
    const index = page.rows.findIndex((r) => r.size > MiB);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(page.rows[index]!.unknownFields).toBe(1502);

    const cut = await inspector.getEntryDetail({ ...query, index });
    expect(cut.cut).toBe(true);
    const v = cut.values[0]!;
    expect(v.frameSize).toBe(page.rows[index]!.size);
    expect(v.frame.length).toBe(MiB);
    expect(v.json).toBeNull();
    expect(v.jsonOmitted).toBe('its JSON is longer than 1,048,576 characters');
    expect(v.unknownFields).toHaveLength(1000);
    expect(v.unknownFieldsOmitted).toBe(502);
    // field 200 (200,005 bytes with its tag and length): its first 32 bytes travel, not the field
    const big = v.unknownFields.find((u) => u.number === 200)!;
    expect(big.length).toBe(200_005);
    expect(Array.from(big.head)).toEqual([0xc2, 0x0c, 0xc0, 0x9a, 0x0c, ...new Array<number>(27).fill(0x5a)]);
    expect(v.fieldRanges.every((r) => r.offset < MiB)).toBe(true);
    // the table row of a small value is not cut
    const small = page.rows.findIndex((r) => r.size < 1000);
    expect((await inspector.getEntryDetail({ ...query, index: small })).cut).toBe(false);

    const whole = await inspector.getEntryDetail({ ...query, index, whole: true });
    expect(whole.cut).toBe(false);
    const w = whole.values[0]!;
    expect(w.frame.length).toBe(w.frameSize);
    expect(w.unknownFields).toHaveLength(1502);
    expect(w.unknownFieldsOmitted).toBeUndefined();
    expect(w.jsonOmitted).toBeUndefined();
    expect(w.json).toMatchObject({ id: expect.any(String) });
  });
});
