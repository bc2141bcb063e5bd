/**
 * Real savepoints from Flink's own repository that exposed reader defects (../shared/real-savepoints-defects,
 * its README says what each showed): each fixed defect keeps a test here over the real bytes.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { NEEDS_SHARED_TAG } from '../helpers/shared-savepoints';

const DEFECTS = path.resolve(process.cwd(), '../shared/real-savepoints-defects');
const NEEDS_DEFECTS = { tags: [NEEDS_SHARED_TAG], skip: !existsSync(DEFECTS) };
const at = (relative: string) => path.join(DEFECTS, relative);

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

describe('real savepoints that exposed reader defects', NEEDS_DEFECTS, () => {
  it('state-processor-api/table-state-nulls: a null CheckpointProperties (metadata V5, written by the State Processor API) reads as absent', async () => {
    const inspected = await cli(['inspect', at('state-processor-api/table-state-nulls'), '--format', 'json']);
    expect(inspected.err).toBe('');
    expect(inspected.code).toBe(0);
    const doc = JSON.parse(inspected.out) as {
      metadataVersion: number;
      type: string;
      format: string;
      operators: { uid: string | null; states: { name: string; entries: number | null }[] }[];
    };
    expect([doc.metadataVersion, doc.type, doc.format, doc.operators.length]).toEqual([5, 'unknown', 'unknown', 8]);
    const keyed = doc.operators.find((o) => o.uid === 'keyed-state-process-uid-null')!;
    expect(keyed.states.map((s) => [s.name, s.entries])).toEqual([['total', 5]]);
    // the values, nulls included, as the job wrote them (key i → PojoData{i, i}; keys 2 and 3 null fields)
    const dumped = await cli([
      'dump',
      at('state-processor-api/table-state-nulls'),
      '--operator',
      'keyed-state-process-uid-null',
      '--state',
      'total',
      '--format',
      'json',
    ]);
    expect(dumped.code).toBe(0);
    const entries = (
      JSON.parse(dumped.out) as {
        entries: { keyGroup: number; key: { value: string }; value: { fields: { name: string; value: { kind: string; value?: string } }[] } }[];
      }
    ).entries;
    expect(entries.map((e) => [e.keyGroup, e.key.value, e.value.fields.map((f) => (f.value.kind === 'null' ? null : f.value.value))])).toEqual([
      [7, '4', ['4', '4']],
      [86, '1', ['1', '1']],
      [113, '3', [null, null]],
      [126, '5', ['5', '5']],
      [127, '2', [null, null]],
    ]);
  });

  it('new-stateful-udf-migration-itcase-flink1.12-rocksdb-savepoint: code 3 keyed handles in the RocksDB full-snapshot layout are read in that layout', async () => {
    const sp = at('new-stateful-udf-migration-itcase-flink1.12-rocksdb-savepoint');
    const inspected = await cli(['inspect', sp, '--format', 'json']);
    expect([inspected.code, inspected.err]).toEqual([0, '']);
    const doc = JSON.parse(inspected.out) as {
      metadataVersion: number;
      errors: unknown[];
      summary: unknown;
      operators: { id: string; keyedFormat: string; states: { name: string; scope: string; entries: number | null; subtasks: number[] }[] }[];
    };
    expect([doc.metadataVersion, doc.errors]).toEqual([3, []]);
    expect(doc.summary).toEqual({ states: 10, decodedFully: 10, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 });
    expect((await cli(['inspect', sp, '--strict'])).out.endsWith('\n10 of 10 states decoded fully\n')).toBe(true);
    const keyed = doc.operators.filter((o) => o.keyedFormat !== 'none');
    expect(keyed.map((o) => [o.id, o.keyedFormat, o.states.map((s) => [s.name, s.entries, s.subtasks.join(',')])])).toEqual([
      ['d5c8b168c6cbfe8c507a10f88b325243', 'rocksdb-full', [['state-name', 4, '1,2,3']]],
      [
        '41e91aae0bee218c44306cf7d21940ad',
        'rocksdb-full',
        [
          ['_timer_state/event_timer', 4, '0,1,2,3'],
          ['_timer_state/processing_timer', 4, '0,1,2,3'],
          ['state-name', 4, '1,2,3'],
        ],
      ],
      ['dab25811652d3d4983a30c6e4afacb1c', 'rocksdb-full', [['state-name', 4, '1,2,3']]],
      [
        '4b818c7923a927796d24b727201ba34d',
        'rocksdb-full',
        [
          ['_timer_state/event_timer', 4, '0,1,2,3'],
          ['_timer_state/processing_timer', 4, '0,1,2,3'],
          ['state-name', 4, '1,2,3'],
        ],
      ],
    ]);
    type Dumped = {
      entries: {
        subtask: number;
        keyGroup: number;
        key: { fields: { value: string }[] };
        namespace: { kind: string; value?: string };
        value: { kind: string; value?: string; timestamp?: string };
      }[];
    };
    const dump = async (operator: string, state: string) => {
      const r = await cli(['dump', sp, '--operator', operator, '--state', state, '--format', 'json']);
      expect([r.code, r.err]).toEqual([0, '']);
      return (JSON.parse(r.out) as Dumped).entries.map((e) => [
        e.subtask,
        e.keyGroup,
        e.key.fields[0]!.value,
        e.namespace.value ?? e.namespace.kind,
        e.value.timestamp ?? e.value.value,
      ]);
    };
    // keys 0…3 (Tuple1<Long>) in key groups 2, 2, 3, 1 of max parallelism 4; each value equals its key
    expect(await dump('d5c8b168c6cbfe8c507a10f88b325243', 'state-name')).toEqual([
      [1, 1, '3', 'void-namespace', '3'],
      [2, 2, '0', 'void-namespace', '0'],
      [2, 2, '1', 'void-namespace', '1'],
      [3, 3, '2', 'void-namespace', '2'],
    ]);
    // the timely operator: a Long namespace equal to the key, one processing-time timer per key, and
    // event-time timers at the initial watermark + 10 (Long.MIN_VALUE + 10)
    expect(await dump('41e91aae0bee218c44306cf7d21940ad', 'state-name')).toEqual([
      [1, 1, '3', '3', '3'],
      [2, 2, '0', '0', '0'],
      [2, 2, '1', '1', '1'],
      [3, 3, '2', '2', '2'],
    ]);
    expect(await dump('41e91aae0bee218c44306cf7d21940ad', '_timer_state/processing_timer')).toEqual([
      [1, 1, '3', '3', '1613800469242'],
      [2, 2, '0', '0', '1613800469242'],
      [2, 2, '1', '1', '1613800469242'],
      [3, 3, '2', '2', '1613800469242'],
    ]);
    expect((await dump('4b818c7923a927796d24b727201ba34d', '_timer_state/event_timer')).map((e) => e[4])).toEqual([
      '-9223372036854775798',
      '-9223372036854775798',
      '-9223372036854775798',
      '-9223372036854775798',
    ]);
  });

  it('new-stateful-udf-migration-itcase-flink1.18-rocksdb-checkpoint: an incremental RocksDB checkpoint is read from its SST files, completely', async () => {
    const sp = at('new-stateful-udf-migration-itcase-flink1.18-rocksdb-checkpoint');
    const inspected = await cli(['inspect', sp, '--format', 'json']);
    expect([inspected.code, inspected.err]).toEqual([0, '']);
    const doc = JSON.parse(inspected.out) as {
      metadataVersion: number;
      type: string;
      errors: unknown[];
      summary: unknown;
      operators: { id: string; keyedFormat: string; states: { name: string; entries: number | null; subtasks: number[]; decoded: string }[] }[];
    };
    expect([doc.metadataVersion, doc.type, doc.errors]).toEqual([4, 'checkpoint', []]);
    expect(doc.summary).toEqual({ states: 10, decodedFully: 10, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 });
    expect((await cli(['inspect', sp, '--strict'])).out.endsWith('\n10 of 10 states decoded fully\n')).toBe(true);
    const keyed = doc.operators.filter((o) => o.keyedFormat !== 'none');
    expect(keyed.map((o) => [o.id, o.keyedFormat, o.states.map((s) => [s.name, s.entries, s.subtasks.join(','), s.decoded])])).toEqual([
      ['d5c8b168c6cbfe8c507a10f88b325243', 'rocksdb-native', [['state-name', 4, '1,2,3', 'fully']]],
      [
        '41e91aae0bee218c44306cf7d21940ad',
        'rocksdb-native',
        [
          ['_timer_state/event_timer', 4, '0,1,2,3', 'fully'],
          ['_timer_state/processing_timer', 4, '0,1,2,3', 'fully'],
          ['state-name', 4, '1,2,3', 'fully'],
        ],
      ],
      ['dab25811652d3d4983a30c6e4afacb1c', 'rocksdb-native', [['state-name', 4, '1,2,3', 'fully']]],
      [
        '4b818c7923a927796d24b727201ba34d',
        'rocksdb-native',
        [
          ['_timer_state/event_timer', 4, '0,1,2,3', 'fully'],
          ['_timer_state/processing_timer', 4, '0,1,2,3', 'fully'],
          ['state-name', 4, '1,2,3', 'fully'],
        ],
      ],
    ]);
    type Dumped = {
      entries: {
        subtask: number;
        keyGroup: number;
        key: { fields: { value: string }[] };
        namespace: { kind: string; value?: string };
        value: { kind: string; value?: string; timestamp?: string };
      }[];
    };
    const dump = async (operator: string, state: string) => {
      const r = await cli(['dump', sp, '--operator', operator, '--state', state, '--format', 'json']);
      expect([r.code, r.err]).toEqual([0, '']);
      return (JSON.parse(r.out) as Dumped).entries.map((e) => [
        e.subtask,
        e.keyGroup,
        e.key.fields[0]!.value,
        e.namespace.value ?? e.namespace.kind,
        e.value.timestamp ?? e.value.value,
      ]);
    };
    // the same job as the 1.12 savepoint above: keys 0…3 (Tuple1<Long>) in key groups 2, 2, 3, 1 of max parallelism 4, each value its key
    for (const op of ['d5c8b168c6cbfe8c507a10f88b325243', 'dab25811652d3d4983a30c6e4afacb1c']) {
      expect(await dump(op, 'state-name')).toEqual([
        [1, 1, '3', 'void-namespace', '3'],
        [2, 2, '0', 'void-namespace', '0'],
        [2, 2, '1', 'void-namespace', '1'],
        [3, 3, '2', 'void-namespace', '2'],
      ]);
    }
    for (const op of ['41e91aae0bee218c44306cf7d21940ad', '4b818c7923a927796d24b727201ba34d']) {
      expect(await dump(op, 'state-name')).toEqual([
        [1, 1, '3', '3', '3'],
        [2, 2, '0', '0', '0'],
        [2, 2, '1', '1', '1'],
        [3, 3, '2', '2', '2'],
      ]);
      // event-time timers at the initial watermark + 10, one processing-time timer per key (2023-11-14)
      expect((await dump(op, '_timer_state/event_timer')).map((e) => [e[2], e[4]])).toEqual([
        ['3', '-9223372036854775798'],
        ['0', '-9223372036854775798'],
        ['1', '-9223372036854775798'],
        ['2', '-9223372036854775798'],
      ]);
      const processing = await dump(op, '_timer_state/processing_timer');
      expect(processing.map((e) => [e[0], e[1], e[2], e[3]])).toEqual([
        [1, 1, '3', '3'],
        [2, 2, '0', '0'],
        [2, 2, '1', '1'],
        [3, 3, '2', '2'],
      ]);
      for (const e of processing) expect(new Date(Number(e[4])).toISOString().slice(0, 10)).toBe('2023-11-14');
    }
    // stats over worker threads read the same entries
    const stats = await cli(['stats', sp, '--format', 'json', '--workers', '2']);
    expect([stats.code, stats.err]).toEqual([0, '']);
    expect(stats.out).toContain('"state-name"');
  });

  it('table-restore/group-aggregate-simple: the RowDataSerializer key keeps every state of the keyed header, now decoded (table-state.golden.test.ts has the values and the path without the Table readers)', async () => {
    const sp = at('table-restore/group-aggregate-simple');
    const inspected = await cli(['inspect', sp, '--format', 'json']);
    expect([inspected.code, inspected.err]).toEqual([0, '']);
    type State = {
      name: string;
      kind: string;
      status: string;
      keySerializer: string | null;
      namespaceSerializer: string | null;
      valueSerializer: string | null;
      entries: number | null;
    };
    const doc = JSON.parse(inspected.out) as {
      errors: unknown[];
      summary: unknown;
      operators: { id: string; keyedFormat: string; states: (State & { decoded: string })[] }[];
    };
    expect(doc.errors).toEqual([]);
    expect(doc.summary).toEqual({ states: 5, decodedFully: 5, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 });
    const strict = await cli(['inspect', sp, '--strict']);
    expect(strict.code).toBe(0);
    expect(strict.out.endsWith('\n5 of 5 states decoded fully\n')).toBe(true);
    const agg = doc.operators.find((o) => o.id === '23eaad2bb152dd975bbc63554c2ca61f')!;
    const ROW = 'org.apache.flink.table.runtime.typeutils.RowDataSerializer$RowDataSerializerSnapshot';
    const VOID = 'org.apache.flink.runtime.state.VoidNamespaceSerializer$VoidNamespaceSerializerSnapshot';
    const TIMER = 'org.apache.flink.streaming.api.operators.TimerSerializerSnapshot';
    expect(agg.keyedFormat).toBe('canonical');
    expect(agg.states.map((s) => [s.name, s.kind, s.status, s.keySerializer, s.namespaceSerializer, s.valueSerializer, s.entries, s.decoded])).toEqual([
      ['_timer_state/event_user-timers', 'PRIORITY_QUEUE', 'ok', ROW, null, TIMER, 0, 'fully'],
      ['_timer_state/processing_user-timers', 'PRIORITY_QUEUE', 'ok', ROW, null, TIMER, 0, 'fully'],
      ['accState', 'VALUE', 'ok', ROW, VOID, ROW, 2, 'fully'],
    ]);
  });

  it('new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint: the changelog (code 14, no materialized snapshot) is replayed: the keyed states hold what the job wrote', async () => {
    const sp = at('new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint');
    const inspected = await cli(['inspect', sp, '--format', 'json']);
    expect([inspected.code, inspected.err]).toEqual([0, '']);
    type State = {
      name: string;
      scope: string;
      kind: string;
      status: string;
      keyType: string | null;
      namespaceType: string | null;
      valueType: string | null;
      subtasks: number[];
      entries: number | null;
      decoded: string;
      decodedReason?: string;
    };
    const doc = JSON.parse(inspected.out) as {
      type: string;
      errors: unknown[];
      summary: unknown;
      operators: { id: string; keyedFormat: string; states: State[] }[];
    };
    expect([doc.type, doc.errors]).toEqual(['checkpoint', []]);
    // the flat maps' keys stay bytes (nothing in their subtasks names the key serializer): partly decoded, said so
    expect(doc.summary).toEqual({ states: 10, decodedFully: 8, partlyDecoded: 2, notRead: 0, notScanned: 0, streamsNotRead: 0 });
    expect((await cli(['inspect', sp, '--strict', '--format', 'json'])).code).toBe(1);
    const summary = (id: string) => {
      const op = doc.operators.find((o) => o.id === id)!;
      return [
        op.keyedFormat,
        op.states.map((s) => [s.name, s.kind, s.status, s.keyType, s.namespaceType, s.valueType, s.subtasks.join(','), s.entries, s.decoded]),
      ];
    };
    const RAW_KEYS =
      'keys shown as their bytes: the changelog does not record the key serializer, and the subtask has no materialized snapshot or timer queue whose serializer names it';
    const valueState = ['changelog', [['state-name', 'VALUE', 'ok', null, 'VoidNamespace', 'Long', '1,2,3', 4, 'partly']]];
    expect(summary('d5c8b168c6cbfe8c507a10f88b325243')).toEqual(valueState);
    expect(summary('dab25811652d3d4983a30c6e4afacb1c')).toEqual(valueState);
    expect(doc.operators.find((o) => o.id === 'd5c8b168c6cbfe8c507a10f88b325243')!.states[0]!.decodedReason).toBe(RAW_KEYS);
    // the timely operators: the key serializer is the one their timer queues' TimerSerializer nests
    const timely = [
      'changelog',
      [
        ['_timer_state/event_timer', 'PRIORITY_QUEUE', 'ok', 'Tuple1<Long>', null, 'Timer<Tuple1<Long>, Long>', '1,2,3', 4, 'fully'],
        ['_timer_state/processing_timer', 'PRIORITY_QUEUE', 'ok', 'Tuple1<Long>', null, 'Timer<Tuple1<Long>, Long>', '1,2,3', 4, 'fully'],
        ['state-name', 'VALUE', 'ok', 'Tuple1<Long>', 'Long', 'Long', '1,2,3', 4, 'fully'],
      ],
    ];
    expect(summary('41e91aae0bee218c44306cf7d21940ad')).toEqual(timely);
    expect(summary('4b818c7923a927796d24b727201ba34d')).toEqual(timely);
    type Entry = {
      subtask: number;
      keyGroup: number;
      key: { kind: string; fields?: { value: string }[]; base64?: string };
      namespace: { kind: string; value?: string };
      value: { kind: string; value?: string; timestamp?: string };
    };
    const dump = async (op: string, state: string) => {
      const r = await cli(['dump', sp, '--operator', op, '--state', state, '--format', 'json']);
      expect(r.code).toBe(0);
      return [(JSON.parse(r.out) as { entries: Entry[] }).entries, r.err] as const;
    };
    // StatefulJobSnapshotMigrationITCase: key (k) → k for k = 0…3 (key groups 0,1 → 2; 2 → 3; 3 → 1), as in the 1.20 savepoints
    for (const op of ['d5c8b168c6cbfe8c507a10f88b325243', 'dab25811652d3d4983a30c6e4afacb1c']) {
      const [entries, err] = await dump(op, 'state-name');
      const keyOf = (b64: string) => Buffer.from(b64, 'base64').readBigInt64BE().toString();
      expect(entries.map((e) => [e.subtask, e.keyGroup, e.key.kind, keyOf(e.key.base64!), e.namespace.kind, e.value.value])).toEqual([
        [1, 1, 'opaque', '3', 'void-namespace', '3'],
        [2, 2, 'opaque', '0', 'void-namespace', '0'],
        [2, 2, 'opaque', '1', 'void-namespace', '1'],
        [3, 3, 'opaque', '2', 'void-namespace', '2'],
      ]);
      expect(err).toContain(`not the whole state: ${RAW_KEYS}`);
    }
    for (const op of ['41e91aae0bee218c44306cf7d21940ad', '4b818c7923a927796d24b727201ba34d']) {
      const [values] = await dump(op, 'state-name');
      expect(values.map((e) => [e.subtask, e.keyGroup, e.key.fields![0]!.value, e.namespace.value, e.value.value])).toEqual([
        [1, 1, '3', '3', '3'],
        [2, 2, '0', '0', '0'],
        [2, 2, '1', '1', '1'],
        [3, 3, '2', '2', '2'],
      ]);
      // one event-time timer per key at Long.MIN_VALUE + 10, one processing-time timer at the wall clock of the run
      const [event] = await dump(op, '_timer_state/event_timer');
      expect(event.map((e) => [e.keyGroup, e.key.fields![0]!.value, e.namespace.value, e.value.timestamp])).toEqual([
        [1, '3', '3', '-9223372036854775798'],
        [2, '0', '0', '-9223372036854775798'],
        [2, '1', '1', '-9223372036854775798'],
        [3, '2', '2', '-9223372036854775798'],
      ]);
      const [processing] = await dump(op, '_timer_state/processing_timer');
      expect(processing.map((e) => e.key.fields![0]!.value)).toEqual(['3', '0', '1', '2']);
      expect(
        processing.every((e) => e.value.kind === 'timer' && BigInt(e.value.timestamp!) > 1_681_000_000_000n && BigInt(e.value.timestamp!) < 1_682_000_000_000n),
      ).toBe(true);
    }
    // stats and check list the same states with their status
    const stats = await cli(['stats', sp, '--format', 'json']);
    expect(stats.code).toBe(0);
    expect(stats.out).toContain(RAW_KEYS);
    // the operator state next to them is read in full
    const source = await cli(['dump', sp, '--operator', '1f2b5df5a66154aca61fcb26193792be', '--state', 'source-state', '--format', 'json']);
    expect((JSON.parse(source.out) as { entries: { value: { value: string } }[] }).entries.map((e) => e.value.value)).toEqual([
      'Here be dragons!',
      'Here be more dragons!',
      'Here be yet more dragons!',
      'Here be the mostest dragons!',
    ]);
  });

  it('defect 6 on the real savepoints: dump of a state that does not exist exits 2 naming the states; stats lists every state of a RocksDB native checkpoint and of a replayed changelog, and counts the state bytes read', async () => {
    const rocks = at('new-stateful-udf-migration-itcase-flink1.12-rocksdb-savepoint');
    const missing = await cli(['dump', rocks, '--operator', '4b818c7923a927796d24b727201ba34d', '--state', 'nope']);
    expect([missing.code, missing.out]).toEqual([2, '']);
    expect(missing.err).toContain('found "nope" (its states: "_timer_state/event_timer", "_timer_state/processing_timer", "state-name")');
    type Stats = { bytesRead: number; states: { operatorId: string; state: string; entries: number; notRead?: string; partly?: string }[] };
    const stats = async (sp: string) => {
      const r = await cli(['stats', sp, '--format', 'json']);
      expect(r.code).toBe(0);
      return JSON.parse(r.out) as Stats;
    };
    // the SST files of the incremental checkpoint are read: 10 states, each with its 4 entries, none "not read"
    const native = await stats(at('new-stateful-udf-migration-itcase-flink1.18-rocksdb-checkpoint'));
    expect(native.states.map((s) => [s.state, s.entries, s.notRead ?? null]).sort()).toEqual(
      [
        ...['41e91aae0bee218c44306cf7d21940ad', '4b818c7923a927796d24b727201ba34d'].flatMap(() => [
          ['_timer_state/event_timer', 4, null],
          ['_timer_state/processing_timer', 4, null],
          ['state-name', 4, null],
        ]),
        ['source-state', 4, null],
        ['source-state', 4, null],
        ['state-name', 4, null],
        ['state-name', 4, null],
      ].sort(),
    );
    expect(native.bytesRead).toBeGreaterThan(0);
    // the changelog checkpoint: all of its state is inline in _metadata, and those bytes are counted as read
    const changelog = await stats(at('new-stateful-udf-migration-itcase-flink1.17-hashmap-checkpoint'));
    expect(changelog.states).toHaveLength(10);
    expect(
      changelog.states
        .filter((s) => s.partly !== undefined)
        .map((s) => s.operatorId)
        .sort(),
    ).toEqual(['d5c8b168c6cbfe8c507a10f88b325243', 'dab25811652d3d4983a30c6e4afacb1c']);
    expect(changelog.bytesRead).toBeGreaterThan(0);
  });
});
