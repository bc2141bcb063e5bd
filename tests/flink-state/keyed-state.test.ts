import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter, bytesSource, type DecodeError } from '../../src/core/io';
import { writeSnappyFramed } from '../../src/core/io/write-snappy-framed';
import { createSnapshotRegistry, type StateEntry } from '../../src/core/flink';
import { KEYED_BLOCK_WINDOW_BYTES, KEYED_SCAN_WINDOW_BYTES, readCanonicalKeyedEntryRuns } from '../../src/core/flink/keyed/read-canonical-keyed-entries';
import { readCanonicalKeyedEntries, readHeapKeyedEntries } from '../helpers/read-keyed-entries';
import { detectKeyGroupsLayout, measureLayoutProbe } from '../../src/core/flink/keyed/detect-key-groups-layout';
import { readKeyedStateHeader } from '../../src/core/flink/headers/read-keyed-state-header';
import { type KeyedStateHeader } from '../../src/core/flink/savepoint/inspection-types';
import { CLS, list, map, simple, timer, tuple, valueState, writeKeyedHeader, type StateSpec } from '../helpers/write-test-snapshots';
import { decodeErrorOfAsync } from '../helpers/decode-error-of';

const registry = createSnapshotRegistry();

/** A keyed stream: header + blocks; returns the bytes and the offsets per key group. */
function buildStream(header: ByteWriter, blocks: { keyGroup: number; bytes: Uint8Array }[], range: { start: number; end: number }) {
  const w = new ByteWriter().bytes(header.finish());
  const offsets = new Array<number>(range.end - range.start + 1).fill(0);
  for (const b of blocks) {
    offsets[b.keyGroup - range.start] = w.length;
    w.bytes(b.bytes);
  }
  return { bytes: w.finish(), offsets };
}

async function readAllEntries(
  bytes: Uint8Array,
  offsets: number[],
  range: { start: number; end: number },
  maxParallelism: number,
  heap = false,
): Promise<{ header: KeyedStateHeader; entries: StateEntry[] }> {
  const fence = offsets.filter((o) => o > 0).sort((a, b) => a - b)[0] ?? bytes.length;
  const header = readKeyedStateHeader(new ByteReader(bytes.subarray(0, fence), { file: 's' }), registry, { fence });
  const input = { operatorId: 'op', subtask: 0, maxParallelism, source: bytesSource('s', bytes), file: 's', baseOffset: 0, range, offsets };
  const entries: StateEntry[] = [];
  for await (const e of heap ? readHeapKeyedEntries(input, header) : readCanonicalKeyedEntries(input, header)) entries.push(e);
  return { header, entries };
}

const entry = (key: Uint8Array, value: Uint8Array) => new ByteWriter().i32(key.length).bytes(key).i32(value.length).bytes(value);
const flag = (key: Uint8Array) => {
  const k = key.slice();
  k[0] |= 0x80;
  return k;
};
const longKey = (prefix: number[], k: number) => new ByteWriter().bytes(prefix).i64(k).u8(0).finish();

