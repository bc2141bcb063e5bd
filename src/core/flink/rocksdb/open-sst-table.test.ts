import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../io';
import { openSstTable, TYPE_DELETION, TYPE_MERGE, TYPE_VALUE, type InternalEntry } from './open-sst-table';
import { writeSstTable, type SstWriteOptions, type WrittenEntry } from './write-rocksdb-files';

const key = (kg: number, k: number) => Uint8Array.of(kg, 0, 0, 0, k >>> 8, k & 0xff);
const value = (k: number) => Uint8Array.from({ length: 10 + (k % 7) }, (_, i) => (k + i) & 0xff);

/** 100 keys in order, every 10th a deletion, every 7th a merge operand. */
function entries(): WrittenEntry[] {
  return Array.from({ length: 100 }, (_, k) => ({
    userKey: key(k >> 4, k),
    sequence: 1000 - k,
    type: k % 10 === 0 ? TYPE_DELETION : k % 7 === 0 ? TYPE_MERGE : TYPE_VALUE,
    value: k % 10 === 0 ? new Uint8Array(0) : value(k),
  }));
}

async function readAll(options: SstWriteOptions): Promise<{ entries: InternalEntry[]; table: Awaited<ReturnType<typeof openSstTable>> }> {
  const bytes = writeSstTable(entries(), options);
  const table = await openSstTable(bytesSource('000007.sst', bytes), '000007.sst');
  const out: InternalEntry[] = [];
  for await (const e of table.entries()) out.push(e);
  return { entries: out, table };
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const summary = (es: readonly { userKey: Uint8Array; sequence: number; type: number; value: Uint8Array }[]) =>
  es.map((e) => `${hex(e.userKey)}/${e.sequence}/${e.type}/${hex(e.value)}`);

describe('openSstTable', () => {
  it.each<[string, SstWriteOptions]>([
    ['one block, restart every entry, plain index (format 2)', { blockEntries: 1000, restartInterval: 1, formatVersion: 2, deltaIndex: false }],
    ['small blocks, restarts every 4 entries, delta-encoded index (format 5)', { blockEntries: 6, restartInterval: 4 }],
    ['Snappy blocks, XXH3 checksums', { blockEntries: 9, compression: 1, checksumType: 4 }],
    ['zlib blocks, xxHash checksums (format 3)', { blockEntries: 9, compression: 2, checksumType: 2, formatVersion: 3, deltaIndex: false }],
    ['a two-level (partitioned) index, xxHash64 checksums', { blockEntries: 5, indexType: 2, partitionEntries: 3, checksumType: 3 }],
  ])('gives every entry in order: %s', async (_name, options) => {
    const { entries: read } = await readAll(options);
    expect(summary(read)).toEqual(summary(entries()));
  });

  it.each<[string, SstWriteOptions]>([
    ['plain index, one restart per entry (format 2)', { blockEntries: 3, formatVersion: 2, deltaIndex: false }],
    ['delta-encoded index with restarts every 4 entries', { blockEntries: 3 }],
    ['two-level index', { blockEntries: 3, indexType: 2, partitionEntries: 2 }],
  ])('reads a user-key range by searching the index: %s', async (_name, options) => {
    const bytes = writeSstTable(entries(), options);
    const table = await openSstTable(bytesSource('t.sst', bytes), 't.sst');
    const all = entries();
    for (const [from, to] of [
      [0, 1],
      [1, 3],
      [2, 2],
      [5, 7],
      [6, 7],
      [3, undefined],
      [undefined, 2],
    ] as const) {
      const range = { ...(from === undefined ? {} : { from: Uint8Array.of(from) }), ...(to === undefined ? {} : { to: Uint8Array.of(to) }) };
      const got: InternalEntry[] = [];
      for await (const e of table.entries(range)) got.push(e);
      const want = all.filter((e) => (from === undefined || e.userKey[0]! >= from) && (to === undefined || e.userKey[0]! < to));
      expect(summary(got), `[${from}, ${to})`).toEqual(summary(want));
    }
  });

  it('reads a range with only the bytes of the blocks that may hold it (index search, windowed reads)', async () => {
    const big: WrittenEntry[] = Array.from({ length: 6000 }, (_, k) => ({
      userKey: key(k % 16, k),
      sequence: k + 1,
      type: TYPE_VALUE,
      value: value(k * 13).fill(k & 0xff),
    }));
    big.sort((a, b) => (hex(a.userKey) < hex(b.userKey) ? -1 : hex(a.userKey) > hex(b.userKey) ? 1 : 0));
    const bytes = writeSstTable(big, { blockEntries: 40 });
    let read = 0;
    const source = bytesSource('t.sst', bytes);
    const counted = await openSstTable({ ...source, read: (o: number, n: number) => ((read += n), source.read(o, n)) }, 't.sst');
    const bytesFor = async (range?: { from: Uint8Array; to: Uint8Array }) => {
      read = 0;
      let n = 0;
      for await (const b of counted.batches(range)) n += b.length;
      return { read, n };
    };
    const whole = await bytesFor();
    expect(whole.n).toBe(6000);
    const one = await bytesFor({ from: Uint8Array.of(15), to: Uint8Array.of(16) });
    expect(one.n).toBe(375);
    expect(one.read).toBeLessThan(whole.read / 4);
  });

  it('reads the properties and the range deletions', async () => {
    const start = key(2, 0);
    const end = key(3, 0);
    const { table } = await readAll({ columnFamily: { id: 4, name: 'last-event' }, rangeDeletions: [{ start, end, sequence: 2000 }] });
    expect(table.properties).toMatchObject({
      columnFamilyId: 4,
      columnFamilyName: 'last-event',
      comparator: 'leveldb.BytewiseComparator',
      entries: 101,
      rangeDeletions: 1,
      dataBlocks: 7,
      indexValueIsDeltaEncoded: true,
      indexType: 0,
    });
    expect(table.footer).toMatchObject({ formatVersion: 5, checksumType: 1 });
    expect(table.rangeTombstones.map((t) => [hex(t.start), hex(t.end), t.sequence])).toEqual([['020000000000', '030000000000', 2000]]);
  });

  it('a table of range deletions only (no data block, an empty index) reads as empty: its counts agree with its properties', async () => {
    const bytes = writeSstTable([], { rangeDeletions: [{ start: key(1, 0), end: key(2, 0), sequence: 9 }] });
    const table = await openSstTable(bytesSource('t.sst', bytes), 't.sst');
    expect(table.properties).toMatchObject({ entries: 1, rangeDeletions: 1, dataBlocks: 0 });
    const got: InternalEntry[] = [];
    for await (const e of table.entries()) got.push(e);
    expect(got).toEqual([]);
  });

  it('checks counts only after a read of the whole table: a range that passes over blocks, or stops early, is not compared', async () => {
    // 100 entries, the properties saying 101: a whole read fails, a ranged one does not
    const bytes = writeSstTable(entries(), { blockEntries: 10, properties: { 'rocksdb.num.entries': 101 } });
    const table = await openSstTable(bytesSource('t.sst', bytes), 't.sst');
    const read = async (range?: { from?: Uint8Array; to?: Uint8Array }) => {
      let n = 0;
      for await (const _ of table.entries(range)) n++;
      return n;
    };
    await expect(read()).rejects.toThrow("expected the 101 entries the table's properties count (rocksdb.num.entries), found 100 in its 10 data blocks");
    expect(await read({ from: Uint8Array.of(2) })).toBe(68);
    expect(await read({ to: Uint8Array.of(2) })).toBe(32);
  });

  it('locates the values of uncompressed blocks in the file', async () => {
    const bytes = writeSstTable(entries(), { blockEntries: 8 });
    const table = await openSstTable(bytesSource('t.sst', bytes), 't.sst');
    for await (const e of table.entries()) expect(hex(bytes.subarray(e.valueOffset, e.valueOffset + e.value.length))).toBe(hex(e.value));
  });

  it('refuses a file too short for a footer, a wrong magic and an unknown format version', async () => {
    await expect(openSstTable(bytesSource('t.sst', new Uint8Array(20)), 't.sst')).rejects.toThrow(
      'expected a RocksDB table file of at least 48 bytes (its footer), found 20 bytes — at t.sst, offset 0 (0x0)',
    );
    const bytes = writeSstTable(entries());
    const wrong = bytes.slice();
    wrong[wrong.length - 1] = 0;
    await expect(openSstTable(bytesSource('t.sst', wrong), 't.sst')).rejects.toThrow(
      /^expected the RocksDB block-based table magic 0x88e241b785f4cff7 at the end of an SST file, found 0x(e241b785f4cff7) — at t\.sst/,
    );
    const v8 = bytes.slice();
    v8[v8.length - 12] = 8;
    await expect(openSstTable(bytesSource('t.sst', v8), 't.sst')).rejects.toThrow(
      `expected a block-based table format version 1–7, found 8 — at t.sst, offset ${v8.length - 12}`,
    );
    // a format version 1–5 footer read as 6: no extended magic where 6 has it
    const v6 = bytes.slice();
    v6[v6.length - 12] = 6;
    await expect(openSstTable(bytesSource('t.sst', v6), 't.sst')).rejects.toThrow(
      /^expected the extended magic number 3e007a00 of a format version 6 table footer, found [0-9a-f]{8} — at t\.sst, offset /,
    );
  });
});
