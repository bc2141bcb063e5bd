import { describe, expect, it } from 'vitest';
import { formatHex } from './format-hex';

describe('formatHex', () => {
  it('writes two lower-case digits a byte, joined by the separator', () => {
    expect(formatHex(Uint8Array.of(0x00, 0x0a, 0xff, 0x1f))).toBe('000aff1f');
    expect(formatHex(Uint8Array.of(0x50, 0x4b, 0x03), ' ')).toBe('50 4b 03');
    expect(formatHex([0x7])).toBe('07');
    expect(formatHex(new Uint8Array(0), ' ')).toBe('');
  });
});
