import { describe, expect, it } from 'vitest';
import { toPlainData } from './to-plain-data';

class Codec {
  self: Codec = this;
  decode(): number {
    return 1;
  }
}

describe('toPlainData', () => {
  it('drops functions and class instances (even cyclic ones) at any depth, keeps data, typed arrays and bigints', () => {
    const bytes = new Uint8Array([1, 2]);
    const input = { a: 1, codec: new Codec(), fn: () => 2, nested: [{ f: () => 2, big: 5n, bytes }], s: 'x', n: null, obj: { decode: () => 1 } };
    const out = toPlainData(input);
    expect(out).toEqual({ a: 1, nested: [{ big: 5n, bytes }], s: 'x', n: null, obj: {} });
    expect(out.nested[0].bytes).toBe(bytes);
    expect(() => structuredClone(out)).not.toThrow();
  });
});