describe('keyed state header', () => {
  it('reads version 6, compression flag, key serializer and state meta infos', () => {
    const w = writeKeyedHeader(new ByteWriter(), tuple('org.apache.flink.api.java.tuple.Tuple1', simple(CLS.long)), [
      valueState('state-name', simple(CLS.long)),
    ]);
    const h = readKeyedStateHeader(new ByteReader(w.finish()), registry, { fence: w.length });
    expect(h.keySerializer.typeLabel).toBe('Tuple1<Long>');
    expect(h.states.map((s) => [s.name, s.kind, s.backendStateType, s.serializers.VALUE_SERIALIZER!.typeLabel])).toEqual([
      ['state-name', 'VALUE', 'KEY_VALUE', 'Long'],
    ]);
    expect([h.end, h.warnings]).toEqual([w.length, []]);
  });

  it('rejects other header versions', () => {
    const e = (() => {
      try {
        readKeyedStateHeader(new ByteReader(new ByteWriter().i32(5).finish(), { file: 's' }), registry);
      } catch (x) {
        return x as DecodeError;
      }
      throw new Error('no error');
    })();
    expect(e.message).toBe(
      'expected keyed backend header version 6, found 5 (written by Flink before 1.8; not restorable by Flink ≥ 1.17 either) — at s, offset 0 (0x0)',
    );
  });

  it('recovers past an unknown value serializer using the key-group fence and marks that state', () => {
    const unknownState: StateSpec = { ...valueState('mystery', { raw: CLS.unknown, version: 1, content: (w) => w.i32(4).bytes([1, 2, 3, 4]) }) };
    const w = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [unknownState, valueState('plain', simple(CLS.string))]);
    const h = readKeyedStateHeader(new ByteReader(w.finish(), { file: 's' }), registry, { fence: w.length });
    expect(h.states.map((s) => s.name)).toEqual(['mystery', 'plain']);
    expect(h.states[0]!.serializers.VALUE_SERIALIZER).toMatchObject({ status: 'unknown', className: CLS.unknown, version: 1 });
    expect(h.states[0]!.serializers.NAMESPACE_SERIALIZER!.typeLabel).toBe('VoidNamespace');
    expect(h.states[1]!.serializers.VALUE_SERIALIZER!.typeLabel).toBe('String');
    expect(h.warnings).toEqual([`state mystery: unknown serializer snapshot ${CLS.unknown} v1 skipped by resynchronising on the header fence`]);
  });

  it('recovers past an unknown key serializer', () => {
    const w = writeKeyedHeader(new ByteWriter(), { raw: CLS.unknown, version: 2, content: (x) => x.utf('whatever') }, [valueState('v', simple(CLS.long))]);
    const h = readKeyedStateHeader(new ByteReader(w.finish()), registry, { fence: w.length });
    expect(h.keySerializer).toMatchObject({ status: 'unknown', className: CLS.unknown, version: 2 });
    expect(h.states.map((s) => s.name)).toEqual(['v']);
  });

  it('recovers when the unknown snapshot is the last thing in the header (the fence itself is where the rest starts), and names the top-level class of a nested unknown one', () => {
    // as Table/SQL operators write it: an unknown key serializer, and a timer queue whose TimerSerializer nests it, last
    const mystery = { raw: CLS.unknown, version: 3, content: (x: ByteWriter) => x.i32(1).bytes([0xac, 0xed, 0, 5]) };
    const timers: StateSpec = {
      name: '_timer_state/event_user-timers',
      type: 3,
      options: {},
      serializers: [['VALUE_SERIALIZER', timer(mystery, simple(CLS.voidNs))]],
    };
    const w = writeKeyedHeader(new ByteWriter(), mystery, [valueState('accState', mystery), timers]);
    const h = readKeyedStateHeader(new ByteReader(w.finish()), registry, { fence: w.length });
    expect(h.keySerializer).toMatchObject({ status: 'unknown', className: CLS.unknown, version: 3 });
    expect(h.states.map((s) => [s.name, s.kind, Object.entries(s.serializers).map(([k, v]) => [k, v.className, v.status])])).toEqual([
      [
        'accState',
        'VALUE',
        [
          ['VALUE_SERIALIZER', CLS.unknown, 'unknown'],
          ['NAMESPACE_SERIALIZER', CLS.voidNs, 'known'],
        ],
      ],
      ['_timer_state/event_user-timers', 'PRIORITY_QUEUE', [['VALUE_SERIALIZER', CLS.timer, 'unknown']]],
    ]);
    const timerSerializer = h.states[1]!.serializers.VALUE_SERIALIZER!;
    expect([timerSerializer.typeLabel, timerSerializer.nested.map((n) => n.className)]).toEqual([
      'TimerSerializerSnapshot of unknown MysterySerializerSnapshot',
      [CLS.unknown],
    ]);
  });

  it('without a fence an unknown serializer is an unknown-serializer error', () => {
    const w = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [valueState('m', { raw: CLS.unknown, version: 1, content: () => {} })]);
    expect(() => readKeyedStateHeader(new ByteReader(w.finish()), registry)).toThrow(`unknown serializer snapshot ${CLS.unknown} v1`);
  });
});

