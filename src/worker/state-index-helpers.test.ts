import { describe, expect, it } from 'vitest';
import { ProtobufValueCodec } from '../core/protobuf';
import { buildSizeHistogram, SizeHistogram } from './build-size-histogram';
import { findIndexedPart } from './find-indexed-part';
import { lightenEntry } from './read-state-page';
import type { DecodedValue } from '../core/flink';
import { createProtobufReadControl, findValueFrames, NOT_DECODED, type WorkerProtobufFrame } from './register-worker-protobuf-readers';

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

describe('findValueFrames', () => {
  const codec = {} as ProtobufValueCodec;
  const frame = (offset: number, tag: number): WorkerProtobufFrame => ({ offset, frame: new Uint8Array([0, 0, 0, tag]), length: tag, codec });
  const notDecoded = (): DecodedValue => ({ kind: 'other', type: 'Protobuf frame', text: 'not decoded' });

  it('finds the own frame of each value by identity, even when frames of different values sit at the same offset', () => {
    const control = createProtobufReadControl('scan');
    // two heap chunks whose offsets both restart at 0; equal-looking values, different frames
    const a = notDecoded();
    const b = notDecoded();
    control.frames.set(a, frame(0, 1));
    control.frames.set(b, frame(0, 2));
    expect(findValueFrames(control, a).map((f) => f.length)).toEqual([1]);
    expect(findValueFrames(control, b).map((f) => f.length)).toEqual([2]);
    expect(findValueFrames(control, notDecoded())).toEqual([]);
    expect(findValueFrames(control, NOT_DECODED)).toEqual([]);
    expect(findValueFrames(control, null)).toEqual([]);
  });

  it("keeps a value's frame to the control that read it, out of structured clones, JSON and Object.entries", () => {
    const a = createProtobufReadControl('scan');
    const b = createProtobufReadControl('scan');
    const value = notDecoded();
    a.frames.set(value, frame(7, 3));
    expect(findValueFrames(a, value).map((f) => f.offset)).toEqual([7]);
    expect(findValueFrames(b, value)).toEqual([]);
    expect(structuredClone(value)).toEqual(notDecoded());
    expect(findValueFrames(a, structuredClone(value))).toEqual([]);
    expect(JSON.stringify(value)).toBe(JSON.stringify(notDecoded()));
    expect(Object.entries(value)).toEqual(Object.entries(notDecoded()));
  });

  it('a lightened entry (a page row) carries neither the JSON view nor the frame of its Protobuf value', () => {
    const control = createProtobufReadControl('decode');
    const value = { kind: 'message', typeName: 'x.Event', json: { id: '1' } } as unknown as DecodedValue;
    control.frames.set(value, frame(9, 4));
    const entry = { operatorId: 'op', state: 's', subtask: 0, keyGroup: 0, key: null, namespace: null, userKey: null, value, file: 'f', keyRange: { offset: 0, length: 0 }, valueRange: { offset: 9, length: 8 } };
    const light = lightenEntry(entry as never);
    expect(light.value).toEqual({ kind: 'message', typeName: 'x.Event', json: null });
    expect(findValueFrames(control, light.value)).toEqual([]);
    expect(findValueFrames(control, value).map((f) => f.offset)).toEqual([9]);
  });

  it('finds the frames inside lists, TTL wrappers, tuples, POJOs and maps, in read order', () => {
    const control = createProtobufReadControl('decode');
    const values = [notDecoded(), notDecoded(), notDecoded(), notDecoded(), notDecoded()];
    values.forEach((v, i) => control.frames.set(v, frame(100, i)));
    const value: DecodedValue = {
      kind: 'list',
      items: [
        { kind: 'ttl', lastAccessTimestamp: '1', value: values[0]! },
        { kind: 'tuple', className: 'T', fields: [values[1]!, { kind: 'null' }] },
        { kind: 'pojo', className: 'P', fields: [{ name: 'x', value: values[2]! }] },
        { kind: 'map', entries: [{ key: values[3]!, value: values[4]! }] },
      ],
    };
    expect(findValueFrames(control, value).map((f) => f.length)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('SizeHistogram', () => {
  it('counts into power-of-two bins up to at least the 4 KiB edge, like the list version', () => {
    const sizes = [0, 1, 2, 3, 4095, 4096, 70_000];
    const h = new SizeHistogram();
    for (const n of sizes) h.add(n);
    const bins = h.finish();
    // 18 bins [0,1), [1,2), [2,4) … [65536,131072): counts by hand
    const counts: Record<number, number> = { 0: 1, 1: 1, 2: 2, 12: 1, 13: 1, 17: 1 };
    expect(bins.map((b) => b.count)).toEqual(Array.from({ length: 18 }, (_, i) => counts[i] ?? 0));
    expect(bins.slice(0, 4).map((b) => [b.from, b.to])).toEqual([[0, 1], [1, 2], [2, 4], [4, 8]]);
    expect(bins.every((b, i) => i === 0 || b.from === bins[i - 1]!.to)).toBe(true);
    expect(bins.map((b) => b.count).reduce((a, b) => a + b, 0)).toBe(7);
    expect(bins.find((b) => b.from === 4096)).toEqual({ from: 4096, to: 8192, count: 1 });
    expect(bins.find((b) => b.from === 2048)).toEqual({ from: 2048, to: 4096, count: 1 });
    expect(bins.at(-1)).toEqual({ from: 65536, to: 131072, count: 1 });
    expect(new SizeHistogram().finish()).toEqual([]);
    // as before: one bin above the 4 KiB edge's bin, so the threshold never sits at the chart's end
    expect(buildSizeHistogram([10]).at(-1)!.to).toBe(16384);
  });
});
