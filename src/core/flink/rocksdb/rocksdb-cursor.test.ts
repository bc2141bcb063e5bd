/** RocksDbCursor's varints (read by io's shared readers): values, positions, and each failure's words and offset. */
import { describe, expect, it } from 'vitest';
import { RocksDbCursor } from './rocksdb-cursor';

const cursor = (bytes: number[], end = bytes.length) => new RocksDbCursor(Uint8Array.from(bytes), 'f', 100, 0, end);

describe('RocksDbCursor varints', () => {
  it('reads 32-bit and 64-bit varints and moves past them', () => {
    const c = cursor([0x96, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x03]);
    expect(c.readVarint32('a')).toBe(150);
    expect(c.readVarint32('b')).toBe(0xffffffff);
    expect(c.readVarint64Big('c')).toBe(0xffffffffffffffffn);
    expect(c.readVarSigned64('d')).toBe(-2);
    expect(c.pos).toBe(18);
  });

  it('names a varint cut off, one above 32 bits, one over 10 bytes and a 64-bit value above 2^53, at its start', () => {
    expect(() => cursor([0x05, 0x80, 0x80], 3).readSlice('key')).toThrow('expected 5 bytes of key, found 2 — at f, offset 101 (0x65)');
    const cut = cursor([0x01, 0x80, 0x80]);
    cut.pos = 1;
    expect(() => cut.readVarint32('shared key length')).toThrow('expected a varint (shared key length), found the end of the bytes — at f, offset 101 (0x65)');
    expect(cut.pos).toBe(3);
    expect(() => cursor([0xff, 0xff, 0xff, 0xff, 0x10]).readVarint32('key length')).toThrow(
      'expected a 32-bit varint (key length), found more than 32 bits — at f, offset 100 (0x64)',
    );
    expect(() => cursor([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]).readVarint32('value length')).toThrow(
      'expected a 32-bit varint (value length), found more than 32 bits — at f, offset 100 (0x64)',
    );
    expect(() => cursor([0x80, 0x80]).readVarint64('offset')).toThrow('expected a varint (offset), found the end of the bytes — at f, offset 100 (0x64)');
    expect(() => cursor(new Array<number>(11).fill(0x80)).readVarint64Big('size')).toThrow(
      'expected a 64-bit varint (size), found more than 10 bytes — at f, offset 100 (0x64)',
    );
    expect(() => cursor([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10]).readVarint64('block offset')).toThrow(
      'expected block offset below 2^53, found 9007199254740992 — at f, offset 100 (0x64)',
    );
  });
});