describe('canonical key-group blocks', () => {
  const tuple1 = tuple('org.apache.flink.api.java.tuple.Tuple1', simple(CLS.long));

  it('reads two state runs with the 0x80 flag, 1-byte prefixes and value state values', async () => {
    const header = writeKeyedHeader(new ByteWriter(), tuple1, [valueState('a', simple(CLS.long)), valueState('b', simple(CLS.string))]);
    const block = new ByteWriter().u16(0);
    block.bytes(entry(longKey([2], 0), new ByteWriter().i64(10).finish()).finish());
    block.bytes(entry(flag(longKey([2], 1)), new ByteWriter().i64(11).finish()).finish());
    block
      .u16(1)
      .bytes(entry(flag(longKey([2], 5)), new ByteWriter().stringValue('x').finish()).finish())
      .u16(0xffff);
    const range = { start: 0, end: 3 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 2, bytes: block.finish() }], range);
    const { entries } = await readAllEntries(bytes, offsets, range, 4);
    expect(entries.map((e) => [e.state, e.keyGroup, (e.key as { fields: { value: string }[] }).fields[0]!.value, e.value])).toEqual([
      ['a', 2, '0', { kind: 'long', value: '10' }],
      ['a', 2, '1', { kind: 'long', value: '11' }],
      ['b', 2, '5', { kind: 'string', value: 'x' }],
    ]);
    expect(entries[0]!.keyRange).toEqual({ offset: offsets[2]! + 2 + 4, length: 10 });
    expect(entries[0]!.valueRange).toEqual({ offset: offsets[2]! + 2 + 4 + 10 + 4, length: 8 });
  });

  it('uses 2-byte prefixes above max parallelism 128 and decodes lists with 0x2C delimiters', async () => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.int), [valueState('l', list(simple(CLS.int)), simple(CLS.voidNs), 'LIST')]);
    const key = new ByteWriter().u16(300).i32(7).u8(0).finish();
    const value = new ByteWriter().i32(1).u8(0x2c).i32(2).u8(0x2c).i32(3).finish();
    const block = new ByteWriter()
      .u16(0)
      .bytes(entry(flag(key), value).finish())
      .u16(0xffff);
    const range = { start: 256, end: 511 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 300, bytes: block.finish() }], range);
    const { entries } = await readAllEntries(bytes, offsets, range, 512);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.key).toEqual({ kind: 'int', type: 'Int', value: 7 });
    expect(entries[0]!.value).toEqual({ kind: 'list', items: [1, 2, 3].map((v) => ({ kind: 'int', type: 'Int', value: v })) });
  });

  it('reads MapState user keys and null flags', async () => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [
      valueState('m', map(simple(CLS.string), simple(CLS.long)), simple(CLS.voidNs), 'MAP'),
    ]);
    const k = (uk: string) => new ByteWriter().u8(1).i64(9).u8(0).stringValue(uk).finish();
    const block = new ByteWriter()
      .u16(0)
      .bytes(entry(k('a'), new ByteWriter().bool(false).i64(5).finish()).finish())
      .bytes(entry(flag(k('b')), new Uint8Array([1])).finish())
      .u16(0xffff);
    const range = { start: 0, end: 3 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 1, bytes: block.finish() }], range);
    const { entries } = await readAllEntries(bytes, offsets, range, 4);
    expect(entries.map((e) => [e.userKey, e.value])).toEqual([
      [
        { kind: 'string', value: 'a' },
        { kind: 'long', value: '5' },
      ],
      [{ kind: 'string', value: 'b' }, null],
    ]);
  });

  it('skips the ambiguity length suffixes when key and namespace are both variable-length', async () => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.string), [valueState('v', simple(CLS.long), simple(CLS.string))]);
    const key = new ByteWriter().u8(0).stringValue('key').u8(4).stringValue('namespace').u8(10).finish();
    const block = new ByteWriter()
      .u16(0)
      .bytes(entry(flag(key), new ByteWriter().i64(1).finish()).finish())
      .u16(0xffff);
    const range = { start: 0, end: 0 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 0, bytes: block.finish() }], range);
    const { entries } = await readAllEntries(bytes, offsets, range, 1);
    expect([entries[0]!.key, entries[0]!.namespace, entries[0]!.value]).toEqual([
      { kind: 'string', value: 'key' },
      { kind: 'string', value: 'namespace' },
      { kind: 'long', value: '1' },
    ]);
  });

  it('decodes timers from the key bytes (flipped sign bit) with an empty value', async () => {
    const pq: StateSpec = {
      name: '_timer_state/event_timer',
      type: 3,
      options: {},
      serializers: [['VALUE_SERIALIZER', timer(simple(CLS.long), simple(CLS.voidNs))]],
    };
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [pq]);
    const ts = BigInt.asIntN(64, (-(2n ** 63n) + 10n) ^ (1n << 63n));
    const key = new ByteWriter().u8(3).i64(ts).i64(42).u8(0).finish();
    const block = new ByteWriter()
      .u16(0)
      .bytes(entry(flag(key), new Uint8Array(0)).finish())
      .u16(0xffff);
    const range = { start: 0, end: 3 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 3, bytes: block.finish() }], range);
    const { entries } = await readAllEntries(bytes, offsets, range, 4);
    expect(entries[0]!.value).toEqual({
      kind: 'timer',
      timestamp: '-9223372036854775798',
      key: { kind: 'long', value: '42' },
      namespace: { kind: 'void-namespace' },
    });
    expect(entries[0]!.key).toEqual({ kind: 'long', value: '42' });
  });

  it('rejects a key whose key-group prefix differs from its block, with the key offset', async () => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [valueState('v', simple(CLS.long))]);
    const block = new ByteWriter()
      .u16(0)
      .bytes(entry(flag(longKey([1], 0)), new ByteWriter().i64(1).finish()).finish())
      .u16(0xffff);
    const range = { start: 0, end: 3 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 2, bytes: block.finish() }], range);
    const e = await decodeErrorOfAsync(() => readAllEntries(bytes, offsets, range, 4));
    expect(e.message).toBe(`expected the key-group prefix of key group 2, found 1 — at s, offset ${offsets[2]! + 2 + 4} (0x${(offsets[2]! + 6).toString(16)})`);
  });

  it('rejects an out-of-range state id', async () => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [valueState('v', simple(CLS.long))]);
    const block = new ByteWriter().u16(4).finish();
    const range = { start: 0, end: 0 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 0, bytes: block }], range);
    const e = await decodeErrorOfAsync(() => readAllEntries(bytes, offsets, range, 1));
    expect(e.detail).toBe('expected a kv-state id below 1, found 4');
    expect(e.offset).toBe(offsets[0]);
  });

  it('keeps values of unknown serializers as opaque bytes and goes on', async () => {
    const mystery = valueState('m', { raw: CLS.unknown, version: 1, content: () => {} });
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [mystery, valueState('v', simple(CLS.long))]);
    const block = new ByteWriter()
      .u16(0)
      .bytes(entry(flag(longKey([0], 1)), new Uint8Array([9, 9])).finish())
      .u16(1)
      .bytes(entry(flag(longKey([0], 2)), new ByteWriter().i64(3).finish()).finish())
      .u16(0xffff);
    const range = { start: 0, end: 0 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 0, bytes: block.finish() }], range);
    const { entries } = await readAllEntries(bytes, offsets, range, 1);
    expect(entries.map((e) => e.value)).toEqual([
      { kind: 'opaque', reason: `unknown serializer snapshot ${CLS.unknown} v1`, length: 2, base64: 'CQk=' },
      { kind: 'long', value: '3' },
    ]);
  });

  it('reads Snappy-compressed blocks (one framed stream per key group)', async () => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [valueState('v', simple(CLS.long))], true);
    const plain = (kg: number, k: number) =>
      new ByteWriter()
        .u16(0)
        .bytes(entry(flag(longKey([kg], k)), new ByteWriter().i64(k * 10).finish()).finish())
        .u16(0xffff)
        .finish();
    const range = { start: 0, end: 3 };
    const { bytes, offsets } = buildStream(
      header,
      [
        { keyGroup: 1, bytes: writeSnappyFramed(plain(1, 4), { chunks: 'compressed' }) },
        { keyGroup: 3, bytes: writeSnappyFramed(plain(3, 7), { chunks: 'uncompressed' }) },
      ],
      range,
    );
    const { header: h, entries } = await readAllEntries(bytes, offsets, range, 4);
    expect(h.compressed).toBe(true);
    expect(entries.map((e) => [e.keyGroup, e.key, e.value])).toEqual([
      [1, { kind: 'long', value: '4' }, { kind: 'long', value: '40' }],
      [3, { kind: 'long', value: '7' }, { kind: 'long', value: '70' }],
    ]);
  });
});

