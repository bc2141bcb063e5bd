import { describe, expect, it } from 'vitest';
import { decodeErrorOf } from '../../../../tests/helpers/decode-error-of';
import { ByteReader, ByteWriter } from '../../io';
import { readKeyedStateHandle } from './read-keyed-state-handle';
import { writeInMemoryChangelogHandle } from './write-state-handle';

function reader(w: ByteWriter): ByteReader {
  return new ByteReader(w.finish(), { file: '_metadata', baseOffset: 1000 });
}
const relative = (w: ByteWriter, name: string, size: number) => w.u8(6).utf(name).i64(size);

describe('readKeyedStateHandle', () => {
  it('code 0 is null', () => {
    expect(readKeyedStateHandle(reader(new ByteWriter().u8(0)))).toBeNull();
  });

  it('code 7: canonical savepoint key groups, one offset per key group, no handle id', () => {
    const w = new ByteWriter().u8(7).i32(1).i32(3).i64(0).i64(283).i64(301);
    relative(w, 'afa86a86', 500);
    const r = reader(w);
    expect(readKeyedStateHandle(r)).toEqual({
      kind: 'key-groups',
      code: 7,
      range: { start: 1, end: 3 },
      offsets: [0, 283, 301],
      delegate: { kind: 'relative-file', relativePath: 'afa86a86', size: 500, pathOffset: 1000 + 1 + 8 + 24 + 1 },
    });
    expect(r.atEnd).toBe(true);
  });

  it('refuses a non-zero key-group offset that an earlier key group of the handle already starts at; 0 (no data) may repeat', () => {
    const ok = new ByteWriter().u8(7).i32(0).i32(3).i64(0).i64(0).i64(301);
    relative(ok, 'f', 500);
    expect(readKeyedStateHandle(reader(ok))).toMatchObject({ offsets: [0, 0, 301] });
    const w = new ByteWriter().u8(7).i32(4).i32(3).i64(283).i64(301).i64(283);
    relative(w, 'f', 500);
    expect(decodeErrorOf(() => readKeyedStateHandle(reader(w))).message).toBe(
      'expected key-group offsets #2 to start at an offset of its own, found 283, where key-group offsets #0 already starts: a repeated offset would read the same bytes twice — at _metadata, offset 1025 (0x401)',
    );
  });

  it('code 12: heap key groups followed by the state handle id; code 3: old writer without id', () => {
    const w12 = new ByteWriter().u8(12).i32(0).i32(1).i64(5).u8(0).utf('id-1');
    expect(readKeyedStateHandle(reader(w12))).toEqual({
      kind: 'key-groups',
      code: 12,
      range: { start: 0, end: 0 },
      offsets: [5],
      delegate: null,
      handleId: 'id-1',
    });
    const w3 = new ByteWriter().u8(3).i32(0).i32(0).u8(0);
    expect(readKeyedStateHandle(reader(w3))).toEqual({ kind: 'key-groups', code: 3, range: { start: 0, end: -1 }, offsets: [], delegate: null });
  });

  it('code 11: incremental handle with checkpointed size, meta data, shared and private files, handle id', () => {
    const w = new ByteWriter().u8(11).i64(17).utf('backend-uuid').i32(0).i32(128).i64(4096);
    relative(w, 'meta', 300);
    w.i32(1).utf('000010.sst');
    w.u8(2).i64(2048).utf('s3://b/shared/x');
    w.i32(2).utf('MANIFEST-000004');
    relative(w, 'm', 10);
    w.utf('CURRENT').u8(1).utf('cur').i32(2).bytes([0x41, 0x0a]);
    w.utf('handle-11');
    const h = readKeyedStateHandle(reader(w));
    expect(h).toEqual({
      kind: 'incremental',
      code: 11,
      checkpointId: 17n,
      backendId: 'backend-uuid',
      range: { start: 0, end: 127 },
      checkpointedSize: 4096n,
      metaData: { kind: 'relative-file', relativePath: 'meta', size: 300, pathOffset: 1040 },
      sharedFiles: [{ localPath: '000010.sst', handle: { kind: 'file', path: 's3://b/shared/x', size: 2048, pathOffset: 1079 } }],
      privateFiles: [
        { localPath: 'MANIFEST-000004', handle: { kind: 'relative-file', relativePath: 'm', size: 10, pathOffset: 1118 } },
        { localPath: 'CURRENT', handle: { kind: 'inline', name: 'cur', size: 2, offset: expect.any(Number), data: new Uint8Array([0x41, 0x0a]) } },
      ],
      handleId: 'handle-11',
    });
  });

  it('code 5: old incremental handle without checkpointed size and handle id', () => {
    const w = new ByteWriter().u8(5).i64(3).utf('b').i32(0).i32(4).u8(0).i32(0).i32(0);
    const r = reader(w);
    expect(readKeyedStateHandle(r)).toEqual({
      kind: 'incremental',
      code: 5,
      checkpointId: 3n,
      backendId: 'b',
      range: { start: 0, end: 3 },
      metaData: null,
      sharedFiles: [],
      privateFiles: [],
    });
    expect(r.atEnd).toBe(true);
  });

  it('code 14: changelog backend handle wrapping materialized and non-materialized handles', () => {
    const w = new ByteWriter().u8(14).i32(0).i32(4).i64(77);
    w.i32(1).u8(7).i32(0).i32(1).i64(0).u8(0); // materialized: a code-7 handle
    w.i32(1);
    writeInMemoryChangelogHandle(w, { start: 0, end: 3 }, 1n, 2n, [{ keyGroup: 2, bytes: new Uint8Array([1, 2, 3]) }], 'mem');
    w.i64(5).i64(6).utf('cl');
    const h = readKeyedStateHandle(reader(w));
    expect(h).toMatchObject({
      kind: 'changelog',
      code: 14,
      range: { start: 0, end: 3 },
      checkpointedSize: 77n,
      materializedCount: 1,
      materializationId: 5n,
      checkpointId: 6n,
      handleId: 'cl',
    });
    if (h?.kind !== 'changelog') throw new Error('not changelog');
    expect(h.nested.map((n) => n.code)).toEqual([7, 9]);
    expect(h.nested[1]).toMatchObject({ code: 9, fromSequence: 1n, toSequence: 2n, changes: [{ keyGroup: 2, length: 3 }], handleId: 'mem' });
  });

  it('code 8: old changelog handle, checkpoint id = materialization id; null materialized handles are skipped', () => {
    const w = new ByteWriter().u8(8).i32(0).i32(1).i64(0).i32(1).u8(0).i32(0).i64(9).utf('x');
    expect(readKeyedStateHandle(reader(w))).toMatchObject({ code: 8, nested: [], materializedCount: 0, materializationId: 9n, checkpointId: 9n });
  });

  it('codes 10 and 13: changelog files; 13 adds the storage identifier', () => {
    const w10 = new ByteWriter().u8(10).i32(0).i32(1).i32(1).i64(16);
    relative(w10, 'cl-file', 64);
    w10.i64(48).i64(48).utf('h10');
    expect(readKeyedStateHandle(reader(w10))).toMatchObject({
      code: 10,
      files: [{ offset: 16, handle: { kind: 'relative-file', relativePath: 'cl-file' } }],
      stateSize: 48n,
      storageIdentifier: 'filesystem',
      handleId: 'h10',
    });
    const w13 = new ByteWriter().u8(13).i32(0).i32(1).i32(0).i64(0).i64(0).utf('h13').utf('memory');
    expect(readKeyedStateHandle(reader(w13))).toMatchObject({ code: 13, files: [], storageIdentifier: 'memory' });
  });

  it('rejects stream and operator handle codes with a hint, and unknown codes', () => {
    expect(decodeErrorOf(() => readKeyedStateHandle(reader(new ByteWriter().u8(6)))).message).toBe(
      'expected a keyed state handle type code (0, 3, 5, 7, 8, 9, 10, 11, 12, 13 or 14), found 6, which is a stream handle code — at _metadata, offset 1000 (0x3e8)',
    );
    expect(decodeErrorOf(() => readKeyedStateHandle(reader(new ByteWriter().u8(4)))).message).toBe(
      'expected a keyed state handle type code (0, 3, 5, 7, 8, 9, 10, 11, 12, 13 or 14), found 4, which is an operator handle code — at _metadata, offset 1000 (0x3e8)',
    );
    expect(decodeErrorOf(() => readKeyedStateHandle(reader(new ByteWriter().u8(0x80)))).message).toBe(
      'expected a keyed state handle type code (0, 3, 5, 7, 8, 9, 10, 11, 12, 13 or 14), found -128 — at _metadata, offset 1000 (0x3e8)',
    );
  });

  it('rejects a key-group range outside [0, 32768) and an offset count larger than the bytes left', () => {
    expect(decodeErrorOf(() => readKeyedStateHandle(reader(new ByteWriter().u8(7).i32(-1).i32(1)))).message).toBe(
      'expected a key-group range inside [0, 32768), found start -1 and 1 key groups — at _metadata, offset 1001 (0x3e9)',
    );
    const e = decodeErrorOf(() => readKeyedStateHandle(reader(new ByteWriter().u8(7).i32(0).i32(128).i64(0))));
    expect(e.code).toBe('truncated');
    expect(e.message).toBe('expected 128 key-group offsets (at least 1024 bytes), found 8 bytes left — at _metadata, offset 1009 (0x3f1)');
  });

  it('limits the nesting depth of changelog handles', () => {
    const w = new ByteWriter();
    for (let i = 0; i < 10; i++) w.u8(14).i32(0).i32(1).i64(0).i32(1);
    w.u8(0);
    const e = decodeErrorOf(() => readKeyedStateHandle(reader(w)));
    expect(e.code).toBe('limit-exceeded');
    expect(e.message).toBe('expected keyed state handles nested at most 8 deep, found deeper nesting — at _metadata, offset 1189 (0x4a5)');
  });
});
