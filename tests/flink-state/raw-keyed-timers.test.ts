/**
 * Timers in raw keyed state (Flink 1.8–1.9 with RocksDB and heap timers; read-raw-keyed-timers.ts) through the
 * inspection and the scan, on the real Flink 1.8.3 RocksDB savepoint of fixtures/legacy-savepoints with its last
 * key group of subtask 0 (key group 7, the end of its raw keyed stream) rewritten by the test writer to hold
 * pending timers: they are listed, counted, dumped with their key groups, keys and timestamps; a corrupt key
 * group is a located error, and only the timer states are marked then.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ByteWriter, bytesSource, type InputFile } from '../../src/core/io';
import { locateSavepoint } from '../../src/core/io/locate-savepoint';
import { computeOperatorId, createSnapshotRegistry, inspectSavepoint, openSavepoint } from '../../src/core/flink';
import { requireCommitted } from '../helpers/committed-data';
import { readStateEntries } from '../helpers/read-state-entries';
import { CLS } from '../helpers/write-test-snapshots';

const DIR = join(process.cwd(), 'fixtures', 'legacy-savepoints', 'flink-1.8', 'rocksdb', 'savepoint');
/** subtask 0's raw keyed state: key groups 0–7, 209 bytes each (offsets 0, 209, … 1463) */
const RAW_SUBTASK_0 = '645688a6-a69f-41f3-aba5-08c76132aaea';
const KEY_GROUP_7 = 1463;
const registry = createSnapshotRegistry();
const OPERATOR = computeOperatorId('legacy-keyed');

/** Key group 7 as Flink 1.8 writes it: the proxy (magic, version 2), service `user-timers`, Integer keys, VoidNamespace. */
function keyGroup7(event: [number, bigint][], processing: [number, bigint][]): Uint8Array {
  const w = new ByteWriter().bytes([0xf1, 0xcd, 0x85, 0x9f]).i32(2).i32(1).utf('user-timers').utf(CLS.int).i32(3).utf(CLS.voidNs).i32(3);
  for (const timers of [event, processing]) {
    w.i32(timers.length);
    for (const [key, ts] of timers) w.i32(key).u8(0).i64(ts);
  }
  return w.finish();
}

function savepointWith(lastKeyGroup: Uint8Array) {
  requireCommitted(DIR);
  const files: InputFile[] = readdirSync(DIR).map((name) => {
    let bytes = new Uint8Array(readFileSync(join(DIR, name)));
    if (name === RAW_SUBTASK_0) bytes = new Uint8Array([...bytes.subarray(0, KEY_GROUP_7), ...lastKeyGroup]);
    return { path: name, source: bytesSource(name, bytes) };
  });
  return locateSavepoint('savepoint', files);
}