describe('default windows of a whole-state scan (reused buffers, a source with readInto)', () => {
  // one key group of ~1.5 MiB: 1,500 entries with 1,000-byte opaque values
  const mystery = valueState('m', { raw: CLS.unknown, version: 1, content: () => {} });
  const block = () => {
    const w = new ByteWriter().u16(0);
    for (let k = 0; k < 1500; k++) {
      const key = longKey([0], k);
      w.bytes(entry(k === 1499 ? flag(key) : key, new Uint8Array(1000).fill(k & 0xff)).finish());
    }
    return w.u16(0xffff).finish();
  };
  const scanReads = async (compressed: boolean) => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [mystery], compressed);
    const plain = block();
    const range = { start: 0, end: 0 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 0, bytes: compressed ? writeSnappyFramed(plain, { chunks: 'uncompressed' }) : plain }], range);
    const fence = offsets[0]!;
    const h = readKeyedStateHeader(new ByteReader(bytes.subarray(0, fence), { file: 's' }), registry, { fence });
    const inner = bytesSource('s', bytes);
    const reads: number[] = [];
    const source = {
      name: 's',
      size: bytes.length,
      read: (offset: number, length: number) => {
        reads.push(length);
        return inner.read(offset, length);
      },
      readInto: async (offset: number, length: number, target: Uint8Array) => {
        reads.push(length);
        target.set(await inner.read(offset, length));
        return target.subarray(0, length);
      },
    };
    const input = { operatorId: 'op', subtask: 0, maxParallelism: 1, source, file: 's', baseOffset: 0, range, offsets };
    let entries = 0;
    for await (const run of readCanonicalKeyedEntryRuns(input, h, { reuseReadBuffers: true })) for (const _ of run) entries++;
    return { reads, entries, blockBytes: bytes.length - fence };
  };

  it('streams an uncompressed block above KEYED_SCAN_WINDOW_BYTES in windows of that size, and reads a compressed one up to KEYED_BLOCK_WINDOW_BYTES whole', async () => {
    const plain = await scanReads(false);
    expect(plain.entries).toBe(1500);
    expect(plain.blockBytes).toBeGreaterThan(KEYED_SCAN_WINDOW_BYTES);
    expect(Math.max(...plain.reads)).toBe(KEYED_SCAN_WINDOW_BYTES);
    expect(plain.reads.length).toBe(2);
    const compressed = await scanReads(true);
    expect(compressed.entries).toBe(1500);
    expect(compressed.blockBytes).toBeGreaterThan(KEYED_SCAN_WINDOW_BYTES);
    expect(compressed.blockBytes).toBeLessThan(KEYED_BLOCK_WINDOW_BYTES);
    expect(compressed.reads).toEqual([compressed.blockBytes]);
  });
});

