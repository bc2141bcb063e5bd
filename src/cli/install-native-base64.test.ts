import { afterAll, describe, expect, it } from 'vitest';
import { encodeBase64, encodeBase64Here } from '../core/flink/values/encode-base64';
import { installNativeBase64 } from './install-native-base64';

type ToBase64 = (options?: { alphabet?: string; omitPadding?: boolean }) => string;
const hadOwn = Object.prototype.hasOwnProperty.call(Uint8Array.prototype, 'toBase64');
afterAll(() => {
  if (!hadOwn) delete (Uint8Array.prototype as { toBase64?: unknown }).toBase64;
});

describe('installNativeBase64', () => {
  installNativeBase64();
  const toBase64 = (bytes: Uint8Array, options?: Parameters<ToBase64>[0]) => (bytes as Uint8Array & { toBase64: ToBase64 }).toBase64(options);

  it('gives Uint8Array a toBase64 that the core then uses, equal to the core own encoder at every length and view offset', () => {
    expect(typeof (Uint8Array.prototype as { toBase64?: unknown }).toBase64).toBe('function');
    let seed = 11;
    const whole = Uint8Array.from({ length: 70_000 }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 255);
    for (const n of [0, 1, 2, 3, 4, 5, 6, 47, 48, 49, 4999, 5000, 49_152, 49_153, 69_000]) {
      const view = whole.subarray(7, 7 + n);
      expect(encodeBase64(view), `${n} bytes`).toBe(encodeBase64Here(view));
      expect(toBase64(view), `${n} bytes`).toBe(encodeBase64Here(view));
    }
  });

  it('follows the proposal: the examples of proposal-arraybuffer-base64, base64url padded unless omitPadding, other alphabets refused', () => {
    expect(toBase64(new Uint8Array([72, 101, 108, 108, 111, 32, 87, 111, 114, 108, 100]))).toBe('SGVsbG8gV29ybGQ=');
    const bytes = new Uint8Array([244, 255, 199, 250, 97]);
    expect(toBase64(bytes)).toBe('9P/H+mE=');
    expect(toBase64(bytes, { alphabet: 'base64url' })).toBe('9P_H-mE=');
    expect(toBase64(bytes, { alphabet: 'base64url', omitPadding: true })).toBe('9P_H-mE');
    expect(toBase64(bytes, { omitPadding: true })).toBe('9P/H+mE');
    expect(() => toBase64(bytes, { alphabet: 'hex' })).toThrow(TypeError);
  });
});
