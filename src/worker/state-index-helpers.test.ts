import { describe, expect, it } from 'vitest';
import { ProtobufValueCodec } from '../core/protobuf';
import { buildSizeHistogram, SizeHistogram } from './build-size-histogram';
import { findIndexedPart } from './read-state-page';
import { takeEntryFrames, type WorkerProtobufFrame } from './register-worker-protobuf-readers';

describe('findIndexedPart', () => {
  const index = {
    total: 10,
    parts: [
      { subtask: 0, keyGroup: -1, first: 0, count: 2 },
      { subtask: 0, keyGroup: 3, first: 2, count: 5 },
      { subtask: 1, keyGroup: 9, first: 7, count: 3 },
    ],
  };
  it('finds the part holding an entry: first, inside, last entry of a part', () => {
    expect([0, 1, 2, 6, 7, 9].map((i) => findIndexedPart(index, i))).toEqual([0, 0, 1, 1, 2, 2]);
  });
  it('gives -1 outside the state and for an empty state', () => {
    expect(findIndexedPart(index, 10)).toBe(-1);
    expect(findIndexedPart(index, -1)).toBe(-1);
    expect(findIndexedPart({ total: 0, parts: [] }, 0)).toBe(-1);
  });
});

describe('takeEntryFrames', () => {
  const codec = {} as ProtobufValueCodec;
  const frame = (offset: number): WorkerProtobufFrame => ({ offset, frame: new Uint8Array(4), length: 0, codec });
  it('takes the frames inside the value range, drops earlier ones, keeps later ones', () => {
    const pending = [frame(5), frame(10), frame(14), frame(20)];
    expect(takeEntryFrames(pending, { offset: 10, length: 10 }).map((f) => f.offset)).toEqual([10, 14]);
    expect(pending.map((f) => f.offset)).toEqual([20]);
    expect(takeEntryFrames(pending, { offset: 20, length: 4 }).map((f) => f.offset)).toEqual([20]);
    expect(pending).toEqual([]);
    expect(takeEntryFrames(pending, { offset: 30, length: 4 })).toEqual([]);
  });
});

describe('SizeHistogram', () => {
  it('counts into power-of-two bins up to at least the 4 KiB edge, like the list version', () => {
    const sizes = [0, 1, 2, 3, 4095, 4096, 70_000];
    const h = new SizeHistogram();
    for (const n of sizes) h.add(n);
    const bins = h.finish();
    expect(bins).toEqual(buildSizeHistogram(sizes));
    expect(bins.map((b) => b.count).reduce((a, b) => a + b, 0)).toBe(7);
    expect(bins.find((b) => b.from === 4096)).toEqual({ from: 4096, to: 8192, count: 1 });
    expect(bins.find((b) => b.from === 2048)).toEqual({ from: 2048, to: 4096, count: 1 });
    expect(bins.at(-1)).toEqual({ from: 65536, to: 131072, count: 1 });
    expect(new SizeHistogram().finish()).toEqual([]);
    // as before: one bin above the 4 KiB edge's bin, so the threshold never sits at the chart's end
    expect(buildSizeHistogram([10]).at(-1)!.to).toBe(16384);
  });
});
