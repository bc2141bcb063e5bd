/**
 * The app's scans over real bytes: a generated 4 MiB canonical savepoint (bench/generate: two
 * Protobuf ValueStates, 2 subtasks, 128 key groups) and the committed fixture with unknown fields.
 * Bytes read are counted through the files handed to the inspector (Blob.slice), so the header-only
 * steps are checked by what they read; the statistics are compared with the CLI's `stats --json`,
 * and the values table with an independent full read (readStateEntries + the full decoder).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBenchSavepoint, type BenchSavepointManifest } from '../../bench/generate/generate-bench-savepoint';
import { loadBenchSchema } from '../../bench/generate/bench-values';
import { runCli } from '../cli/run-cli';
import { describeProtobufStateScan } from '../core/compat';
import { createSnapshotRegistry, type StateEntry } from '../core/flink';
import { readStateEntries } from '../../tests/helpers/read-state-entries';
import { openSavepointInput } from '../core/io';
import { registerProtobufSnapshotReaders } from '../core/protobuf';
import type { InputFile, StateStatsDetail } from './inspector';
import { LocalInspector } from './local-inspector';
import { toInputFiles } from './sources';
import { summarizeDecodedValue } from './summarize-decoded-value';
import { requireCommitted } from '../../tests/helpers/committed-data';

/** A File whose reads (slices) are counted in `counter.bytes`. */
function countingFile(bytes: Uint8Array, name: string, counter: { bytes: number }): Blob {
  class CountingFile extends File {
    override slice(start = 0, end = this.size, contentType?: string): Blob {
      counter.bytes += Math.max(0, Math.min(end, this.size) - start);
      return super.slice(start, end, contentType);
    }
  }
  return new CountingFile([bytes as Uint8Array<ArrayBuffer>], name, { lastModified: 1_700_000_000_000 });
}

function folderFiles(dir: string, prefix: string, counters: { state: { bytes: number }; metadata: { bytes: number } }): InputFile[] {
  return readdirSync(dir)
    .filter((n) => n !== 'bench-manifest.json')
    .map((n) => ({
      path: `${prefix}/${n}`,
      blob: countingFile(new Uint8Array(readFileSync(path.join(dir, n))), n, n === '_metadata' ? counters.metadata : counters.state),
    }));
}

async function cliStats(
  dir: string,
  extra: string[] = [],
): Promise<{
  states: { operatorId: string; state: string; scope: string; entries: number; valueBytes: number; protobuf?: unknown }[];
  coverage?: { keyGroupsRead: number; keyGroupsWithData: number };
}> {
  let out = '';
  const code = await runCli(['stats', dir, '--format', 'json', '--workers', '1', ...extra], { stdout: (t) => void (out += t), stderr: () => undefined });
  expect(code).toBe(0);
  return JSON.parse(out);
}

/** Every entry of a state read by the core with the full decoder: the reference for the values table. */
async function readReference(dir: string, operatorId: string, state: string): Promise<StateEntry[]> {
  const files = toInputFiles(readdirSync(dir).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(dir, n))]) })));
  const input = await openSavepointInput({ kind: 'files', name: 'sp', files });
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const out: StateEntry[] = [];
  for await (const e of readStateEntries(input, registry, { operatorId, state })) out.push(e);
  return out;
}

function sumBuckets(s: StateStatsDetail): number {
  return s.bySubtask.reduce((n, b) => n + b.bytes, 0);
}

