import { describe, expect, it } from 'vitest';
import { encodeBase64, encodeBase64Here } from './encode-base64';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** RFC 4648 §4 read literally, one bit at a time: the reference the fast encoder is held to (platform-free, no Buffer). */
function referenceBase64(bytes: Uint8Array): string {
  let out = '';
  for (let bit = 0; bit < bytes.length * 8; bit += 6) {
    let v = 0;
    for (let k = 0; k < 6; k++) {
      const at = bit + k;
      const b = at < bytes.length * 8 ? (bytes[at >> 3]! >> (7 - (at & 7))) & 1 : 0;
      v = (v << 1) | b;
    }
    out += ALPHABET[v];
  }
  return out + '='.repeat((4 - (out.length % 4)) % 4);
}

describe.each([
  ['encodeBase64', encodeBase64],
  ["the core's own encoder", encodeBase64Here],
])('%s', (_name, encodeBase64) => {
  it('gives the test vectors of RFC 4648 §10', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of vectors) expect(encodeBase64(Uint8Array.from(text, (c) => c.charCodeAt(0))), text).toBe(encoded);
  });

  it('equals the bit-by-bit reference at every length up to 40, around its scratch buffer (49,152 input bytes) and remainders', () => {
    let seed = 7;
    const bytes = (n: number) => Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 255);
    for (const n of [
      ...Array.from({ length: 41 }, (_, k) => k),
      3071,
      3072,
      3073,
      6143,
      6144,
      6145,
      6146,
      24_574,
      24_575,
      24_576,
      24_577,
      24_578,
      49_152,
      49_153,
      100_001,
    ]) {
      const b = bytes(n);
      expect(encodeBase64(b), `${n} bytes`).toBe(referenceBase64(b));
    }
  });
});
