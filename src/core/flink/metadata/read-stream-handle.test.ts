import { describe, expect, it } from 'vitest';
import { decodeErrorOf } from '../../../../tests/helpers/decode-error-of';
import { ByteReader, ByteWriter } from '../../io';
import { readStreamHandle } from './read-stream-handle';

/** A reader over `w`'s bytes as if they sat at offset 100 of `_metadata`. */
function readerAt100(w: ByteWriter): ByteReader {
  return new ByteReader(w.finish(), { file: '_metadata', baseOffset: 100 });
}

describe('readStreamHandle', () => {
  it('code 0 is null', () => {
    const r = readerAt100(new ByteWriter().u8(0));
    expect(readStreamHandle(r)).toBeNull();
    expect(r.atEnd).toBe(true);
  });

  it('code 1: inline data with name, size and the absolute offset of the data', () => {
    const r = readerAt100(new ByteWriter().u8(1).utf('6fec24ae-x').i32(3).bytes([7, 8, 9]).u8(0xee));
    const h = readStreamHandle(r);
    expect(h).toEqual({ kind: 'inline', name: '6fec24ae-x', size: 3, offset: 100 + 1 + 2 + 10 + 4, data: new Uint8Array([7, 8, 9]) });
    expect(r.position).toBe(20);
  });

  it('code 2: absolute file, size before path', () => {
    const r = readerAt100(new ByteWriter().u8(2).i64(1234).utf('s3://bucket/chk-17/abc'));
    expect(readStreamHandle(r)).toEqual({ kind: 'file', path: 's3://bucket/chk-17/abc', size: 1234, pathOffset: 100 + 1 + 8 });
    expect(r.atEnd).toBe(true);
  });

  it('code 3: legacy key-groups handle with offsets and a nested delegate', () => {
    const r = readerAt100(new ByteWriter().u8(3).i32(5).i32(2).i64(0).i64(42).u8(6).utf('f').i64(99));
    expect(readStreamHandle(r)).toEqual({
      kind: 'legacy-key-groups',
      range: { start: 5, end: 6 },
      offsets: [0, 42],
      delegate: { kind: 'relative-file', relativePath: 'f', size: 99, pathOffset: 100 + 1 + 4 + 4 + 16 + 1 },
    });
  });

  it('code 6: relative file, path before size; size -1 means unknown', () => {
    const r = readerAt100(new ByteWriter().u8(6).utf('afa86a86-2dd3-4bef-b43d-8db6aac27cf0').i64(-1));
    expect(readStreamHandle(r)).toEqual({ kind: 'relative-file', relativePath: 'afa86a86-2dd3-4bef-b43d-8db6aac27cf0', size: -1, pathOffset: 101 });
  });

  it('code 15: segment of a physical file; code 16: empty segment', () => {
    const r = readerAt100(new ByteWriter().u8(15).i64(10).i64(20).i32(1).utf('/chk/merged-1').utf('lf-1').u8(16));
    expect(readStreamHandle(r)).toEqual({
      kind: 'segment-file',
      start: 10,
      size: 20,
      scope: 'SHARED',
      physicalPath: '/chk/merged-1',
      logicalFileId: 'lf-1',
      pathOffset: 100 + 1 + 8 + 8 + 4,
    });
    expect(readStreamHandle(r)).toEqual({ kind: 'empty-segment' });
    expect(r.atEnd).toBe(true);
  });

  it('rejects a keyed handle code where a stream handle is expected, naming it', () => {
    const r = readerAt100(new ByteWriter().u8(0).u8(7));
    expect(readStreamHandle(r)).toBeNull();
    const e2 = decodeErrorOf(() => readStreamHandle(r));
    expect(e2.code).toBe('invalid-value');
    expect(e2.offset).toBe(101);
    expect(e2.message).toBe(
      'expected a stream state handle type code (0, 1, 2, 3, 6, 15 or 16), found 7, which is a keyed or operator handle code — at _metadata, offset 101 (0x65)',
    );
  });

  it('rejects an unknown code', () => {
    const e = decodeErrorOf(() => readStreamHandle(readerAt100(new ByteWriter().u8(200))));
    expect(e.message).toBe('expected a stream state handle type code (0, 1, 2, 3, 6, 15 or 16), found 200 — at _metadata, offset 100 (0x64)');
  });

  it('rejects a negative or too long inline length before allocating', () => {
    const neg = decodeErrorOf(() => readStreamHandle(readerAt100(new ByteWriter().u8(1).utf('n').i32(-5))));
    expect(neg.message).toBe('expected a non-negative inline handle data length, found -5 — at _metadata, offset 104 (0x68)');
    const long = decodeErrorOf(() => readStreamHandle(readerAt100(new ByteWriter().u8(1).utf('n').i32(1_000_000).bytes([1, 2]))));
    expect(long.code).toBe('truncated');
    expect(long.message).toBe('expected 1000000 bytes of inline state data, found 2 — at _metadata, offset 108 (0x6c)');
  });

  it('rejects a segment scope other than 0/1 and a negative file size other than -1', () => {
    const scope = decodeErrorOf(() => readStreamHandle(readerAt100(new ByteWriter().u8(15).i64(0).i64(1).i32(2))));
    expect(scope.message).toBe('expected segment scope 0 (EXCLUSIVE) or 1 (SHARED), found 2 — at _metadata, offset 117 (0x75)');
    const size = decodeErrorOf(() => readStreamHandle(readerAt100(new ByteWriter().u8(6).utf('f').i64(-2))));
    expect(size.message).toBe('expected relative file handle state size between -1 and 2^53-1, found -2 — at _metadata, offset 104 (0x68)');
  });

  it('reports truncation inside a handle with what was expected', () => {
    const e = decodeErrorOf(() => readStreamHandle(readerAt100(new ByteWriter().u8(2).i32(0))));
    expect(e.code).toBe('truncated');
    expect(e.message).toBe('expected 8 bytes for file handle state size, found 4 — at _metadata, offset 101 (0x65)');
  });

  it('limits the nesting depth of legacy key-groups handles', () => {
    const w = new ByteWriter();
    for (let i = 0; i < 12; i++) w.u8(3).i32(0).i32(0);
    w.u8(0);
    const e = decodeErrorOf(() => readStreamHandle(readerAt100(w)));
    expect(e.code).toBe('limit-exceeded');
    expect(e.message).toBe('expected stream handles nested at most 8 deep, found deeper nesting — at _metadata, offset 181 (0xb5)');
  });
});
