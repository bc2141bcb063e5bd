import { describe, expect, it } from 'vitest';
import { describeByteDifference, expectSameBytes } from './expect-same-bytes';

describe('describeByteDifference', () => {
  it('is undefined for the same bytes, also in views at different offsets of their buffers', () => {
    const big = new Uint8Array(3 << 20).map((_, i) => i & 0xff);
    expect(describeByteDifference(big, big.slice())).toBeUndefined();
    expect(describeByteDifference(big.subarray(256, 512), big.subarray(0, 256))).toBeUndefined();
    expect(describeByteDifference(new Uint8Array(0), new Uint8Array(0))).toBeUndefined();
  });

  it('names the first differing offset, both bytes and both lengths', () => {
    const big = new Uint8Array(3 << 20).map((_, i) => i & 0xff);
    const changed = big.slice();
    changed[2_097_151] ^= 1;
    changed[2_097_200] ^= 1;
    expect(describeByteDifference(changed, big)).toBe('first difference at offset 2097151 (0x1fffff): 0xfe, expected 0xff (lengths 3145728 and 3145728)');
    expect(describeByteDifference(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3))).toBe(
      'first difference at offset 2 (0x2): end, expected 0x03 (lengths 2 and 3)',
    );
    expect(describeByteDifference(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2))).toBe(
      'first difference at offset 2 (0x2): 0x03, expected end (lengths 3 and 2)',
    );
  });

  it('makes expectSameBytes fail with that description', () => {
    expect(() => expectSameBytes(Uint8Array.of(1, 9), Uint8Array.of(1, 2), 'frame')).toThrow(
      'frame: first difference at offset 1 (0x1): 0x09, expected 0x02 (lengths 2 and 2)',
    );
    expect(() => expectSameBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).not.toThrow();
  });
});
