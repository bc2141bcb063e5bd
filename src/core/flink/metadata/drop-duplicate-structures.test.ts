import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from '../../io';
import { dropDuplicateStructures } from './drop-duplicate-structures';
import { readCheckpointMetadata } from './read-checkpoint-metadata';
import { writeCheckpointMetadata } from './write-checkpoint-metadata';
import type { KeyedStateHandle, OperatorState, OperatorStateHandle } from './metadata-types';
import { readOperatorStateHandle } from './read-operator-state-handle';

const keyed = (file: string, offsets: number[]): KeyedStateHandle => ({
  kind: 'key-groups',
  code: 7,
  range: { start: 0, end: offsets.length - 1 },
  offsets,
  delegate: { kind: 'relative-file', relativePath: file, size: 1000 },
});
const operatorHandle = (file: string, offsets: number[]): OperatorStateHandle => ({
  kind: 'operator',
  code: 4,
  states: [{ name: 'list', mode: 'SPLIT_DISTRIBUTE', offsets }],
  delegate: { kind: 'relative-file', relativePath: file, size: 1000 },
});
const subtask = (index: number, k: KeyedStateHandle | null, o: OperatorStateHandle | null) => ({
  index,
  finished: false,
  managedOperatorState: o,
  rawOperatorState: null,
  managedKeyedState: k,
  rawKeyedState: null,
  inputChannelStateCount: 0,
  resultSubpartitionStateCount: 0,
});
const operator = (id: string, subtasks: ReturnType<typeof subtask>[]): OperatorState => ({
  id,
  parallelism: 2,
  maxParallelism: 4,
  coordinatorState: null,
  fullyFinished: false,
  subtasks,
});
const read = (operators: OperatorState[]) =>
  dropDuplicateStructures(readCheckpointMetadata(writeCheckpointMetadata({ version: 3, checkpointId: 1n, operators })));

describe('dropDuplicateStructures', () => {
  it('an operator id listed twice: the last one stands, with a warning', () => {
    const a = operator('0'.repeat(32), [subtask(0, keyed('a', [10, 20]), null)]);
    const b = operator('0'.repeat(32), [subtask(1, keyed('b', [10, 20]), null)]);
    const m = read([a, operator('1'.repeat(32), []), b]);
    expect(m.operators.map((o) => [o.id[0], o.subtasks[0]?.index])).toEqual([
      ['1', undefined],
      ['0', 1],
    ]);
    expect(m.warnings).toEqual([`operator ${'0'.repeat(32)} is listed 2 times in _metadata; only the last is read, as Flink reads it`]);
  });

  it('a keyed or operator state handle reading the same bytes as another subtask is read once; different files or offsets, and handles that read nothing, are kept', () => {
    const m = read([
      operator('2'.repeat(32), [subtask(0, keyed('a', [10, 20]), operatorHandle('x', [5])), subtask(1, keyed('a', [10, 20]), operatorHandle('x', [5]))]),
    ]);
    expect(m.operators[0]!.subtasks.map((s) => [s.managedKeyedState !== null, s.managedOperatorState !== null])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(m.warnings).toEqual([
      `operator ${'2'.repeat(32)}: the subtask 1 managed keyed state handle repeats the subtask 0 managed keyed state handle (the same bytes); it is read once`,
      `operator ${'2'.repeat(32)}: the subtask 1 managed operator state handle repeats the subtask 0 managed operator state handle (the same bytes); it is read once`,
    ]);
    const distinct = read([
      operator('3'.repeat(32), [subtask(0, keyed('a', [10, 20]), operatorHandle('x', [5])), subtask(1, keyed('b', [10, 20]), operatorHandle('x', [6]))]),
    ]);
    expect(distinct.warnings).toBeUndefined();
    const empty = read([
      operator('5'.repeat(32), [subtask(0, keyed('a', [0, 0]), operatorHandle('x', [])), subtask(1, keyed('a', [0, 0]), operatorHandle('x', []))]),
    ]);
    expect(empty.warnings).toBeUndefined();
  });

  it('a state listed twice in one operator state handle keeps its last list (Flink reads a map); the kept lists may not share an offset', () => {
    const w = new ByteWriter().u8(4).i32(3);
    w.utf('list').u8(0).i32(2).i64(100).i64(110);
    w.utf('other').u8(1).i32(1).i64(120);
    w.utf('list').u8(0).i32(1).i64(130);
    w.u8(6).utf('f').i64(200);
    // read as written; the earlier list's offsets are not held against the last one (Flink never reads it)
    const h = readOperatorStateHandle(new ByteReader(w.finish(), { file: '_metadata' }))!;
    expect(h.states.map((s) => [s.name, s.offsets])).toEqual([
      ['list', [100, 110]],
      ['other', [120]],
      ['list', [130]],
    ]);
    const again = new ByteWriter().u8(4).i32(2);
    again.utf('list').u8(0).i32(1).i64(100);
    again.utf('list').u8(0).i32(1).i64(100);
    again.u8(6).utf('f').i64(200);
    expect(readOperatorStateHandle(new ByteReader(again.finish(), { file: '_metadata' }))!.states).toHaveLength(2);
    const meta = read([
      operator('4'.repeat(32), [
        subtask(0, null, {
          ...operatorHandle('x', [1]),
          states: [
            { name: 'l', mode: 'UNION', offsets: [1] },
            { name: 'l', mode: 'UNION', offsets: [2] },
          ],
        }),
      ]),
    ]);
    expect(meta.operators[0]!.subtasks[0]!.managedOperatorState!.states).toEqual([{ name: 'l', mode: 'UNION', offsets: [2] }]);
    expect(meta.warnings).toEqual([
      `operator ${'4'.repeat(32)}, subtask 0, managed operator state: state "l" is listed more than once; only its last list is read, as Flink reads it`,
    ]);
  });
});
