/**
 * ByteReader.readStringValue reads one-byte (ASCII) units without the varint loop; the result and
 * every error (text and offset) stay those of the checked path, also when ASCII and multi-byte units
 * mix and when the input ends inside a unit.
 */
import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, isDecodeError } from '../../src/core/io';

function errorOf(bytes: number[]): string {
  try {
    new ByteReader(new Uint8Array(bytes), { file: 'f', baseOffset: 100 }).readStringValue('key');
  } catch (e) {
    if (isDecodeError(e)) return `${e.code} @${e.offset}: ${e.message}`;
    throw e;
  }
  throw new Error('expected a DecodeError');
}

describe('readStringValue one-byte fast path', () => {
  it('reads ASCII, multi-byte and mixed strings as written', () => {
    for (const s of ['', 'key-000123', 'é', 'aé€b', '\u007f\u0080', 'x'.repeat(5000) + '€']) {
      const r = new ByteReader(new ByteWriter().stringValue(s).u8(7).finish());
      expect(r.readStringValue()).toBe(s);
      expect(r.readU8()).toBe(7);
    }
  });

  it('a unit cut off at the end of the input: the checked path reports it', () => {
    // length 4 (3 units): 'a', 'b', then a continuation byte with nothing after it
    expect(errorOf([4, 0x61, 0x62, 0x81])).toBe('truncated @104: expected 1 byte for character 2 of key, found 0 — at f, offset 104 (0x68)');
    // length 4 (3 units): 'a', 'é' (2 bytes) and then the input ends
    expect(errorOf([4, 0x61, 0xe9, 0x01])).toBe('truncated @104: expected 1 byte for character 2 of key, found 0 — at f, offset 104 (0x68)');
  });

  it('a unit above 0xFFFF and an over-long varint keep their texts and offsets', () => {
    expect(errorOf([3, 0x61, 0x80, 0x80, 0x04])).toBe('invalid-value @105: expected a UTF-16 code unit in key, found 65536 — at f, offset 105 (0x69)');
    expect(errorOf([3, 0x61, 0x80, 0x80, 0x80, 0x80, 0x80])).toBe(
      'invalid-value @107: expected a varint of at most 5 bytes for the character 1 of key, found a longer one — at f, offset 107 (0x6b)',
    );
  });
});
