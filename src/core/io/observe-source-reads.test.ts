import { describe, expect, it } from 'vitest';
import { bytesSource } from './byte-source';
import { observeSourceReads } from './observe-source-reads';

describe('observeSourceReads', () => {
  it('tells every read and readInto with the bytes it returned, and nothing for a read that fails', async () => {
    const told: [number, string][] = [];
    const source = observeSourceReads(bytesSource('f', new Uint8Array([1, 2, 3, 4, 5])), { onRead: (bytes, name) => told.push([bytes, name]) });
    expect([...(await source.read(1, 3))]).toEqual([2, 3, 4]);
    const target = new Uint8Array(8);
    if (source.readInto) expect([...(await source.readInto(0, 2, target))]).toEqual([1, 2]);
    await expect(source.read(4, 9)).rejects.toThrow();
    expect(told).toEqual(
      source.readInto
        ? [
            [3, 'f'],
            [2, 'f'],
          ]
        : [[3, 'f']],
    );
  });

  it('rejects a read when beforeRead throws, without reading or telling it', async () => {
    let told = 0;
    const source = observeSourceReads(bytesSource('f', new Uint8Array(4)), {
      beforeRead() {
        throw new Error('cancelled');
      },
      onRead: () => void told++,
    });
    const read = source.read(0, 2);
    expect(read).toBeInstanceOf(Promise);
    await expect(read).rejects.toThrow('cancelled');
    expect(told).toBe(0);
  });
});
