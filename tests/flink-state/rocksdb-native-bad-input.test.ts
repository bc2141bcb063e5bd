/**
 * RocksDB native state over bad bytes: each defect of an SST file is a located DecodeError (file, offset,
 * what was expected and found), and the state it hits is marked partly read or not read, never a crash
 * and never complete. The inputs are the committed Flink 1.20 native fixture with one file changed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, openSstTable, TYPE_VALUE, writeSstTable, type WrittenEntry } from '../../src/core/flink';
import { readStateEntries } from '../helpers/read-state-entries';
import { computeMaskedCrc32c, bytesSource, type InputFile } from '../../src/core/io';
import { locateSavepoint } from '../../src/core/io/locate-savepoint';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';

const FOLDER = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint');
/** operator 732aacc5… (uid long-keyed), subtask 0: its one table file 000014.sst, of column family long-last-event */
const SST = '2457a376-14ff-4c20-860f-1590b4d13ca6';
const OPERATOR = '732aacc57f1a1cd4ab51694dd9eed722';

/** its MANIFEST (MANIFEST-000004): file 000014.sst of 1249 bytes, the number recorded at offset 295 and the size after it */
const MANIFEST = '8e74bc23-f804-4b7f-9569-e9afe27aca59';
const SST_SIZE = 1249;

function openWith(change: (bytes: Uint8Array) => Uint8Array | undefined, others: Record<string, (bytes: Uint8Array) => Uint8Array | undefined> = {}) {
  const files: InputFile[] = [];
  for (const name of readdirSync(FOLDER)) {
    const bytes = new Uint8Array(readFileSync(path.join(FOLDER, name)));
    const changed = name === SST ? change(bytes) : others[name] ? others[name](bytes) : bytes;
    if (changed) files.push({ path: `savepoint/${name}`, source: bytesSource(`savepoint/${name}`, changed) });
  }
  return locateSavepoint('savepoint', files);
}

/** The MANIFEST with 000014.sst's recorded size changed (a 2-byte varint, as 1249 is) and its log record's checksum made to match. */
function withRecordedSize(manifest: Uint8Array, size: number): Uint8Array {
  expect(size).toBeGreaterThanOrEqual(128);
  expect(size).toBeLessThan(16384);
  const c = manifest.slice();
  // the size follows the file number (14: one byte) at 295
  expect([c[295], c[296]! | ((c[297]! & 0x7f) << 7)]).toEqual([14, (SST_SIZE & 0x7f) | ((SST_SIZE >> 7) << 7)]);
  c[296] = (size & 0x7f) | 0x80;
  c[297] = size >> 7;
  // the log record holding it: masked CRC32C (4), length (2), type (1), then its payload (records follow each other in the first 32 KiB block)
  let pos = 0;
  for (;;) {
    const length = c[pos + 4]! | (c[pos + 5]! << 8);
    if (pos + 7 + length > 296) {
      new DataView(c.buffer).setUint32(pos, computeMaskedCrc32c(c.subarray(pos + 6, pos + 7 + length)), true);
      return c;
    }
    pos += 7 + length;
  }
}

/** The internal entries of the fixture's 000014.sst, as its table gives them. */
async function fixtureEntries(): Promise<WrittenEntry[]> {
  const table = await openSstTable(bytesSource(SST, new Uint8Array(readFileSync(path.join(FOLDER, SST)))), SST);
  const out: WrittenEntry[] = [];
  for await (const e of table.entries()) out.push({ userKey: e.userKey.slice(), sequence: e.sequence, type: e.type, value: e.value.slice() });
  return out;
}

/** Where a property's value starts in a table the test writer wrote (its properties block shares no key bytes). */
function propertyAt(table: Uint8Array, name: string): number {
  const at = Buffer.from(table).indexOf(Buffer.from(name, 'latin1'));
  expect(at).toBeGreaterThan(0);
  return at + name.length;
}

const LONG_LAST_EVENT = { id: 1, name: 'long-last-event' };

