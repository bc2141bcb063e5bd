import { describe, expect, it } from 'vitest';
import { decodeErrorOf } from '../../../../tests/helpers/decode-error-of';
import { ByteReader, ByteWriter } from '../../io';
import { readOperatorStateHandle } from './read-operator-state-handle';

function reader(w: ByteWriter): ByteReader {
  return new ByteReader(w.finish(), { file: '_metadata', baseOffset: 50 });
}

describe('readOperatorStateHandle', () => {
  it('code 4: entries with name, distribution mode and offsets, then the data handle', () => {
    const w = new ByteWriter().u8(4).i32(3);
    w.utf('_default_').u8(0).i32(1).i64(180);
    w.utf('source-state').u8(1).i32(2).i64(188).i64(205);
    w.utf('broadcast-state-1').u8(2).i32(1).i64(637);
    w.u8(6).utf('f').i64(700);
    const r = reader(w);
    expect(readOperatorStateHandle(r)).toEqual({
      kind: 'operator',
      code: 4,
      states: [
        { name: '_default_', mode: 'SPLIT_DISTRIBUTE', offsets: [180] },
        { name: 'source-state', mode: 'UNION', offsets: [188, 205] },
        { name: 'broadcast-state-1', mode: 'BROADCAST', offsets: [637] },
      ],
      delegate: { kind: 'relative-file', relativePath: 'f', size: 700, pathOffset: 147 },
    });
    expect(r.atEnd).toBe(true);
  });

  it('code 17: file-merging handle with directories, empty flag and a segment delegate', () => {
    const w = new ByteWriter().u8(17).i32(0).utf('/task-owned').utf('/shared').bool(true).u8(16);
    expect(readOperatorStateHandle(reader(w))).toEqual({
      kind: 'operator',
      code: 17,
      states: [],
      delegate: { kind: 'empty-segment' },
      taskOwnedDirectory: '/task-owned',
      sharedDirectory: '/shared',
      emptyPlaceholder: true,
    });
  });

  it('code 17 with a non-segment delegate is rejected', () => {
    const w = new ByteWriter().u8(17).i32(0).utf('a').utf('b').bool(false).u8(6).utf('f').i64(1);
    expect(decodeErrorOf(() => readOperatorStateHandle(reader(w))).message).toBe(
      'expected a segment file handle (code 15 or 16) in a file-merging operator handle, found a relative-file handle — at _metadata, offset 62 (0x3e)',
    );
  });

  it('rejects an unknown distribution mode, naming the state', () => {
    const w = new ByteWriter().u8(4).i32(1).utf('s').u8(3).i32(0).u8(0);
    expect(decodeErrorOf(() => readOperatorStateHandle(reader(w))).message).toBe(
      'expected distribution mode 0 (SPLIT_DISTRIBUTE), 1 (UNION) or 2 (BROADCAST) for state "s", found 3 — at _metadata, offset 58 (0x3a)',
    );
  });

  it('refuses an offset that another element of the handle already starts at (in any of its states)', () => {
    const w = new ByteWriter().u8(4).i32(2);
    w.utf('a').u8(0).i32(2).i64(180).i64(190);
    w.utf('b').u8(1).i32(1).i64(180);
    expect(decodeErrorOf(() => readOperatorStateHandle(reader(w))).message).toBe(
      'expected offsets of state "b" #0 to start at an offset of its own, found 180, where offsets of state "a" #0 already starts: a repeated offset would read the same bytes twice — at _metadata, offset 87 (0x57)',
    );
  });

  it('rejects keyed handle codes with a hint, and counts larger than the bytes left', () => {
    expect(decodeErrorOf(() => readOperatorStateHandle(reader(new ByteWriter().u8(7)))).message).toBe(
      'expected an operator state handle type code (0, 4 or 17), found 7, which is a keyed handle code — at _metadata, offset 50 (0x32)',
    );
    expect(decodeErrorOf(() => readOperatorStateHandle(reader(new ByteWriter().u8(4).i32(1000).i32(0)))).message).toBe(
      'expected 1000 operator state entries (at least 7000 bytes), found 4 bytes left — at _metadata, offset 51 (0x33)',
    );
    expect(decodeErrorOf(() => readOperatorStateHandle(reader(new ByteWriter().u8(4).i32(1).utf('s').u8(0).i32(-1)))).message).toBe(
      'expected a non-negative number of offsets of state "s", found -1 — at _metadata, offset 59 (0x3b)',
    );
  });
});
