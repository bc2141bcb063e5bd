/**
 * Table/SQL state of real savepoints written by Flink's own Table restore tests
 * (../shared/real-savepoints-defects/table-restore, from `flink-table-planner`'s restore-tests of
 * `stream-exec-group-aggregate_1`): RowDataSerializer keys and accumulators, ExternalSerializer sink
 * rows, MapView-backed distinct accumulators, decoded into typed columns through the one state scan.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { openNodeInput } from '../../src/cli/sources';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint } from '../../src/core/flink';
import { BUILTIN_SNAPSHOT_READERS } from '../../src/core/flink/snapshots/builtin-snapshot-readers';
import { TABLE_SNAPSHOT_READERS } from '../../src/core/flink/snapshots/table/table-snapshots';
import { NEEDS_SHARED_TAG } from '../helpers/shared-savepoints';

const TABLE = path.resolve(process.cwd(), '../shared/real-savepoints-defects/table-restore');
const NEEDS_TABLE = { tags: [NEEDS_SHARED_TAG], skip: !existsSync(TABLE) };
const SIMPLE = path.join(TABLE, 'group-aggregate-simple');
const DISTINCT = path.join(TABLE, 'group-aggregate-distinct');

const ROW_DATA = 'org.apache.flink.table.runtime.typeutils.RowDataSerializer$RowDataSerializerSnapshot';
const EXTERNAL = 'org.apache.flink.table.runtime.typeutils.ExternalSerializer$ExternalSerializerSnapshot';
const MAP = 'org.apache.flink.api.common.typeutils.base.MapSerializerSnapshot';

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

type Value = { kind: string; value?: unknown; rowKind?: string; fields?: { name: string; type: string; value: Value }[] };
type Entry = { keyGroup: number; key?: Value; userKey?: Value; value: Value };

/** A row as [rowKind, 'name TYPE=value', …]; scalars as their value (null for SQL NULL). */
function show(v: Value | undefined): unknown {
  if (v === undefined) return undefined;
  if (v.kind === 'row') return [v.rowKind, ...v.fields!.map((f) => `${f.name} ${f.type}=${JSON.stringify(show(f.value))}`)];
  if (v.kind === 'null') return null;
  return v.value;
}

async function dump(sp: string, operator: string, state: string): Promise<Entry[]> {
  const r = await cli(['dump', sp, '--operator', operator, '--state', state, '--format', 'json']);
  expect([r.code, r.err]).toEqual([0, '']);
  return (JSON.parse(r.out) as { entries: Entry[] }).entries;
}

type State = {
  name: string;
  kind: string;
  status: string;
  keySerializer: string | null;
  keyType: string | null;
  valueSerializer: string | null;
  valueType: string | null;
  entries: number | null;
  decoded: string;
};
async function inspect(sp: string): Promise<{ summary: unknown; errors: unknown[]; warnings: unknown[]; operators: { id: string; states: State[] }[] }> {
  const r = await cli(['inspect', sp, '--format', 'json', '--strict']);
  // --strict: exit 0 only when every state is decoded fully
  expect([r.code, r.err]).toEqual([0, '']);
  return JSON.parse(r.out) as never;
}