describe('timers in raw keyed state (Flink 1.8 RocksDB savepoint, key group 7 with pending timers)', () => {
  it('the real key group 7 is the one the writer rebuilds (one service, no timers)', () => {
    requireCommitted(DIR);
    expect(new Uint8Array(readFileSync(join(DIR, RAW_SUBTASK_0))).subarray(KEY_GROUP_7)).toEqual(keyGroup7([], []));
  });

  it('inspect lists and counts them; dump gives each timer with its key group, key and timestamp', async () => {
    const files = savepointWith(
      keyGroup7(
        [
          [4, 19_000n],
          [4, 25_000n],
        ],
        [[4, 1_700_000_000_000n]],
      ),
    );
    const inspection = await inspectSavepoint(await openSavepoint(files), registry, { countEntries: true });
    const states = inspection.operators[0]!.states.filter((s) => s.name.startsWith('_timer_state/'));
    expect(states.map((s) => [s.name, s.entries, s.decoded])).toEqual([
      ['_timer_state/event_user-timers', 2, 'fully'],
      ['_timer_state/processing_user-timers', 1, 'fully'],
    ]);
    expect(inspection.summary).toMatchObject({ states: 9, decodedFully: 9, streamsNotRead: 0 });
    const entries = [];
    for await (const e of readStateEntries(files, registry, {
      operatorId: OPERATOR,
      state: ['_timer_state/event_user-timers', '_timer_state/processing_user-timers'],
    }))
      entries.push([e.state, e.subtask, e.keyGroup, e.key, e.value]);
    const timer = (timestamp: string) => ({ kind: 'timer', timestamp, key: { kind: 'int', type: 'Int', value: 4 }, namespace: { kind: 'void-namespace' } });
    expect(entries).toEqual([
      ['_timer_state/event_user-timers', 0, 7, { kind: 'int', type: 'Int', value: 4 }, timer('19000')],
      ['_timer_state/event_user-timers', 0, 7, { kind: 'int', type: 'Int', value: 4 }, timer('25000')],
      ['_timer_state/processing_user-timers', 0, 7, { kind: 'int', type: 'Int', value: 4 }, timer('1700000000000')],
    ]);
  });

  it('a key-group sample reads only its key groups of the raw keyed state and counts every key group with data', async () => {
    const files = savepointWith(keyGroup7([[4, 19_000n]], []));
    const coverage = { keyGroupsRead: 0, keyGroupsWithData: 0 };
    const got = [];
    for await (const e of readStateEntries(files, registry, {
      operatorId: OPERATOR,
      state: '_timer_state/event_user-timers',
      sample: { kind: 'key-groups', every: 7 },
      coverage,
    }))
      got.push([e.keyGroup, e.value]);
    // key groups 0, 7 and 14 of the 16 (two subtasks of 8) are read; only 7 holds a timer
    expect(got.map(([kg]) => kg)).toEqual([7]);
    expect(coverage).toEqual({ keyGroupsRead: 3, keyGroupsWithData: 16 });
  });

  it('a truncated key group is a located error: the timer states are not read (no timer before the error), the managed states are not touched', async () => {
    const whole = keyGroup7([[4, 19_000n]], []);
    const inspection = await inspectSavepoint(await openSavepoint(savepointWith(whole.subarray(0, whole.length - 6))), registry, { countEntries: true });
    expect(inspection.errors.map((e) => [e.code, e.offset, e.detail])).toEqual([
      ['truncated', KEY_GROUP_7 + whole.length - 12, 'expected 8 bytes for event-time timer timestamp, found 6'],
    ]);
    const states = inspection.operators[0]!.states;
    expect(states.filter((s) => s.decoded !== 'fully').map((s) => [s.name, s.decoded])).toEqual([
      ['_timer_state/event_user-timers', 'not-read'],
      ['_timer_state/processing_user-timers', 'not-read'],
    ]);
  });

  it('raw keyed state that the timer service did not write is named, and the managed states stay fully decoded', async () => {
    requireCommitted(DIR);
    // subtask 0's first key group replaced by bytes of another writer
    const other = readdirSync(DIR).map((name) => {
      let bytes = new Uint8Array(readFileSync(join(DIR, name)));
      if (name === RAW_SUBTASK_0) bytes = new Uint8Array([0, 0, 0, 42, ...bytes.subarray(4)]);
      return { path: name, source: bytesSource(name, bytes) };
    });
    const inspection = await inspectSavepoint(await openSavepoint(locateSavepoint('savepoint', other)), registry, { countEntries: true });
    const op = inspection.operators[0]!;
    expect(op.streamsNotRead).toEqual([
      {
        subtask: 0,
        scope: 'keyed',
        reason:
          "raw keyed state (timers): expected a timer service snapshot (magic bytes F1 CD 85 9F) at the start of the key group's raw keyed state, found 00 00 00 2A: raw keyed state that Flink's timer service did not write is not read here — at 645688a6-a69f-41f3-aba5-08c76132aaea, offset 0 (0x0) [operator 8dc068c2ac48e55df4b1e37cb74becbd / subtask 0 / raw keyed state / key group 0]",
      },
    ]);
    expect(op.states.filter((s) => s.decoded !== 'fully').map((s) => s.name)).toEqual([]);
  });
});
