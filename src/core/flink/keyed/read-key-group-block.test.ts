import { afterEach, describe, expect, it, vi } from 'vitest';
import { ByteReader, DecodeError } from '../../io';
import { createKeyGroupBlockCursor, KeyedEntryRows, readKeyGroupBlockPart } from './read-key-group-block';

/** A canonical key-group block of state 0: `count` entries (1-byte key-group prefix + key, value), the last flagged, then FF FF. */
function block(count: number): { bytes: Uint8Array; entryEnds: number[] } {
  const parts: number[] = [0, 0];
  const entryEnds: number[] = [];
  for (let i = 0; i < count; i++) {
    const key = [i === count - 1 ? 0x80 : 0x00, 1, 2, i];
    const value = Array.from({ length: 5 + (i % 7) }, (_, k) => (i * 13 + k) & 0xff);
    parts.push(0, 0, 0, key.length, ...key, 0, 0, 0, value.length, ...value);
    entryEnds.push(parts.length);
  }
  parts.push(0xff, 0xff);
  return { bytes: Uint8Array.from(parts), entryEnds };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readKeyGroupBlockPart', () => {
  it('a window that ends inside an entry (more follows) ends the part at the last whole entry, without building an error', () => {
    const { bytes, entryEnds } = block(6);
    const made = vi.spyOn(ByteReader.prototype, 'error');
    for (let cut = 1; cut < bytes.length; cut++) {
      const rows = new KeyedEntryRows();
      const cursor = createKeyGroupBlockCursor();
      const consumed = readKeyGroupBlockPart(new ByteReader(bytes.subarray(0, cut)), cursor, 1, 1, rows, true);
      const whole = entryEnds.filter((e) => e <= cut);
      // the state id alone (2 bytes) is committed too; the end mark only whole
      const expected = cut === bytes.length ? cut : whole.length > 0 ? whole[whole.length - 1]! : cut >= 2 ? 2 : 0;
      expect(consumed, `cut at ${cut}`).toBe(expected);
      expect(rows.length / 5, `cut at ${cut}`).toBe(whole.length);
    }
    // (ByteReader.error builds the DecodeError a truncated read throws: none was built, and none thrown and caught)
    expect(made).not.toHaveBeenCalled();
  });

  it('without more the same cut is the block\'s "truncated" error, and a bad length at a window end is still an error', () => {
    const { bytes, entryEnds } = block(3);
    const cut = entryEnds[0]! + 6;
    expect(() => readKeyGroupBlockPart(new ByteReader(bytes.subarray(0, cut)), createKeyGroupBlockCursor(), 1, 1, new KeyedEntryRows(), false)).toThrow(
      DecodeError,
    );
    try {
      readKeyGroupBlockPart(new ByteReader(bytes.subarray(0, cut)), createKeyGroupBlockCursor(), 1, 1, new KeyedEntryRows(), false);
    } catch (e) {
      expect((e as DecodeError).code).toBe('truncated');
      expect((e as DecodeError).detail).toBe('expected 4 bytes for key bytes, found 2');
    }
    // a negative value length right before the window's end: invalid, not "read on in the next window"
    const bad = bytes.slice(0, entryEnds[0]! + 12);
    bad.set([0xff, 0xff, 0xff, 0xfe], entryEnds[0]! + 8);
    let failure: unknown;
    try {
      readKeyGroupBlockPart(new ByteReader(bad), createKeyGroupBlockCursor(), 1, 1, new KeyedEntryRows(), true);
    } catch (e) {
      failure = e;
    }
    expect((failure as DecodeError).code).toBe('invalid-value');
    expect((failure as DecodeError).detail).toBe('expected a non-negative value length, found -2');
  });
});
