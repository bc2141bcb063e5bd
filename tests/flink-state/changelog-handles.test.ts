/**
 * Changelog keyed handles (code 14) wrapping the keyed handles of a fixture savepoint: the materialized
 * part is an ordinary keyed handle, read as such; in-memory changes (code 9) recorded after it are replayed
 * on it; change files (code 10/13) are not opened: their states say so instead of vanishing.
 */
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { bytesSource, type SavepointFiles } from '../../src/core/io';
import {
  createSnapshotRegistry,
  inspectSavepoint,
  openSavepoint,
  readCheckpointMetadata,
  writeCheckpointMetadata,
  type OperatorState,
} from '../../src/core/flink';
import type { KeyedStateHandle } from '../../src/core/flink/metadata/metadata-types';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';
import { expectPagesMatchFullRead } from '../helpers/expect-pages-match-full-read';
import { ByteWriter } from '../../src/core/io';
import { CLS, map, simple, timer, valueState, writeStateMetaInfo, type StateSpec } from '../helpers/write-test-snapshots';

const HEAP_NATIVE = path.resolve(__dirname, '../../fixtures/savepoints/flink-1.20/hashmap/native/savepoint');
const OP = '6d821971c3bfd7ae2c972e89d7414f7c';

/** The fixture with every managed keyed handle wrapped into a changelog handle (materialized: the original; then `changes`). */
async function wrapInChangelog(changes: (range: { start: number; end: number }) => KeyedStateHandle[]): Promise<SavepointFiles> {
  const files = openFolderSavepoint(HEAP_NATIVE);
  const bytes = await files.metadata.read(0, files.metadata.size);
  const metadata = readCheckpointMetadata(bytes);
  const wrap = (op: OperatorState): OperatorState => ({
    ...op,
    subtasks: op.subtasks.map((s) => {
      const h = s.managedKeyedState;
      if (h === null) return s;
      const after = changes(h.range);
      return {
        ...s,
        managedKeyedState: {
          kind: 'changelog',
          code: 14,
          range: h.range,
          description: '',
          nested: [h, ...after],
          materializedCount: 1,
          materializationId: 1n,
          checkpointId: 2n,
          checkpointedSize: 0n,
          handleId: 'changelog',
        },
      };
    }),
  });
  const rewritten = writeCheckpointMetadata({
    version: metadata.version,
    checkpointId: metadata.checkpointId,
    operators: metadata.operators.map(wrap),
    trailer: bytes.subarray(metadata.properties!.trailerOffset!),
  });
  return { ...files, metadata: bytesSource('_metadata', rewritten) };
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

async function inspectKeyed(files: SavepointFiles) {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const inspection = await inspectSavepoint(await openSavepoint(files), registry, { countEntries: true });
  const op = inspection.operators.find((o) => o.id === OP)!;
  return { inspection, op, keyed: op.states.filter((s) => s.scope === 'keyed').map((s) => [s.name, s.status, s.entries, s.incomplete ?? null]) };
}

describe('changelog keyed handles (code 14)', () => {
  it('reads the materialized part (a heap key-groups handle) and marks its states incomplete while changes follow it', async () => {
    const changeFile = (range: { start: number; end: number }): KeyedStateHandle[] => [
      {
        kind: 'changelog',
        code: 13,
        range,
        description: '',
        nested: [],
        files: [{ offset: 0, handle: { kind: 'relative-file', relativePath: 'changes', size: 64 } }],
        stateSize: 64n,
        checkpointedSize: 64n,
        handleId: 'c',
        storageIdentifier: 'filesystem',
      },
    ];
    const { inspection, op, keyed } = await inspectKeyed(await wrapInChangelog(changeFile));
    expect(op.keyedFormat).toBe('changelog');
    const why = (subtask: number) => `changelog state backend: subtask ${subtask}'s 1 change file recorded after the materialized snapshot is not applied here`;
    expect(keyed).toEqual([
      ['event-history', 'ok', 5, why(0)],
      ['last-event', 'ok', 5, why(0)],
      ['events-by-name', 'ok', 24, why(0)],
      ['_timer_state/processing_user-timers', 'ok', 0, why(0)],
      ['_timer_state/event_user-timers', 'ok', 0, why(0)],
    ]);
    expect(inspection.errors).toEqual([]);
    // never silent: what was read is not the whole state
    expect(op.states.filter((s) => s.scope === 'keyed').map((s) => s.decoded)).toEqual(['partly', 'partly', 'partly', 'partly', 'partly']);
  });

  it('dump prints the materialized entries and warns that they are not the whole state', async () => {
    const files = await wrapInChangelog((range) => [
      {
        kind: 'changelog',
        code: 13,
        range,
        description: '',
        nested: [],
        files: [],
        stateSize: 0n,
        checkpointedSize: 0n,
        handleId: 'c',
        storageIdentifier: 'filesystem',
      },
    ]);
    // a change handle that lists no change file: nothing pending, no warning
    const dir = mkdtempSync(path.join(tmpdir(), 'spi-changelog-'));
    for (const name of readdirSync(HEAP_NATIVE)) if (name !== '_metadata') copyFileSync(path.join(HEAP_NATIVE, name), path.join(dir, name));
    writeFileSync(path.join(dir, '_metadata'), await files.metadata.read(0, files.metadata.size));
    const clean = await cli(['dump', dir, '--operator', OP, '--state', 'last-event', '--format', 'json']);
    expect([clean.code, clean.err, (JSON.parse(clean.out) as { entries: unknown[] }).entries.length]).toEqual([0, '', 5]);
    const pending = await wrapInChangelog((range) => [
      {
        kind: 'changelog',
        code: 13,
        range,
        description: '',
        nested: [],
        files: [{ offset: 0, handle: { kind: 'relative-file', relativePath: 'changes', size: 1 } }],
        stateSize: 1n,
        checkpointedSize: 1n,
        handleId: 'c',
        storageIdentifier: 'filesystem',
      },
    ]);
    writeFileSync(path.join(dir, '_metadata'), await pending.metadata.read(0, pending.metadata.size));
    const warned = await cli(['dump', dir, '--operator', OP, '--state', 'last-event', '--format', 'json']);
    expect([warned.code, (JSON.parse(warned.out) as { entries: unknown[] }).entries.length]).toEqual([0, 5]);
    expect(warned.err).toBe(
      "savepoint-inspector dump: warning: not the whole state: changelog state backend: subtask 0's 1 change file recorded after the materialized snapshot is not applied here\n" +
        "savepoint-inspector dump: warning: not the whole state: changelog state backend: subtask 1's 1 change file recorded after the materialized snapshot is not applied here\n",
    );
  });

  it('reads a changelog handle with nothing after its materialized part as fully as the part itself', async () => {
    const { inspection, op, keyed } = await inspectKeyed(await wrapInChangelog(() => []));
    expect(inspection.summary).toEqual({ states: 17, decodedFully: 17, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 });
    expect(op.keyedFormat).toBe('changelog');
    expect(keyed.map(([name, status, entries, incomplete]) => [name, status, entries, incomplete])).toEqual([
      ['event-history', 'ok', 5, null],
      ['last-event', 'ok', 5, null],
      ['events-by-name', 'ok', 24, null],
      ['_timer_state/processing_user-timers', 'ok', 0, null],
      ['_timer_state/event_user-timers', 'ok', 0, null],
    ]);
  });

  it('replays in-memory changes (code 9) on the materialized part: CLEAR, a map REMOVE_ELEMENT, a timer ADD_ELEMENT, a state only the changelog names', async () => {
    // META record (key group -1): operation 8, meta info v6, [TTL, default value flags], i16 id, u8 backend type
    const metaRecord = (spec: StateSpec, id: number, keyValue: boolean) => {
      const w = new ByteWriter().u8(8).i32(6);
      writeStateMetaInfo(w, spec);
      if (keyValue) w.bool(false).bool(false);
      return {
        keyGroup: -1,
        bytes: w
          .i16(id)
          .u8(keyValue ? 0 : 3)
          .finish(),
      };
    };
    const kgOf3 = 1; // key 3 lies in key group 1 of subtask 0 (max parallelism 16)
    const changes = (range: { start: number; end: number }): KeyedStateHandle[] =>
      range.start !== 0
        ? []
        : [
            {
              kind: 'changelog',
              code: 9,
              range,
              description: '',
              nested: [],
              fromSequence: 0n,
              toSequence: 6n,
              handleId: 'mem',
              changeBytes: [
                metaRecord(valueState('last-event', simple(CLS.int)), 0, true),
                metaRecord({ ...valueState('events-by-name', map(simple(CLS.string), simple(CLS.int))), options: { KEYED_STATE_TYPE: 'MAP' } }, 1, true),
                metaRecord(
                  {
                    name: '_timer_state/event_user-timers',
                    type: 3,
                    options: {},
                    serializers: [['VALUE_SERIALIZER', timer(simple(CLS.int), simple(CLS.voidNs))]],
                  },
                  2,
                  false,
                ),
                metaRecord(valueState('late-counter', simple(CLS.long)), 3, true),
                // CLEAR last-event of key 3
                { keyGroup: kgOf3, bytes: new ByteWriter().u8(0).i16(0).i32(3).u8(0).finish() },
                // REMOVE_ELEMENT "event-8" from events-by-name of key 3
                { keyGroup: kgOf3, bytes: new ByteWriter().u8(7).i16(1).i32(3).u8(0).stringValue('event-8').finish() },
                // ADD_ELEMENT of one event-time timer (timestamp 1000, sign bit flipped) for key 3
                {
                  keyGroup: kgOf3,
                  bytes: new ByteWriter()
                    .u8(5)
                    .i16(2)
                    .i32(1)
                    .i64(1000n ^ (1n << 63n))
                    .i32(3)
                    .u8(0)
                    .finish(),
                },
                // SET late-counter of key 3 to 42
                { keyGroup: kgOf3, bytes: new ByteWriter().u8(1).i16(3).i32(3).u8(0).i64(42).finish() },
                // a change of key group 9 lies outside subtask 0's range 0–7: not applied
                { keyGroup: 9, bytes: new ByteWriter().u8(1).i16(3).i32(3).u8(0).i64(7).finish() },
              ],
            },
          ];
    const files = await wrapInChangelog(changes);
    const { inspection, op, keyed } = await inspectKeyed(files);
    expect(inspection.errors).toEqual([]);
    expect(keyed).toEqual([
      ['event-history', 'ok', 5, null],
      ['last-event', 'ok', 4, null],
      ['events-by-name', 'ok', 23, null],
      ['_timer_state/processing_user-timers', 'ok', 0, null],
      ['_timer_state/event_user-timers', 'ok', 1, null],
      ['late-counter', 'ok', 1, null],
    ]);
    expect(op.states.filter((s) => s.scope === 'keyed').every((s) => s.decoded === 'fully')).toBe(true);
    // the entries: what the materialized part holds, with the changes applied
    const dir = mkdtempSync(path.join(tmpdir(), 'spi-changelog-'));
    for (const name of readdirSync(HEAP_NATIVE)) if (name !== '_metadata') copyFileSync(path.join(HEAP_NATIVE, name), path.join(dir, name));
    writeFileSync(path.join(dir, '_metadata'), await files.metadata.read(0, files.metadata.size));
    type Entry = {
      subtask: number;
      keyGroup: number;
      key: { value: number };
      userKey?: { value: string };
      value: { kind: string; value?: string; timestamp?: string };
    };
    const dump = async (state: string) => {
      const r = await cli(['dump', dir, '--operator', OP, '--state', state, '--format', 'json']);
      expect([r.code, r.err]).toEqual([0, '']);
      return (JSON.parse(r.out) as { entries: Entry[] }).entries;
    };
    expect((await dump('last-event')).map((e) => e.key.value)).not.toContain(3);
    const byName = await dump('events-by-name');
    expect(byName.filter((e) => e.key.value === 3).map((e) => e.userKey!.value)).not.toContain('event-8');
    expect(byName).toHaveLength(23);
    expect((await dump('_timer_state/event_user-timers')).map((e) => [e.subtask, e.keyGroup, e.key.value, e.value.timestamp])).toEqual([[0, 1, 3, '1000']]);
    expect((await dump('late-counter')).map((e) => [e.subtask, e.keyGroup, e.key.value, e.value.value])).toEqual([[0, 1, 3, '42']]);
    // the app's values table, read page by page (one key group at a time), gives the same entries
    expect(await expectPagesMatchFullRead(dir)).toBeGreaterThan(0);
  });
});
