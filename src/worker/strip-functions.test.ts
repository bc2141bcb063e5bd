import { describe, expect, it } from 'vitest';
import { stripFunctions } from './strip-functions';

describe('stripFunctions', () => {
  it('drops functions at any depth and keeps data, typed arrays and bigints', () => {
    const bytes = new Uint8Array([1, 2]);
    const input = { a: 1, codec: { decode: () => 1 }, nested: [{ f: () => 2, big: 5n, bytes }], s: 'x', n: null };
    const out = stripFunctions(input);
    expect(out).toEqual({ a: 1, codec: {}, nested: [{ big: 5n, bytes }], s: 'x', n: null });
    expect(out.nested[0].bytes).toBe(bytes);
    expect(() => structuredClone(out)).not.toThrow();
  });
});
