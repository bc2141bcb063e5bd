import { describe, expect, it } from 'vitest';
import { encodeBase64 } from './encode-base64';

describe('encodeBase64', () => {
  it('gives what Node gives for every length up to 40 and across its 12,288-byte chunks', () => {
    for (const length of [...Array.from({ length: 41 }, (_, n) => n), 12287, 12288, 12289, 12290, 3 * 12288 + 2, 100_001]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 131 + (i >> 5)) & 0xff);
      expect(encodeBase64(bytes), `${length} bytes`).toBe(Buffer.from(bytes).toString('base64'));
    }
  });
});
