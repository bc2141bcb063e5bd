import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { encodeBase64 } from './encode-base64';

describe('encodeBase64', () => {
  it("equals Node's base64 at every length up to 40, around its pieces (24,576 input bytes) and remainders", () => {
    let seed = 7;
    const bytes = (n: number) => Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 255);
    for (const n of [...Array.from({ length: 41 }, (_, k) => k), 3071, 3072, 3073, 6143, 6144, 6145, 6146, 24_574, 24_575, 24_576, 24_577, 24_578, 49_152, 49_153, 100_001]) {
      const b = bytes(n);
      expect(encodeBase64(b), `${n} bytes`).toBe(Buffer.from(b).toString('base64'));
    }
  });
});
