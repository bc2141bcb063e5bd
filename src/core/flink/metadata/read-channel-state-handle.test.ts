import { describe, expect, it } from 'vitest';
import { decodeErrorOf } from '../../../../tests/helpers/decode-error-of';
import { ByteReader, ByteWriter } from '../../io';
import { readChannelStateHandle } from './read-channel-state-handle';

function reader(w: ByteWriter): ByteReader {
  return new ByteReader(w.finish(), { file: '_metadata', baseOffset: 0 });
}

describe('readChannelStateHandle', () => {
  it('V1 (metadata 3–5): subtask, gate/channel, offsets, size, delegate', () => {
    const w = new ByteWriter().i32(2).i32(0).i32(5).i32(2).i64(0).i64(40).i64(80).u8(6).utf('ch').i64(80);
    const r = reader(w);
    expect(readChannelStateHandle(r, 5, 'input')).toEqual({
      kind: 'input-channel',
      subtaskIndex: 2,
      info: [0, 5],
      offsets: [0, 40],
      stateSize: 80n,
      delegate: { kind: 'relative-file', relativePath: 'ch', size: 80, pathOffset: 41 },
    });
    expect(r.atEnd).toBe(true);
  });

  it('V2 (metadata 6+): type byte 2 then the V1 body for a result subpartition', () => {
    const w = new ByteWriter().u8(2).i32(1).i32(3).i32(4).i32(0).i64(0).u8(0);
    expect(readChannelStateHandle(reader(w), 6, 'output')).toEqual({
      kind: 'result-subpartition',
      subtaskIndex: 1,
      info: [3, 4],
      offsets: [],
      stateSize: 0n,
      delegate: null,
    });
  });

  it('V2 merged handles (types 3/4): subtask, size, delegate, opaque offsets', () => {
    const w = new ByteWriter().u8(3).i32(0).i64(12).u8(0).i32(3).bytes([1, 2, 3]);
    const r = reader(w);
    expect(readChannelStateHandle(r, 7, 'input')).toEqual({
      kind: 'merged-input-channel',
      subtaskIndex: 0,
      stateSize: 12n,
      delegate: null,
      serializedOffsetsLength: 3,
    });
    expect(r.atEnd).toBe(true);
  });

  it('rejects a V2 type of the wrong direction', () => {
    expect(decodeErrorOf(() => readChannelStateHandle(reader(new ByteWriter().u8(1)), 6, 'output')).message).toBe(
      'expected channel state handle type 2 (result subpartition) or 4 (merged result subpartitions), found 1 — at _metadata, offset 0 (0x0)',
    );
  });
});