/** The index handle's offset in a table's footer (format 1–5: checksum type, then the meta-index and index handles as varints). */
function readFooterIndexOffset(sst: Uint8Array): number {
  const footer = sst.subarray(sst.length - 53);
  let p = 1;
  const varint = () => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const x = footer[p++]!;
      v += (x & 0x7f) * 2 ** shift;
      if ((x & 0x80) === 0) return v;
    }
  };
  varint();
  varint();
  return varint();
}

const at = (n: number) => `offset ${n} (0x${n.toString(16)})`;

function registry() {
  const r = createSnapshotRegistry();
  registerProtobufSnapshotReaders(r);
  return r;
}

/** The first data block's size: the index block's first handle (offset 0, varint size) — read from the footer's index handle. */
function firstDataBlockSize(sst: Uint8Array): number {
  // footer (53 bytes): checksum type, meta-index handle, index handle (varints)
  const footer = sst.subarray(sst.length - 53);
  let p = 1;
  const varint = (b: Uint8Array) => {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const x = b[p++]!;
      v += (x & 0x7f) * 2 ** shift;
      if ((x & 0x80) === 0) return v;
    }
  };
  varint(footer);
  varint(footer);
  const indexOffset = varint(footer);
  // the index block's first entry: shared 0, unshared n, then (delta-encoded index of format 5) the key and the handle
  const index = sst.subarray(indexOffset);
  p = 0;
  varint(index);
  const keyLength = varint(index);
  p += keyLength;
  const offset = varint(index);
  expect(offset).toBe(0);
  return varint(index);
}

/** Rewrites a block's trailer checksum (CRC32C, as this fixture's tables use) after a change to the block. */
function fixChecksum(sst: Uint8Array, size: number): void {
  const crc = computeMaskedCrc32c(sst.subarray(0, size + 1));
  new DataView(sst.buffer, sst.byteOffset).setUint32(size + 1, crc, true);
}

async function expectLongLastEventFailure(files: ReturnType<typeof openWith>, message: string): Promise<void> {
  const read = async () => {
    for await (const _ of readStateEntries(files, registry(), { operatorId: OPERATOR, state: 'long-last-event' })) void _;
  };
  await expect(read()).rejects.toThrow(message);
  const inspection = await inspectSavepoint(await openSavepoint(files), registry(), { countEntries: true });
  const state = inspection.operators.find((o) => o.id === OPERATOR)!.states.find((s) => s.name === 'long-last-event')!;
  // subtask 1's entry is read, subtask 0's three are not: partly, with the located error as the reason
  expect([state.decoded, state.entries]).toEqual(['partly', 1]);
  expect(state.decodedReason).toContain(message);
  expect(inspection.errors.map((e) => e.message)).toContainEqual(expect.stringContaining(message));
}

