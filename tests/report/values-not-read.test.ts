/**
 * A report never looks complete when it is not: the keyed Protobuf states of a RocksDB native savepoint
 * get a verdict from their snapshots, but their values (SST files) are not read, and every report format
 * says so per state and in the summary instead of showing "0 warnings".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSavepoint, formatReport } from '../../src/core/report';
import { openNodeInput } from '../../src/cli/sources';

const fixture = (v: string, f: string) => path.resolve(process.cwd(), `fixtures/savepoints/${v}/${f}/savepoint`);
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
const NOT_READ = 'RocksDB native snapshot: SST files are not readable here; take a canonical savepoint';

async function check(dir: string) {
  return checkSavepoint({ files: await openNodeInput(dir), descriptorSet: { name: 'events-changed.binpb', bytes: new Uint8Array(readFileSync(SCHEMA)) }, tool: { name: 'savepoint-inspector', version: 'test' } });
}

describe('values not read', () => {
  it('RocksDB native: each keyed Protobuf state says its values were not read, in the model and in every format', async () => {
    const report = await check(fixture('flink-2.3', 'rocksdb/native'));
    const unread = report.states.filter((s) => s.valuesNotRead !== undefined);
    expect(unread.map((s) => s.state).sort()).toEqual(['event-history', 'events-by-name', 'large-event', 'last-event', 'long-last-event', 'ttl-last-event']);
    for (const s of unread) expect(s).toMatchObject({ valuesNotRead: NOT_READ, warnings: [] });
    expect(unread.every((s) => s.valuesScanned === undefined)).toBe(true);
    // the operator states of the same savepoint are read
    expect(report.states.some((s) => s.valuesScanned !== undefined && s.valuesScanned > 0)).toBe(true);
    expect(report.summary.valuesNotRead).toBe(6);

    const json = JSON.parse(formatReport(report, 'json')) as { summary: { valuesNotRead?: number }; states: { state: string; valuesNotRead?: string }[] };
    expect(json.summary.valuesNotRead).toBe(6);
    expect(json.states.filter((s) => s.valuesNotRead === NOT_READ).length).toBe(6);
    const summaryLine = 'the values of 6 state(s) were not read, so their value warnings were not checked';
    const markdown = formatReport(report, 'markdown');
    expect(markdown).toContain(summaryLine);
    expect(markdown.match(/\| values not read \|/g)?.length).toBe(6);
    expect(markdown.match(/\*\*Values not read\*\*: RocksDB native snapshot/g)?.length).toBe(6);
    const text = formatReport(report, 'text');
    expect(text).toContain(summaryLine);
    expect(text.match(/VALUES NOT READ: RocksDB native snapshot/g)?.length).toBe(6);
    const html = formatReport(report, 'html');
    expect(html.match(/<td>values not read<\/td>/g)?.length).toBe(6);
    expect(formatReport(report, 'junit').match(/VALUES NOT READ: RocksDB native snapshot/g)?.length).toBe(6);
    expect(formatReport(report, 'github').match(/values not read::RocksDB native snapshot/g)?.length).toBe(6);
  });

  it('a canonical savepoint of the same job has no state whose values were not read, and no such summary', async () => {
    const report = await check(fixture('flink-2.3', 'rocksdb/canonical'));
    expect(report.states.filter((s) => s.valuesNotRead !== undefined)).toEqual([]);
    expect(report.summary.valuesNotRead).toBeUndefined();
    expect(formatReport(report, 'markdown')).not.toContain('not read');
  });
});
