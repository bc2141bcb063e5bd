import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { createSnapshotRegistry, type StateEntry, type ValueCodec, type ValueFrame } from '../core/flink';
import { readStateEntries } from '../../tests/helpers/read-state-entries';
import { listProtobufFrames, listProtobufValueDetails, ProtobufValueCodec, registerProtobufSnapshotReaders } from '../core/protobuf';
import { getProtobufValueDetail } from '../core/protobuf/protobuf-value-codec';
import { openNodeInput } from '../cli/sources';
import { buildSizeHistogram, SizeHistogram } from './build-size-histogram';
import { findIndexedPart } from './find-indexed-part';
import { lightenEntry } from './read-state-page';
import type { DecodedValue } from '../core/flink';

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

describe('Protobuf values inside decoded values', () => {
  const codec = Object.create(ProtobufValueCodec.prototype) as ProtobufValueCodec;
  const frame = (tag: number, by: ValueCodec = codec): ValueFrame => ({
    kind: 'frame',
    format: 'protobuf',
    codec: by,
    bytes: new Uint8Array([0, 0, 0, tag]),
    start: 0,
    payloadStart: 4,
    end: 4,
    length: tag,
    offset: 100,
    file: undefined,
  });

  it('finds the frames inside lists, TTL wrappers, tuples, POJOs and maps, in read order, and only those of Protobuf codecs', () => {
    const other: ValueCodec = { decode: () => ({ kind: 'null' }) };
    const value: DecodedValue = {
      kind: 'list',
      items: [
        { kind: 'ttl', lastAccessTimestamp: '1', value: frame(0) },
        { kind: 'tuple', className: 'T', fields: [frame(1), { kind: 'null' }, frame(9, other)] },
        { kind: 'pojo', className: 'P', fields: [{ name: 'x', value: frame(2) }] },
        { kind: 'map', entries: [{ key: frame(3), value: frame(4) }] },
      ],
    };
    expect(listProtobufFrames(value).map((f) => f.length)).toEqual([0, 1, 2, 3, 4]);
    expect(listProtobufFrames(null)).toEqual([]);
    expect(listProtobufFrames({ kind: 'other', type: 'skipped value', text: '' })).toEqual([]);
  });

  it("a decoded message keeps the decoder's detail to itself: not in structured clones, JSON, Object.entries or a page row", async () => {
    const dir = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    let entry: StateEntry | undefined;
    for await (const e of readStateEntries(await openNodeInput(dir), registry, { operatorId: 'int-keyed', state: 'last-event', limit: 1 })) entry = e;
    const value = entry!.value!;
    expect(value.kind).toBe('message');
    const [detail] = listProtobufValueDetails(value);
    expect(detail!.detail.typeName).toBe('fixtures.events.Event');
    expect(detail!.frame.length).toBe(4 + detail!.detail.payloadSize);
    const plain = Object.fromEntries(Object.entries(value));
    expect(structuredClone(value)).toEqual(plain);
    expect(getProtobufValueDetail(structuredClone(value))).toBeUndefined();
    expect(getProtobufValueDetail({ ...value })).toBeUndefined();
    expect(JSON.parse(JSON.stringify(value))).toEqual(JSON.parse(JSON.stringify(plain)));
    const light = lightenEntry(entry!);
    expect(light.value).toEqual({ ...plain, json: null });
    expect(listProtobufValueDetails(light.value)).toEqual([]);
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
    expect(bins.slice(0, 4).map((b) => [b.from, b.to])).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
      [4, 8],
    ]);
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
