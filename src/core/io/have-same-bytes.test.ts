import { describe, expect, it } from 'vitest';
import { haveSameBytes } from './have-same-bytes';

describe('haveSameBytes', () => {
  it('compares length and every byte', () => {
    expect(haveSameBytes(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 3).subarray(0))).toBe(true);
    expect(haveSameBytes(Uint8Array.of(1, 2, 3), Uint8Array.of(1, 2, 4))).toBe(false);
    expect(haveSameBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0))).toBe(false);
    expect(haveSameBytes(new Uint8Array(0), new Uint8Array(0))).toBe(true);
  });
});
