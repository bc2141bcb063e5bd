/**
 * A report never looks complete when it is not: the keyed Protobuf states of a RocksDB native savepoint
 * whose SST files are missing get a verdict from their snapshots, but their values are not read, and
 * every report format says so per state and in the summary instead of showing "0 warnings".
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSavepoint, computeExitCode, formatReport } from '../../src/core/report';
import { openNodeInput } from '../../src/cli/sources';
import { openSavepoint } from '../../src/core/flink';
import type { SavepointFiles } from '../../src/core/io';

const fixture = (v: string, f: string) => path.resolve(process.cwd(), `fixtures/savepoints/${v}/${f}/savepoint`);
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
const NOT_READ =
  /^expected state file "[0-9a-f-]{36}" next to _metadata in \/\S+\/savepoint, found no such file: the savepoint is incomplete \(copy the whole folder\)$/;

/** The savepoint without the SST files its incremental keyed handles name. */
async function withoutSstFiles(files: SavepointFiles): Promise<SavepointFiles> {
  const opened = await openSavepoint(files);
  const hidden = new Set<string>();
  for (const op of opened.metadata.operators) {
    for (const st of op.subtasks) {
      const h = st.managedKeyedState;
      if (h?.kind !== 'incremental') continue;
      for (const f of [...h.sharedFiles, ...h.privateFiles])
        if (f.localPath.endsWith('.sst') && f.handle?.kind === 'relative-file') hidden.add(f.handle.relativePath);
    }
  }
  return {
    ...files,
    name: files.name,
    metadata: files.metadata,
    files: files.files,
    warnings: files.warnings,
    resolveRelative: (p) => (hidden.has(p) ? undefined : files.resolveRelative(p)),
  };
}

async function check(dir: string, hideSst = false) {
  const files = await openNodeInput(dir);
  return checkSavepoint({
    files: hideSst ? await withoutSstFiles(files) : files,
    descriptorSet: { name: 'events-changed.binpb', bytes: new Uint8Array(readFileSync(SCHEMA)) },
    tool: { name: 'savepoint-inspector', version: 'test' },
  });
}

describe('values not read', () => {
  it('RocksDB native without its SST files: each keyed Protobuf state says its values were not read, in the model and in every format', async () => {
    const report = await check(fixture('flink-2.3', 'rocksdb/native'), true);
    const unread = report.states.filter((s) => s.valuesNotRead !== undefined);
    expect(unread.map((s) => s.state).sort()).toEqual(['event-history', 'events-by-name', 'large-event', 'last-event', 'long-last-event', 'ttl-last-event']);
    for (const s of unread) expect(s).toMatchObject({ valuesNotRead: expect.stringMatching(NOT_READ), warnings: [] });
    expect(unread.every((s) => s.valuesScanned === undefined)).toBe(true);
    // the operator states of the same savepoint are read
    expect(report.states.some((s) => s.valuesScanned !== undefined && s.valuesScanned > 0)).toBe(true);
    expect(report.summary.valuesNotRead).toBe(6);
    // a CI gate never passes on values it could not read: values not read alone make the verdict unknown and `check` exit 1
    expect(computeExitCode(report)).toBe(1);
    expect(report.notChecked).toContain('the saved values of 6 Protobuf states were not read (each state says why), so their value warnings were not checked');

    const json = JSON.parse(formatReport(report, 'json')) as { summary: { valuesNotRead?: number }; states: { state: string; valuesNotRead?: string }[] };
    expect(json.summary.valuesNotRead).toBe(6);
    expect(json.states.filter((s) => NOT_READ.test(s.valuesNotRead ?? '')).length).toBe(6);
    const summaryLine = 'the values of 6 state(s) were not read, so their value warnings were not checked';
    const markdown = formatReport(report, 'markdown');
    expect(markdown).toContain(summaryLine);
    expect(markdown.match(/\| values not read \|/g)?.length).toBe(6);
    expect(markdown.match(/\*\*Values not read\*\*: expected state file/g)?.length).toBe(6);
    const text = formatReport(report, 'text');
    expect(text).toContain(summaryLine);
    expect(text.match(/VALUES NOT READ: expected state file/g)?.length).toBe(6);
    const html = formatReport(report, 'html');
    expect(html.match(/<td>values not read<\/td>/g)?.length).toBe(6);
    expect(formatReport(report, 'junit').match(/VALUES NOT READ: expected state file/g)?.length).toBe(6);
    expect(formatReport(report, 'sarif').match(/"ruleId": "VALUES_NOT_READ"/g)?.length).toBe(6);
    expect(formatReport(report, 'github').match(/values not read::expected state file/g)?.length).toBe(6);
  });

  for (const variant of ['rocksdb/canonical', 'rocksdb/native']) {
    it(`${variant}: every state's values are read, and no summary says otherwise`, async () => {
      const report = await check(fixture('flink-2.3', variant));
      expect(report.states.filter((s) => s.valuesNotRead !== undefined)).toEqual([]);
      expect(report.states.filter((s) => (s.valuesScanned ?? 0) > 0).length).toBe(9);
      expect(report.summary.warnings).toBe(13);
      expect(report.summary.valuesNotRead).toBeUndefined();
      expect(formatReport(report, 'markdown')).not.toContain('not read');
    });
  }
});