describe('Table/SQL state of real savepoints', NEEDS_TABLE, () => {
  it('group-aggregate-simple: RowData keys and accumulators, the sink rows of ExternalSerializer, all decoded fully', async () => {
    const doc = await inspect(SIMPLE);
    expect([doc.summary, doc.errors, doc.warnings]).toEqual([
      { states: 5, decodedFully: 5, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 },
      [],
      [],
    ]);
    const agg = doc.operators.find((o) => o.id === '23eaad2bb152dd975bbc63554c2ca61f')!;
    expect(agg.states.map((s) => [s.name, s.status, s.keySerializer, s.keyType, s.valueSerializer, s.valueType, s.entries, s.decoded])).toEqual([
      [
        '_timer_state/event_user-timers',
        'ok',
        ROW_DATA,
        'Row<f0 BIGINT>',
        'org.apache.flink.streaming.api.operators.TimerSerializerSnapshot',
        'Timer<Row<f0 BIGINT>, VoidNamespace>',
        0,
        'fully',
      ],
      [
        '_timer_state/processing_user-timers',
        'ok',
        ROW_DATA,
        'Row<f0 BIGINT>',
        'org.apache.flink.streaming.api.operators.TimerSerializerSnapshot',
        'Timer<Row<f0 BIGINT>, VoidNamespace>',
        0,
        'fully',
      ],
      ['accState', 'ok', ROW_DATA, 'Row<f0 BIGINT>', ROW_DATA, 'Row<f0 BIGINT, f1 BIGINT, f2 BIGINT, f3 VARCHAR(2147483647)>', 2, 'fully'],
    ]);
    // SELECT b, COUNT(*) cnt, AVG(a) FILTER (WHERE a > 1) avg_a, MIN(c) min_c … GROUP BY b: per group key b
    // the accumulators count, the filtered average's sum and count, the minimum
    expect((await dump(SIMPLE, '23eaad2bb152dd975bbc63554c2ca61f', 'accState')).map((e) => [e.keyGroup, show(e.key), show(e.value)])).toEqual([
      [93, ['+I', 'f0 BIGINT="2"'], ['+I', 'f0 BIGINT="2"', 'f1 BIGINT="4"', 'f2 BIGINT="2"', 'f3 VARCHAR(2147483647)="Hello"']],
      [94, ['+I', 'f0 BIGINT="1"'], ['+I', 'f0 BIGINT="1"', 'f1 BIGINT="0"', 'f2 BIGINT="0"', 'f3 VARCHAR(2147483647)="Hi"']],
    ]);
    // the sink's collected changelog, with the column names of the sink's DataType and a NULL average
    const sink = doc.operators.find((o) => o.id === '271cb45db5f81667865cd63a43794900')!.states[0]!;
    expect([sink.name, sink.valueSerializer, sink.valueType, sink.entries, sink.decoded]).toEqual([
      'sink-results',
      EXTERNAL,
      'External ROW<b BIGINT NOT NULL, cnt BIGINT, avg_a DOUBLE, min_c VARCHAR(2147483647)> NOT NULL',
      3,
      'fully',
    ]);
    expect((await dump(SIMPLE, '271cb45db5f81667865cd63a43794900', 'sink-results')).map((e) => show(e.value))).toEqual([
      ['+I', 'b BIGINT NOT NULL="1"', 'cnt BIGINT="1"', 'avg_a DOUBLE=null', 'min_c VARCHAR(2147483647)="Hi"'],
      ['+I', 'b BIGINT NOT NULL="2"', 'cnt BIGINT="1"', 'avg_a DOUBLE=2', 'min_c VARCHAR(2147483647)="Hello"'],
      ['+U', 'b BIGINT NOT NULL="2"', 'cnt BIGINT="2"', 'avg_a DOUBLE=2', 'min_c VARCHAR(2147483647)="Hello"'],
    ]);
    // the text dump shows the same typed columns
    const text = await cli(['dump', SIMPLE, '--operator', '23eaad2bb152dd975bbc63554c2ca61f', '--state', 'accState']);
    expect(text.out).toContain(
      'key +I(f0 BIGINT=2)  namespace VoidNamespace\n  value: +I(f0 BIGINT=2, f1 BIGINT=4, f2 BIGINT=2, f3 VARCHAR(2147483647)="Hello")',
    );
  });

  it('group-aggregate-distinct: accumulators with MapView (RAW) fields, the distinct MapStates of ExternalSerializer keys, all decoded fully', async () => {
    const doc = await inspect(DISTINCT);
    expect([doc.summary, doc.errors, doc.warnings]).toEqual([
      { states: 11, decodedFully: 11, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 },
      [],
      [],
    ]);
    const agg = doc.operators.find((o) => o.id === 'fd970eaa00fa5e59244acc8d122a40ff')!;
    const byName = new Map(agg.states.map((s) => [s.name, s]));
    expect(
      ['distinctAcc_0', 'distinctAcc_1', 'distinctAcc_2', 'distinctAcc_0_null_state', 'accState'].map((n) => [
        n,
        byName.get(n)!.valueSerializer,
        byName.get(n)!.valueType,
        byName.get(n)!.entries,
      ]),
    ).toEqual([
      ['distinctAcc_0', MAP, 'Map<External INT, External BIGINT NOT NULL>', 10],
      ['distinctAcc_1', MAP, 'Map<External BIGINT, External BIGINT NOT NULL>', 15],
      ['distinctAcc_2', MAP, 'Map<External VARCHAR(2147483647), External BIGINT NOT NULL>', 15],
      ['distinctAcc_0_null_state', EXTERNAL, 'External BIGINT NOT NULL', 0],
      [
        'accState',
        ROW_DATA,
        'Row<f0 BIGINT, f1 BIGINT, f2 INT, f3 BIGINT, f4 BIGINT, f5 BIGINT, f6 BIGINT, f7 RAW(org.apache.flink.table.api.dataview.MapView), f8 RAW(org.apache.flink.table.api.dataview.MapView), f9 RAW(org.apache.flink.table.api.dataview.MapView)>',
        3,
      ],
    ]);
    // the MapView fields are state-backed: their RAW bytes are NullSerializer's one byte, read as NULL
    const acc = await dump(DISTINCT, 'fd970eaa00fa5e59244acc8d122a40ff', 'accState');
    expect(
      acc.map((e) => [
        e.keyGroup,
        show(e.key),
        (show(e.value) as string[]).slice(0, 8),
        (show(e.value) as string[]).slice(8).every((f) => f.endsWith('=null')),
      ]),
    ).toEqual([
      [
        93,
        ['+I', 'f0 BIGINT="2"'],
        ['+I', 'f0 BIGINT="1"', 'f1 BIGINT="4"', 'f2 INT=14', 'f3 BIGINT="57"', 'f4 BIGINT="57"', 'f5 BIGINT="7"', 'f6 BIGINT="7"'],
        true,
      ],
      [
        94,
        ['+I', 'f0 BIGINT="1"'],
        ['+I', 'f0 BIGINT="1"', 'f1 BIGINT="4"', 'f2 INT=12', 'f3 BIGINT="32"', 'f4 BIGINT="32"', 'f5 BIGINT="5"', 'f6 BIGINT="5"'],
        true,
      ],
      [
        112,
        ['+I', 'f0 BIGINT="3"'],
        ['+I', 'f0 BIGINT="1"', 'f1 BIGINT="2"', 'f2 INT=8', 'f3 BIGINT="31"', 'f4 BIGINT="31"', 'f5 BIGINT="3"', 'f6 BIGINT="3"'],
        true,
      ],
    ]);
    // COUNT(DISTINCT c) per group: the distinct strings of group 2 map to their count
    const strings = await dump(DISTINCT, 'fd970eaa00fa5e59244acc8d122a40ff', 'distinctAcc_2');
    expect(strings.length).toBe(15);
    expect(strings.filter((e) => e.keyGroup === 93).map((e) => [show(e.key), e.userKey?.value, show(e.value)])).toContainEqual([
      ['+I', 'f0 BIGINT="2"'],
      'Hello World Its nice',
      '1',
    ]);
    expect(new Set(strings.map((e) => show(e.value)))).toEqual(new Set(['1']));
    const ints = await dump(DISTINCT, 'fd970eaa00fa5e59244acc8d122a40ff', 'distinctAcc_0');
    expect(ints.map((e) => e.userKey?.kind)).toEqual(Array(10).fill('int'));
    // the sink's 15 changelog rows end with group 3's last update
    const sink = await dump(DISTINCT, '12f8fb02701e61b49edd11255bf1b6ac', 'sink-results');
    expect(sink.length).toBe(15);
    expect(show(sink[14]!.value)).toEqual([
      '+U',
      'e BIGINT NOT NULL="3"',
      'cnt_a1 BIGINT="1"',
      'cnt_a2 BIGINT="2"',
      'sum_a BIGINT="8"',
      'sum_b BIGINT="31"',
      'avg_b DOUBLE=10',
      'cnt_d BIGINT="3"',
    ]);
  });

  it('export gives Table rows as their columns, with the change kind, in JSON Lines', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'table-export-'));
    try {
      const rows = async (operator: string, state: string) => {
        const out = path.join(dir, `${state}.jsonl`);
        let stderr = '';
        const code = await runCli(['export', SIMPLE, '--operator', operator, '--state', state, '--format', 'jsonl', '--output', out, '--quiet'], {
          stdout: () => undefined,
          stderr: (t) => (stderr += t),
        });
        expect([code, stderr]).toEqual([0, '']);
        return readFileSync(out, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { key?: unknown; value: unknown });
      };
      expect((await rows('23eaad2bb152dd975bbc63554c2ca61f', 'accState')).map((r) => [r.key, r.value])).toEqual([
        [
          { rowKind: '+I', f0: '2' },
          { rowKind: '+I', f0: '2', f1: '4', f2: '2', f3: 'Hello' },
        ],
        [
          { rowKind: '+I', f0: '1' },
          { rowKind: '+I', f0: '1', f1: '0', f2: '0', f3: 'Hi' },
        ],
      ]);
      // the sink's ExternalSerializer rows carry their column names; SQL NULL is null
      expect((await rows('271cb45db5f81667865cd63a43794900', 'sink-results')).map((r) => r.value)).toEqual([
        { rowKind: '+I', b: '1', cnt: '1', avg_a: null, min_c: 'Hi' },
        { rowKind: '+I', b: '2', cnt: '1', avg_a: 2, min_c: 'Hello' },
        { rowKind: '+U', b: '2', cnt: '2', avg_a: 2, min_c: 'Hello' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stats counts the same entries, value bytes and inline state bytes read with 1 and 2 workers', async () => {
    const counts = async (workers: string) => {
      const r = await cli(['stats', DISTINCT, '--workers', workers, '--format', 'json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.out) as { bytesRead: number; states: { operatorId: string; state: string; entries: number; valueBytes: number }[] };
      return {
        bytesRead: doc.bytesRead,
        states: doc.states.map((s) => `${s.operatorId} ${s.state} ${s.entries} ${s.valueBytes}`).sort(),
        valueBytes: doc.states.reduce((n, s) => n + s.valueBytes, 0),
      };
    };
    const one = await counts('1');
    expect(one.states).toContain('fd970eaa00fa5e59244acc8d122a40ff accState 3 348');
    expect(one.states).toContain('12f8fb02701e61b49edd11255bf1b6ac sink-results 15 1020');
    expect(await counts('2')).toEqual(one);
    // all state is inline in _metadata (handle code 1): what the scan read of it is counted, at most the
    // 25,090 bytes of the inline state handles (18,858 + 5,986 + 246) and more than the values alone
    expect(one.bytesRead).toBeGreaterThan(one.valueBytes);
    expect(one.bytesRead).toBeLessThanOrEqual(25_090);
  });

  it('a value its known serializer cannot decode makes the state partly decoded, with the reason and offset (inspect --strict exits 1)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'table-state-'));
    try {
      const bytes = readFileSync(path.join(SIMPLE, '_metadata'));
      // the first accState value: i32 size at 10065, then the binary row, whose first byte is the RowKind
      expect([bytes.readInt32BE(10065), bytes[10069]]).toEqual([40, 0]);
      bytes[10069] = 9;
      writeFileSync(path.join(dir, '_metadata'), bytes);
      const r = await cli(['inspect', dir, '--format', 'json']);
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.out) as { summary: unknown; operators: { id: string; states: (State & { decodedReason: string | null })[] }[] };
      expect(doc.summary).toEqual({ states: 5, decodedFully: 4, partlyDecoded: 1, notRead: 0, notScanned: 0, streamsNotRead: 0 });
      const acc = doc.operators.find((o) => o.id === '23eaad2bb152dd975bbc63554c2ca61f')!.states.find((s) => s.name === 'accState')!;
      expect([acc.entries, acc.decoded, acc.decodedReason]).toEqual([
        2,
        'partly',
        `subtask 0: 1 entry read whose values could not be decoded (the first: value could not be decoded as Row<f0 BIGINT, f1 BIGINT, f2 BIGINT, f3 VARCHAR(2147483647)>: expected a RowKind byte 0–3 at the start of a binary row, found 9 — at ${path.basename(dir)}/_metadata, offset 10069 (0x2755))`,
      ]);
      expect((await cli(['inspect', dir, '--strict'])).code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without the Table readers, every state of the keyed header is still listed, as unknown with the serializer class', async () => {
    const registry = createSnapshotRegistry({ builtins: false });
    for (const reader of BUILTIN_SNAPSHOT_READERS) if (!TABLE_SNAPSHOT_READERS.includes(reader)) registry.register(reader);
    const inspection = await inspectSavepoint(await openSavepoint(await openNodeInput(SIMPLE)), registry, { countEntries: true });
    const agg = inspection.operators.find((o) => o.id === '23eaad2bb152dd975bbc63554c2ca61f')!;
    expect(agg.states.map((s) => [s.name, s.status, s.statusReason, s.entries, s.decoded]).sort()).toEqual([
      ['_timer_state/event_user-timers', 'unknown', `unknown serializer snapshot ${ROW_DATA} v3`, 0, 'fully'],
      ['_timer_state/processing_user-timers', 'unknown', `unknown serializer snapshot ${ROW_DATA} v3`, 0, 'fully'],
      ['accState', 'unknown', `unknown serializer snapshot ${ROW_DATA} v3`, 2, 'partly'],
    ]);
  });
});