describe('RocksDB native state over bad SST files', () => {
  it('reads the unchanged fixture in full (the baseline of the cases below)', async () => {
    const inspection = await inspectSavepoint(await openSavepoint(openWith((b) => b)), registry(), { countEntries: true });
    const state = inspection.operators.find((o) => o.id === OPERATOR)!.states.find((s) => s.name === 'long-last-event')!;
    expect([state.decoded, state.entries]).toEqual(['fully', 4]);
  });

  it('a checksum mismatch: the block, its offset, the checksum expected and found', async () => {
    const files = openWith((b) => {
      const c = b.slice();
      c[3] = c[3]! ^ 0xff;
      return c;
    });
    const size = firstDataBlockSize(readFileSync(path.join(FOLDER, SST)));
    const original = new Uint8Array(readFileSync(path.join(FOLDER, SST)));
    const stored = new DataView(original.buffer).getUint32(size + 1, true);
    await expectLongLastEventFailure(files, `expected the data block's CRC32C checksum 0x`);
    await expectLongLastEventFailure(files, `, found 0x${stored.toString(16).padStart(8, '0')}: the block is corrupt — at savepoint/${SST}, ${at(size + 1)}`);
  });

  it('a truncated table: the meta-index block past the end of the file', async () => {
    const original = new Uint8Array(readFileSync(path.join(FOLDER, SST)));
    const files = openWith((b) => {
      const c = new Uint8Array(20 + 53);
      c.set(b.subarray(0, 20), 0);
      c.set(b.subarray(b.length - 53), 20);
      return c;
    });
    // the meta-index handle from the footer
    const metaOffset = 1158;
    expect(original.length).toBe(1249);
    await expectLongLastEventFailure(
      files,
      `expected a meta-index block of 33 bytes and its 5-byte trailer at offset ${metaOffset}, found a 73-byte file — at savepoint/${SST}, ${at(metaOffset)}`,
    );
  });

  it('an unknown compression type (with a checksum that matches it)', async () => {
    const files = openWith((b) => {
      const c = b.slice();
      const size = firstDataBlockSize(c);
      c[size] = 0x55;
      fixChecksum(c, size);
      return c;
    });
    const size = firstDataBlockSize(readFileSync(path.join(FOLDER, SST)));
    await expectLongLastEventFailure(
      files,
      `expected a data block compressed with none, Snappy, zlib, LZ4, LZ4HC or ZSTD, found unknown compression type 85 — at savepoint/${SST}, ${at(size)}`,
    );
  });

  it('a compression type recognised but not read here (BZip2)', async () => {
    const files = openWith((b) => {
      const c = b.slice();
      const size = firstDataBlockSize(c);
      c[size] = 3;
      fixChecksum(c, size);
      return c;
    });
    await expectLongLastEventFailure(files, 'found compression type 3 (BZip2), which is not read here');
  });

  it('a plain table and a cuckoo table: recognised by their magic, refused as not block-based', async () => {
    for (const [magic, kind] of [
      ['6495bf6396224282', 'plain table (magic 0x8242229663bf9564)'],
      ['7378f1c5d0896792', 'cuckoo table (magic 0x926789d0c5f17873)'],
    ] as const) {
      const files = openWith((b) => {
        const c = b.slice();
        c.set(Buffer.from(magic, 'hex'), c.length - 8);
        return c;
      });
      await expectLongLastEventFailure(
        files,
        `expected a RocksDB block-based table, found a ${kind}: only block-based tables are read here — at savepoint/${SST}, ${at(1241)}`,
      );
    }
  });

  it('an undecodable key is located at the key, not at its value', async () => {
    // the table rewritten (uncompressed) with one entry whose key holds 3 bytes of an 8-byte Long after its key-group prefix
    const userKey = Uint8Array.of(1, 0x0a, 0x0b, 0x0c);
    const value = Uint8Array.of(0xee, 0xee, 0xee, 0xee, 0xee, 0xee);
    // as long as the table the MANIFEST and the handle record
    const table = writeSstTable([{ userKey, sequence: 5, type: TYPE_VALUE, value }], { columnFamily: LONG_LAST_EVENT, padTo: SST_SIZE });
    const internalKey = new Uint8Array([...userKey, 0x01, 5, 0, 0, 0, 0, 0, 0]);
    const keyAt = Buffer.from(table).indexOf(Buffer.from(internalKey));
    const valueAt = Buffer.from(table).indexOf(Buffer.from(value));
    expect(keyAt).toBeGreaterThan(0);
    expect(valueAt).toBe(keyAt + internalKey.length);
    const files = openWith(() => table);
    const read = async () => {
      for await (const _ of readStateEntries(files, registry(), { operatorId: OPERATOR, state: 'long-last-event' })) void _;
    };
    // the Long starts after the 1-byte key-group prefix: at keyAt + 1
    await expect(read()).rejects.toThrow(`expected 8 bytes for Long value, found 3 — at savepoint/${SST}, ${at(keyAt + 1)}`);
  });

  it("every SST file missing: the inspection names each of them once (missingFiles), though each subtask's read stops at its first", async () => {
    const isSst = (name: string) =>
      Buffer.from(readFileSync(path.join(FOLDER, name)))
        .subarray(-8)
        .toString('hex') === 'f7cff485b741e288';
    const ssts = readdirSync(FOLDER).filter(isSst).sort();
    const files = locateSavepoint(
      'savepoint',
      readdirSync(FOLDER)
        .filter((n) => !isSst(n))
        .map((n) => ({ path: `savepoint/${n}`, source: bytesSource(`savepoint/${n}`, new Uint8Array(readFileSync(path.join(FOLDER, n)))) })),
    );
    const inspection = await inspectSavepoint(await openSavepoint(files), registry(), { countEntries: true });
    expect([...inspection.missingFiles!].sort()).toEqual(ssts);
    // the reads that failed name fewer: one per subtask whose snapshot was opened
    const named = new Set(inspection.errors.filter((e) => e.code === 'missing-file').map((e) => e.missingFile));
    expect(named.size).toBeGreaterThan(0);
    expect(named.size).toBeLessThan(ssts.length);
    // a complete savepoint has none
    expect((await inspectSavepoint(await openSavepoint(openWith((b) => b)), registry(), { countEntries: true })).missingFiles).toBeUndefined();
  });

  it('an SST file the handle names is missing', async () => {
    await expectLongLastEventFailure(
      openWith(() => undefined),
      `expected state file "${SST}" next to _metadata in savepoint, found no such file: the savepoint is incomplete (copy the whole folder) — at savepoint/_metadata, offset 480 (0x1e0) [operator 732aacc5… / subtask 0 / RocksDB table 000014.sst]`,
    );
  });

  it('an index block with no entries, its checksum valid: the data blocks the properties count are missing, the state partly read', async () => {
    const entries = await fixtureEntries();
    expect(entries).toHaveLength(3);
    const table = writeSstTable(entries, { emptyIndex: true, columnFamily: LONG_LAST_EVENT, padTo: SST_SIZE });
    // the index block: the second handle of the footer (53 bytes: checksum type, meta-index handle, index handle)
    const indexOffset = readFooterIndexOffset(table);
    await expectLongLastEventFailure(
      openWith(() => table),
      `expected the 1 data blocks the table's properties count (rocksdb.num.data.blocks), found 0 through its index: the index has lost entries or names blocks that were never written — at savepoint/${SST}, ${at(indexOffset)}`,
    );
    // without the block count, the entry count says it
    const noBlockCount = writeSstTable(entries, {
      emptyIndex: true,
      columnFamily: LONG_LAST_EVENT,
      properties: { 'rocksdb.num.data.blocks': undefined },
      padTo: SST_SIZE,
    });
    await expectLongLastEventFailure(
      openWith(() => noBlockCount),
      `expected the 3 entries the table's properties count (rocksdb.num.entries), found 0 in its 0 data blocks: entries were lost from the blocks or the properties are not this table's — at savepoint/${SST}, ${at(propertyAt(noBlockCount, 'rocksdb.num.entries'))}`,
    );
  });

  it('a data block with no entries and one restart point, the properties saying 14 entries: located at the count, the state partly read', async () => {
    // the fixture's 3 entries, then a data block of none (its restart array: one offset, 0)
    const table = writeSstTable(await fixtureEntries(), {
      blockEntries: [3, 0],
      columnFamily: LONG_LAST_EVENT,
      properties: { 'rocksdb.num.entries': 14 },
      padTo: SST_SIZE,
    });
    await expectLongLastEventFailure(
      openWith(() => table),
      `expected the 14 entries the table's properties count (rocksdb.num.entries), found 3 in its 2 data blocks: entries were lost from the blocks or the properties are not this table's — at savepoint/${SST}, ${at(propertyAt(table, 'rocksdb.num.entries'))}`,
    );
  });

  it('entries whose bytes disagree with rocksdb.raw.key.size or raw.value.size', async () => {
    const entries = await fixtureEntries();
    const keys = entries.reduce((n, e) => n + e.userKey.length + 8, 0);
    const values = entries.reduce((n, e) => n + e.value.length, 0);
    const shortKeys = writeSstTable(entries, { columnFamily: LONG_LAST_EVENT, properties: { 'rocksdb.raw.key.size': keys + 8 }, padTo: SST_SIZE });
    await expectLongLastEventFailure(
      openWith(() => shortKeys),
      `expected ${keys + 8} bytes of internal keys over the table's entries (rocksdb.raw.key.size), found ${keys}: entries were changed or lost though every checksum held, or the properties are not this table's — at savepoint/${SST}, ${at(propertyAt(shortKeys, 'rocksdb.raw.key.size'))}`,
    );
    const shortValues = writeSstTable(entries, { columnFamily: LONG_LAST_EVENT, properties: { 'rocksdb.raw.value.size': values - 1 }, padTo: SST_SIZE });
    await expectLongLastEventFailure(
      openWith(() => shortValues),
      `expected ${values - 1} bytes of values over the table's entries (rocksdb.raw.value.size), found ${values}: `,
    );
  });

  it('an index type not read here is refused by name, an unknown one as RocksDB refuses it', async () => {
    const entries = await fixtureEntries();
    const unknown = writeSstTable(entries, { columnFamily: LONG_LAST_EVENT, indexType: 99, padTo: SST_SIZE });
    await expectLongLastEventFailure(
      openWith(() => unknown),
      `expected a table with a binary search (0), two-level partitioned (2) or binary search with first key (3) index (its property rocksdb.block.based.table.index.type), found index type 99, which RocksDB does not know either (its reader fails with "Unrecognized index type: 99") — at savepoint/${SST}, ${at(propertyAt(unknown, 'rocksdb.block.based.table.index.type'))}`,
    );
    const hash = writeSstTable(entries, { columnFamily: LONG_LAST_EVENT, indexType: 1, padTo: SST_SIZE });
    await expectLongLastEventFailure(
      openWith(() => hash),
      `found index type 1, a hash search (kHashSearch) index, which is not read here — at savepoint/${SST}, ${at(propertyAt(hash, 'rocksdb.block.based.table.index.type'))}`,
    );
  });

  it("a table file whose size is not the MANIFEST's, or not the handle's: located at the end of the shorter, the table not read", async () => {
    // the fixture's table, the MANIFEST recording 1300 bytes
    await expectLongLastEventFailure(
      openWith((b) => b, { [MANIFEST]: (m) => withRecordedSize(m, 1300) }),
      `expected a table file of 1300 bytes (as MANIFEST-000004 records it), found ${SST_SIZE} bytes: the file is cut short or not the table MANIFEST-000004 names — at savepoint/${SST}, ${at(SST_SIZE)}`,
    );
    // the same entries in a longer table, the MANIFEST agreeing, _metadata's handle not
    const table = writeSstTable(await fixtureEntries(), { columnFamily: LONG_LAST_EVENT, padTo: 1300 });
    await expectLongLastEventFailure(
      openWith(() => table, { [MANIFEST]: (m) => withRecordedSize(m, 1300) }),
      `expected a table file of ${SST_SIZE} bytes (as the savepoint's state handle records it), found 1300 bytes: the file is longer than the one written or not the table the savepoint's state handle names — at savepoint/${SST}, ${at(SST_SIZE)}`,
    );
  });

  it('a table of another column family: located at its column family name property', async () => {
    const table = writeSstTable(await fixtureEntries(), { columnFamily: { id: 1, name: 'other-state' }, padTo: SST_SIZE });
    await expectLongLastEventFailure(
      openWith(() => table),
      `expected table file 000014.sst of column family "long-last-event" (as MANIFEST-000004 says), found one of column family "other-state" — at savepoint/${SST}, ${at(propertyAt(table, 'rocksdb.column.family.name'))}`,
    );
  });

  it('CURRENT naming a MANIFEST the handle does not hold: located at CURRENT', async () => {
    const currents = readdirSync(FOLDER).filter((n) => readFileSync(path.join(FOLDER, n), 'latin1') === 'MANIFEST-000004\n');
    expect(currents.length).toBeGreaterThan(1);
    const files = openWith((b) => b, Object.fromEntries(currents.map((n) => [n, () => new TextEncoder().encode('MANIFEST-000009\n')])));
    const read = async () => {
      for await (const _ of readStateEntries(files, registry(), { operatorId: OPERATOR, state: 'long-last-event' })) void _;
    };
    const error = await read().then(
      () => undefined,
      (e: Error) => e.message,
    );
    const m =
      /^expected the RocksDB file MANIFEST-000009 \(the MANIFEST CURRENT names\) among the \d+ files of operator 732aacc5… subtask 0's incremental keyed handle, found none — at savepoint\/([0-9a-f-]{36}), offset 0 \(0x0\)/.exec(
        error ?? '',
      );
    expect(m, error).not.toBeNull();
    expect(currents).toContain(m![1]);
  });
});