describe('LocalInspector over a generated 4 MiB savepoint (bench/generate)', () => {
  let dir: string;
  let manifest: BenchSavepointManifest;
  let schemaPath: string;
  beforeAll(() => {
    const root = mkdtempSync(path.join(tmpdir(), 'appscan-'));
    dir = path.join(root, 'sp-4m');
    manifest = generateBenchSavepoint({ dir, targetBytes: 4 * 1024 * 1024, parallelism: 2 });
    schemaPath = path.join(root, 'bench.binpb');
    writeFileSync(schemaPath, loadBenchSchema().descriptorSet);
  });
  afterAll(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  const open = async () => {
    const counters = { state: { bytes: 0 }, metadata: { bytes: 0 } };
    const schema = new Uint8Array(readFileSync(schemaPath));
    const inspector = new LocalInspector();
    const session = await inspector.open({ kind: 'files', files: [...folderFiles(dir, 'sp-4m', counters), { path: 'bench.binpb', blob: new Blob([schema]) }] });
    return { inspector, session, counters };
  };

  it('open, inspection and the header-only verdict read _metadata and the state headers only: under 1 % of the state bytes', async () => {
    const { inspector, session, counters } = await open();
    expect(counters.state.bytes).toBe(0);
    expect(session.digests.find((d) => d.path === 'sp-4m/_metadata')?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const inspection = await inspector.getInspection();
    const states = inspection.operators.flatMap((o) => o.states);
    expect(states.map((s) => [s.name, s.entries])).toEqual([
      ['events', undefined],
      ['last-event', undefined],
    ]);
    const report = await inspector.checkHeaders({ target: '0.x', newSettings: {} });
    expect(report.states.map((s) => [s.state, s.verdict, s.valuesScanned])).toEqual([
      ['events', 'compatible', undefined],
      ['last-event', 'compatible', undefined],
    ]);
    const total = manifest.files.reduce((n, f) => n + f.size, 0);
    expect(counters.state.bytes).toBeGreaterThan(0);
    expect(counters.state.bytes).toBeLessThan(total / 100);
    // the value scan (the export's report) does read the values
    const full = await inspector.check({ target: '0.x', newSettings: {} });
    expect(full.states.map((s) => s.valuesScanned)).toEqual([manifest.keys, Math.ceil(manifest.keys / 4)]);
    expect(counters.state.bytes).toBeGreaterThan(total / 2);
  });

  it("state statistics come from the structural scan and equal the CLI's `stats --json`", async () => {
    const { inspector } = await open();
    const cli = await cliStats(dir);
    for (const name of ['events', 'last-event']) {
      const stats = await inspector.getStateStats({ operatorId: manifest.operatorId, state: name });
      const expected = cli.states.find((s) => s.state === name)!;
      expect(stats.entries).toBe(expected.entries);
      expect(sumBuckets(stats)).toBe(expected.valueBytes);
      expect(describeProtobufStateScan(stats.protobuf!)).toEqual(expected.protobuf);
      expect(stats.protobuf?.values).toBe(name === 'events' ? manifest.keys : Math.ceil(manifest.keys / 4));
      expect(stats.protobufDetail?.histogram.reduce((n, b) => n + b.count, 0)).toBe(stats.protobuf?.values);
      expect(stats.byKeyGroup.reduce((n, b) => n + b.entries, 0)).toBe(stats.entries);
      expect(stats.sample).toBeUndefined();
    }
  });

  it('pages from anywhere in the state equal a full read, and a page in the middle reads one key group, not the state', async () => {
    const { inspector, counters } = await open();
    const operatorId = manifest.operatorId;
    const reference = await readReference(dir, operatorId, 'last-event');
    const stats = await inspector.getStateStats({ operatorId, state: 'last-event' });
    expect(stats.entries).toBe(reference.length);
    const all = await inspector.listEntries({ operatorId, state: 'last-event', offset: 0, limit: reference.length });
    expect(all.total).toBe(reference.length);
    expect(all.rows.map((r) => [r.index, r.subtask, r.keyGroup, r.key, r.value, r.size])).toEqual(
      reference.map((e, i) => [i, e.subtask, e.keyGroup, summarizeDecodedValue(e.key), summarizeDecodedValue(e.value), e.valueRange.length]),
    );
    const mid = Math.floor(reference.length / 2) + 7;
    for (const offset of [1, 137, mid, reference.length - 3]) {
      const page = await inspector.listEntries({ operatorId, state: 'last-event', offset, limit: 40 });
      expect(page.offset).toBe(offset);
      expect(page.rows).toEqual(all.rows.slice(offset, offset + 40));
    }
    const before = counters.state.bytes;
    await inspector.listEntries({ operatorId, state: 'last-event', offset: mid + 1, limit: 3 });
    const stateBytes = manifest.files.reduce((n, f) => n + f.size, 0);
    expect(counters.state.bytes - before).toBeLessThan(stateBytes / 20);
    // one entry in full: key, decoded JSON and frame of the reference's entry
    const detail = await inspector.getEntryDetail({ operatorId, state: 'last-event', index: mid });
    const ref = reference[mid]!;
    expect(detail.row).toEqual(all.rows[mid]);
    expect(detail.entry.key).toEqual(ref.key);
    expect(ref.value?.kind).toBe('message');
    expect(detail.values[0]!.json).toEqual(ref.value?.kind === 'message' ? ref.value.json : null);
    expect(detail.values[0]!.frame.length).toBe(ref.valueRange.length);
  });

  it('samples every n-th key group or the first N entries, like the CLI, and says how much was read', async () => {
    const { inspector } = await open();
    const operatorId = manifest.operatorId;
    const sampled = await inspector.getStateStats({ operatorId, state: 'events', sample: { kind: 'key-groups', every: 8 } });
    const cli = await cliStats(dir, ['--every-key-group', '8']);
    expect(sampled.sample).toEqual({ sample: { kind: 'key-groups', every: 8 }, keyGroupsRead: 16, keyGroupsWithData: 128, limited: false });
    expect(cli.coverage).toMatchObject({ keyGroupsRead: 16, keyGroupsWithData: 128 });
    expect(sampled.entries).toBe(cli.states.find((s) => s.state === 'events')!.entries);
    expect(describeProtobufStateScan(sampled.protobuf!)).toEqual(cli.states.find((s) => s.state === 'events')!.protobuf);
    expect(sampled.byKeyGroup.every((b) => b.id % 8 === 0)).toBe(true);
    const page = await inspector.listEntries({ operatorId, state: 'events', offset: 5, limit: 2, sample: { kind: 'key-groups', every: 8 } });
    expect(page.total).toBe(sampled.entries);
    expect(page.rows.every((r) => r.keyGroup % 8 === 0)).toBe(true);

    const first = await inspector.getStateStats({ operatorId, state: 'events', sample: { kind: 'first-entries', count: 100 } });
    expect(first.entries).toBe(100);
    expect(first.sample).toMatchObject({ sample: { kind: 'first-entries', count: 100 }, limited: true });
    expect(first.protobuf?.values).toBe(100);
    const firstPage = await inspector.listEntries({ operatorId, state: 'events', offset: 95, limit: 50, sample: { kind: 'first-entries', count: 100 } });
    expect(firstPage.total).toBe(100);
    expect(firstPage.rows.map((r) => r.index)).toEqual([95, 96, 97, 98, 99]);
  });
});

const FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint');
const SCHEMA = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');

requireCommitted(path.join(FIXTURE, '_metadata'));

describe('LocalInspector over the fixture with unknown fields (flink-1.20/hashmap/canonical)', () => {
  const open = async () => {
    const counters = { state: { bytes: 0 }, metadata: { bytes: 0 } };
    const inspector = new LocalInspector();
    await inspector.open({
      kind: 'files',
      files: [...folderFiles(FIXTURE, 'sp', counters), { path: 'events-changed.binpb', blob: new Blob([readFileSync(SCHEMA)]) }],
    });
    return { inspector, counters };
  };

  it("unknown-field statistics per (message, number, wire type) agree with the CLI's structural counts", async () => {
    const { inspector } = await open();
    const cli = await cliStats(FIXTURE);
    const inspection = await inspector.getInspection();
    for (const op of inspection.operators) {
      for (const s of op.states) {
        const stats = await inspector.getStateStats({ operatorId: op.id, state: s.name });
        const expected = cli.states.find((c) => c.operatorId === op.id && c.state === s.name)!;
        expect(stats.entries, `${op.id}/${s.name}`).toBe(expected.entries);
        // the values table lists every subtask's copy of a broadcast state
        const page = await inspector.listEntries({ operatorId: op.id, state: s.name, offset: 0, limit: 1 });
        expect(page.total, `${op.id}/${s.name}`).toBe(stats.rows);
        if (s.scope === 'broadcast') expect(stats.rows, `${op.id}/${s.name}`).toBe(stats.entries * s.subtasks.length);
        else expect(stats.rows).toBe(stats.entries);
        // the chart per subtask draws every subtask's copy of a broadcast state: each copy holds the counted entries
        if (s.scope === 'broadcast') {
          expect(
            stats.bySubtask.map((b) => b.id),
            `${op.id}/${s.name}`,
          ).toEqual(s.subtasks);
          for (const b of stats.bySubtask) expect([b.entries, b.bytes], `${op.id}/${s.name} subtask ${b.id}`).toEqual([stats.entries, expected.valueBytes]);
        } else expect(sumBuckets(stats)).toBe(expected.valueBytes);
        // one StateStats type: the app's statistics carry the CLI's fields with the CLI's values
        expect({ operatorId: stats.operatorId, state: stats.state, scope: stats.scope, entries: stats.entries, valueBytes: stats.valueBytes }).toEqual({
          operatorId: expected.operatorId,
          state: expected.state,
          scope: expected.scope,
          entries: expected.entries,
          valueBytes: expected.valueBytes,
        });
        expect(stats.protobuf ? describeProtobufStateScan(stats.protobuf) : undefined).toEqual(expected.protobuf);
        if (stats.protobuf) expect(stats.protobufDetail!.unknownFields.reduce((n, u) => n + u.occurrences, 0)).toBe(stats.protobuf.unknownFields);
      }
    }
  });

  it("the header-only verdict equals the full check's verdicts, without its value warnings", async () => {
    const { inspector } = await open();
    const headers = await inspector.checkHeaders({ target: '0.x', newSettings: {} });
    const full = await inspector.check({ target: '0.x', newSettings: {} });
    expect(headers.verdict).toBe(full.verdict);
    expect(headers.states.map((s) => [s.operator, s.state, s.verdict])).toEqual(full.states.map((s) => [s.operator, s.state, s.verdict]));
    expect(headers.states.every((s) => s.warnings.length === 0 && s.valuesScanned === undefined)).toBe(true);
    expect(full.states.some((s) => s.warnings.some((w) => w.ruleId === 'UNKNOWN_NUMBER_BECOMES_FIELD'))).toBe(true);
  });
});
