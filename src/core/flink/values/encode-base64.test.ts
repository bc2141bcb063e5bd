import { describe, expect, it } from 'vitest';
import { encodeBase64 } from './encode-base64';

describe('encodeBase64', () => {
  it('gives what Node gives for every length up to 40 and across its 3,072-byte chunks', () => {
    for (const length of [...Array.from({ length: 41 }, (_, n) => n), 3071, 3072, 3073, 3074, 3 * 3072 + 2, 100_001]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + (i >> 5)) & 0xff);
      expect(encodeBase64(bytes), `${length} bytes`).toBe(Buffer.from(bytes).toString('base64'));
    }
  });
});
