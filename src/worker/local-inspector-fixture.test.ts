import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { listSavedSchemas } from '../core/compat';
import { buildReportView, formatReport } from '../core/report';
import { openNodeInput } from '../cli/sources';
import { LocalInspector } from './local-inspector';
import { requireCommitted } from '../../tests/helpers/committed-data';

const SAVEPOINT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');

async function openFixture(): Promise<{ inspector: LocalInspector; operatorId: string }> {
  const files = readdirSync(SAVEPOINT).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(SAVEPOINT, n))]) }));
  files.push({ path: 'events-changed.binpb', blob: new Blob([readFileSync(SCHEMA)]) });
  const inspector = new LocalInspector();
  await inspector.open({ kind: 'files', files });
  const inspection = await inspector.getInspection();
  const op = inspection.operators.find((o) => o.states.some((s) => s.name === 'last-event'));
  if (!op) throw new Error('fixture has no last-event state');
  return { inspector, operatorId: op.id };
}

requireCommitted(path.join(SAVEPOINT, '_metadata'));

describe('LocalInspector over the fixture savepoint (flink-1.20/hashmap/canonical) and the demo schema', () => {
  it('gives a saved schema before the inspection was asked for (it reads the inspection itself)', async () => {
    const files = readdirSync(SAVEPOINT).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(SAVEPOINT, n))]) }));
    const inspector = new LocalInspector();
    await inspector.open({ kind: 'files', files });
    const [cli] = await listSavedSchemas(await openNodeInput(SAVEPOINT));
    expect(Buffer.from(await inspector.getSavedSchema(cli!.descriptorSha256)).equals(Buffer.from(cli!.descriptorBytes))).toBe(true);
  });

  it("gives a state's saved schema by the digest its snapshot details show, byte for byte the export-schema file", async () => {
    const { inspector, operatorId } = await openFixture();
    const inspection = await inspector.getInspection();
    const state = inspection.operators.find((o) => o.id === operatorId)!.states.find((s) => s.name === 'last-event')!;
    const sha256 = state.valueSerializer?.details?.['descriptorSha256'];
    expect(typeof sha256).toBe('string');
    const bytes = await inspector.getSavedSchema(sha256 as string);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
    expect(bytes.length).toBe(state.valueSerializer?.details?.['descriptorBytes']);
    const [cli] = await listSavedSchemas(await openNodeInput(SAVEPOINT));
    expect(Buffer.from(bytes).equals(Buffer.from(cli!.descriptorBytes))).toBe(true);
    await expect(inspector.getSavedSchema('00'.repeat(32))).rejects.toMatchObject({
      message: `the open savepoint has no saved schema with SHA-256 ${'00'.repeat(32)}`,
    });
  });

  it('scans a state: distribution, unknown fields by number and wire type, payload histogram', async () => {
    const { inspector, operatorId } = await openFixture();
    const stats = await inspector.getStateStats({ operatorId, state: 'last-event' });
    expect(stats.entries).toBe(5);
    expect(stats.bySubtask.map((b) => [b.id, b.entries])).toEqual([
      [0, 3],
      [1, 2],
    ]);
    expect(stats.byKeyGroup.map((b) => b.id)).toEqual([1, 6, 7, 14, 15]);
    expect(stats.protobufDetail?.typeName).toBe('fixtures.events.Event');
    expect(stats.protobufDetail?.unknownFields.map((u) => [u.message, u.number, u.wireType, u.values])).toEqual([
      ['fixtures.events.Event', 100, 0, 5],
      ['fixtures.events.Event', 101, 2, 2],
    ]);
    expect(stats.protobufDetail?.histogram.reduce((n, b) => n + b.count, 0)).toBe(5);
    expect(stats.protobufDetail?.histogram.some((b) => b.to === 4096)).toBe(true);
  });

  it('pages entries and gives an entry with its frame bytes, unknown field and field ranges relative to the frame', async () => {
    const { inspector, operatorId } = await openFixture();
    const page = await inspector.listEntries({ operatorId, state: 'last-event', offset: 1, limit: 2 });
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.index)).toEqual([1, 2]);
    const detail = await inspector.getEntryDetail({ operatorId, state: 'last-event', index: 0 });
    const v = detail.values[0];
    expect(v.frame.length).toBe(4 + v.payloadSize);
    // the 4-byte big-endian frame length is the payload size
    expect(new DataView(v.frame.buffer, v.frame.byteOffset).getInt32(0)).toBe(v.payloadSize);
    const u100 = v.unknownFields.find((u) => u.number === 100)!;
    // an unknown varint field 100 starts with its tag: (100 << 3 | 0) as a varint = a0 06
    expect([...v.frame.subarray(u100.offset, u100.offset + 2)]).toEqual([0xa0, 0x06]);
    expect(v.fieldRanges[0]).toMatchObject({ path: 'id', number: 1, known: true, offset: 4 });
  });

  it('checks compatibility like the CLI: 0.x snapshots are not restorable by target 1.x, with value warnings', async () => {
    const { inspector, operatorId } = await openFixture();
    const report = await inspector.check({ target: '1.x', newSettings: {} });
    expect(report.verdict).toBe('not-restorable');
    const lastEvent = report.states.find((s) => s.operator === operatorId && s.state === 'last-event')!;
    expect(lastEvent.verdict).toBe('not-restorable');
    expect(lastEvent.planningAid?.firstIncompatibility).toEqual({
      ruleId: 'FIELD_TYPE_CHANGED',
      message: 'Field 2 (code) of fixtures.common.Detail changes type from FIXED32 to INT32',
      params: { number: 2, name: 'code', message: 'fixtures.common.Detail', from: 'FIXED32', to: 'INT32' },
    });
    expect(lastEvent.warnings.map((w) => w.ruleId)).toContain('UNKNOWN_NUMBER_BECOMES_FIELD');
    // the app's view of the report comes with it, worked out in the worker; the exported report is the report alone
    const { view, ...plain } = report;
    expect(view).toEqual(buildReportView(plain));
    expect(view.valueAlerts.becomesField.length).toBeGreaterThan(0);
    expect(await inspector.formatReport({ target: '1.x', newSettings: {} }, 'json')).toBe(formatReport(plain, 'json'));
  });

  it('cancels a state scan on request: it rejects as cancelled, nothing is cached, and the next call scans again', async () => {
    const { inspector, operatorId } = await openFixture();
    const phases: string[] = [];
    const cancelled = inspector.getStateStats({ operatorId, state: 'events-by-name' }, (p) => {
      phases.push(p.phase);
      void inspector.cancel();
    });
    await expect(cancelled).rejects.toMatchObject({ name: 'DecodeError', code: 'cancelled' });
    expect(phases.length).toBeGreaterThan(0);
    const stats = await inspector.getStateStats({ operatorId, state: 'events-by-name' });
    expect(stats.entries).toBe(24);
  });

  it('answers concurrent requests from one scan per state, without mixing values of other decodes in', async () => {
    const { inspector, operatorId } = await openFixture();
    const [page, detail, inspection, stats] = await Promise.all([
      inspector.listEntries({ operatorId, state: 'last-event', offset: 0, limit: 10 }),
      inspector.getEntryDetail({ operatorId, state: 'last-event', index: 0 }),
      inspector.getInspection(),
      inspector.getStateStats({ operatorId, state: 'events-by-name' }),
    ]);
    expect(page.rows.map((r) => r.unknownFields)).toEqual([1, 1, 1, 2, 2]);
    expect(detail.values).toHaveLength(1);
    expect(detail.values[0].unknownFields.map((u) => u.number)).toEqual([100]);
    expect(inspection.operators.length).toBeGreaterThan(0);
    expect(stats.entries).toBe(24);
  });

  it('keeps the scans of an unchanged savepoint when only the schema changes, without reading its files again', async () => {
    let reads = 0;
    class CountingFile extends File {
      override slice(start?: number, end?: number, contentType?: string): Blob {
        reads++;
        return super.slice(start, end, contentType);
      }
    }
    const savepointFiles = () =>
      readdirSync(SAVEPOINT).map((n) => ({
        path: `sp/${n}`,
        blob: new CountingFile([readFileSync(path.join(SAVEPOINT, n))], n, { lastModified: 1_700_000_000_000 }),
      }));
    const inspector = new LocalInspector();
    const first = await inspector.open({ kind: 'files', files: savepointFiles() });
    const operatorId = (await inspector.getInspection()).operators.find((o) => o.states.some((s) => s.name === 'last-event'))!.id;
    await inspector.getStateStats({ operatorId, state: 'last-event' });
    const schema = { path: 'events-changed.binpb', blob: new File([readFileSync(SCHEMA)], 'events-changed.binpb', { lastModified: 1 }) };
    reads = 0;
    const second = await inspector.open({ kind: 'files', files: [...savepointFiles(), schema] });
    expect(reads).toBe(0);
    expect(second.savepointHash).toBe(first.savepointHash);
    expect(second.inputHash).not.toBe(first.inputHash);
    expect(second.descriptorSetName).toBe('events-changed.binpb');
    expect(second.digests.find((d) => d.path === 'sp/_metadata')?.sha256).toBe(first.digests.find((d) => d.path === 'sp/_metadata')?.sha256);
    const progress: string[] = [];
    const stats = await inspector.getStateStats({ operatorId, state: 'last-event' }, (p) => progress.push(p.phase));
    expect(stats.entries).toBe(5);
    expect(progress).toEqual([]);
  });
});