describe('heap snapshot format', () => {
  it('reads one block per key group, namespace first, List/Map bodies and timers', async () => {
    const states: StateSpec[] = [
      valueState('l', list(simple(CLS.long)), simple(CLS.voidNs), 'LIST'),
      valueState('m', map(simple(CLS.string), simple(CLS.long)), simple(CLS.voidNs), 'MAP'),
      { name: 't', type: 3, options: {}, serializers: [['VALUE_SERIALIZER', timer(simple(CLS.long), simple(CLS.voidNs))]] },
    ];
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), states);
    const block = (kg: number) => {
      const w = new ByteWriter().i32(kg);
      w.i16(1).i32(1).u8(0).i64(5).i32(2).stringValue('k').bool(false).i64(6).stringValue('n').bool(true);
      w.i16(0).i32(1).u8(0).i64(5).i32(2).i64(1).i64(2);
      w.i16(2)
        .i32(1)
        .i64(7n ^ (1n << 63n))
        .i64(5)
        .u8(0);
      return w.finish();
    };
    const range = { start: 0, end: 1 };
    const { bytes, offsets } = buildStream(
      header,
      [
        { keyGroup: 0, bytes: block(0) },
        { keyGroup: 1, bytes: new ByteWriter().i32(1).i16(0).i32(0).i16(1).i32(0).i16(2).i32(0).finish() },
      ],
      range,
    );
    const { entries } = await readAllEntries(bytes, offsets, range, 2, true);
    expect(entries.map((e) => [e.state, e.keyGroup, e.key, e.userKey, e.value])).toEqual([
      ['m', 0, { kind: 'long', value: '5' }, { kind: 'string', value: 'k' }, { kind: 'long', value: '6' }],
      ['m', 0, { kind: 'long', value: '5' }, { kind: 'string', value: 'n' }, null],
      [
        'l',
        0,
        { kind: 'long', value: '5' },
        undefined,
        {
          kind: 'list',
          items: [
            { kind: 'long', value: '1' },
            { kind: 'long', value: '2' },
          ],
        },
      ],
      [
        't',
        0,
        { kind: 'long', value: '5' },
        undefined,
        { kind: 'timer', timestamp: '7', key: { kind: 'long', value: '5' }, namespace: { kind: 'void-namespace' } },
      ],
    ]);
  });

  it('rejects a block whose key group differs from its offset slot', async () => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [valueState('v', simple(CLS.long))]);
    const range = { start: 0, end: 0 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 0, bytes: new ByteWriter().i32(9).finish() }], range);
    const e = await decodeErrorOfAsync(() => readAllEntries(bytes, offsets, range, 1, true));
    expect(e.message).toBe(`expected key group 0 at its offset, found 9 — at s, offset ${offsets[0]} (0x${offsets[0]!.toString(16)})`);
  });

  it('reads per-state Snappy chunks of a compressed heap block', async () => {
    const header = writeKeyedHeader(new ByteWriter(), simple(CLS.long), [valueState('a', simple(CLS.long)), valueState('b', simple(CLS.long))], true);
    const chunk = (id: number, v: number) => writeSnappyFramed(new ByteWriter().i16(id).i32(1).u8(0).i64(1).i64(v).finish());
    const block = new ByteWriter().i32(0).bytes(chunk(1, 20)).bytes(chunk(0, 10)).finish();
    const range = { start: 0, end: 0 };
    const { bytes, offsets } = buildStream(header, [{ keyGroup: 0, bytes: block }], range);
    const { entries } = await readAllEntries(bytes, offsets, range, 1, true);
    expect(entries.map((e) => [e.state, e.value])).toEqual([
      ['b', { kind: 'long', value: '20' }],
      ['a', { kind: 'long', value: '10' }],
    ]);
  });
});

describe('code 3/12 keyed streams: heap or RocksDB full-snapshot layout, decided from the bytes', () => {
  const header = () => writeKeyedHeader(new ByteWriter(), simple(CLS.long), [valueState('a', simple(CLS.long)), valueState('b', simple(CLS.long))]);
  const decide = (bytes: Uint8Array, offsets: number[], range: { start: number; end: number }, maxParallelism: number) => {
    const fence = offsets.filter((o) => o > 0).sort((a, b) => a - b)[0] ?? bytes.length;
    const h = readKeyedStateHeader(new ByteReader(bytes.subarray(0, fence), { file: 's' }), registry, { fence });
    const input = { operatorId: 'op', subtask: 0, maxParallelism, source: bytesSource('s', bytes), file: 's', baseOffset: 0, range, offsets };
    return detectKeyGroupsLayout(input, h, bytes.subarray(fence, fence + measureLayoutProbe(input)));
  };
  // key group 1 of max parallelism 4: key (5L) of state b, then (6L) of state a
  const fullBlock = new ByteWriter()
    .u16(1)
    .bytes(entry(flag(longKey([1], 5)), new ByteWriter().i64(50).finish()).finish())
    .u16(0)
    .bytes(entry(flag(longKey([1], 6)), new ByteWriter().i64(60).finish()).finish())
    .u16(0xffff)
    .finish();
  const heapBlock = new ByteWriter().i32(1).i16(1).i32(1).u8(0).i64(5).i64(50).i16(0).i32(0).finish();

  it('takes a block of entries with the key-group prefix, ending with FF FF, as the RocksDB full-snapshot layout and reads it with the canonical reader', async () => {
    const range = { start: 0, end: 1 };
    const { bytes, offsets } = buildStream(header(), [{ keyGroup: 1, bytes: fullBlock }], range);
    expect(decide(bytes, offsets, range, 4)).toEqual({
      layout: 'rocksdb-full',
      evidence: '2 entries of known state ids with key-group prefix 1, ending with FF FF at the block end',
    });
    const { entries } = await readAllEntries(bytes, offsets, range, 4);
    expect(entries.map((e) => [e.state, e.keyGroup, e.key, e.value])).toEqual([
      ['b', 1, { kind: 'long', value: '5' }, { kind: 'long', value: '50' }],
      ['a', 1, { kind: 'long', value: '6' }, { kind: 'long', value: '60' }],
    ]);
  });

  it('takes a block starting with its key group and a state id as the heap layout', () => {
    const range = { start: 0, end: 1 };
    const { bytes, offsets } = buildStream(
      header(),
      [
        { keyGroup: 0, bytes: new ByteWriter().i32(0).i16(0).i32(0).i16(1).i32(0).finish() },
        { keyGroup: 1, bytes: heapBlock },
      ],
      range,
    );
    expect(decide(bytes, offsets, range, 4)).toEqual({ layout: 'heap', evidence: 'i32 key group 0 then state id 0' });
  });

  it('prefers the heap layout when a heap block of key group 0 also frames as entries, unless those end exactly at the block end', () => {
    // i32 0, state id 1, count 5 … reads as state id 0, a 1-byte key [00] (prefix 0), then a value length
    const range = { start: 0, end: 0 };
    const block = new ByteWriter().i32(0).i16(1).i32(0).i16(0).i32(0).finish();
    const { bytes, offsets } = buildStream(header(), [{ keyGroup: 0, bytes: block }], range);
    expect(decide(bytes, offsets, range, 4).layout).toBe('heap');
  });

  it('takes a stream whose key-group offsets are all 0 as the RocksDB full-snapshot layout (the heap layout writes every key group)', () => {
    const range = { start: 2, end: 3 };
    const { bytes, offsets } = buildStream(header(), [], range);
    expect(decide(bytes, offsets, range, 4)).toEqual({
      layout: 'rocksdb-full',
      evidence: 'every key-group offset is 0, and the heap layout writes a block for every key group of its range',
    });
  });

  it('tells compressed blocks apart by where the Snappy stream starts', () => {
    const compressedHeader = () => writeKeyedHeader(new ByteWriter(), simple(CLS.long), [valueState('a', simple(CLS.long))], true);
    const range = { start: 1, end: 1 };
    const full = buildStream(compressedHeader(), [{ keyGroup: 1, bytes: writeSnappyFramed(fullBlock) }], range);
    expect(decide(full.bytes, full.offsets, range, 4).layout).toBe('rocksdb-full');
    const heap = buildStream(
      compressedHeader(),
      [
        {
          keyGroup: 1,
          bytes: new ByteWriter()
            .i32(1)
            .bytes(writeSnappyFramed(new ByteWriter().i16(0).i32(0).finish()))
            .finish(),
        },
      ],
      range,
    );
    expect(decide(heap.bytes, heap.offsets, range, 4).layout).toBe('heap');
  });

  it('refuses bytes that fit neither layout, saying what each expected', () => {
    const range = { start: 1, end: 1 };
    const { bytes, offsets } = buildStream(header(), [{ keyGroup: 1, bytes: new ByteWriter().u16(5).u16(0).i32(0).finish() }], range);
    let error: DecodeError | undefined;
    try {
      decide(bytes, offsets, range, 4);
    } catch (e) {
      error = e as DecodeError;
    }
    expect([error?.code, error?.offset]).toEqual(['unsupported-format', offsets[0]]);
    expect(error?.detail).toBe(
      'expected the first key-group block (key group 1) of this code 3/12 keyed handle in the heap snapshot layout or the RocksDB full-snapshot layout, found neither: ' +
        'heap layout: expected i32 key group 1 at the block start, found 327680; RocksDB full-snapshot layout: expected a kv-state id below 2, found 5',
    );
  });
});
