/**
 * RocksDB native state over bad bytes: each defect of an SST file is a located DecodeError (file, offset,
 * what was expected and found), and the state it hits is marked partly read or not read, never a crash
 * and never complete. The inputs are the committed Flink 1.20 native fixture with one file changed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, TYPE_VALUE, writeSstTable } from '../../src/core/flink';
import { readStateEntries } from '../../src/core/flink/scan/read-state-entries';
import { computeMaskedCrc32c, bytesSource, type InputFile } from '../../src/core/io';
import { locateSavepoint } from '../../src/core/io/locate-savepoint';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';

const FOLDER = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint');
/** operator 732aacc5… (uid long-keyed), subtask 0: its one table file 000014.sst, of column family long-last-event */
const SST = '2457a376-14ff-4c20-860f-1590b4d13ca6';
const OPERATOR = '732aacc57f1a1cd4ab51694dd9eed722';

function openWith(change: (bytes: Uint8Array) => Uint8Array | undefined) {
  const files: InputFile[] = [];
  for (const name of readdirSync(FOLDER)) {
    const bytes = new Uint8Array(readFileSync(path.join(FOLDER, name)));
    const changed = name === SST ? change(bytes) : bytes;
    if (changed) files.push({ path: `savepoint/${name}`, source: bytesSource(`savepoint/${name}`, changed) });
  }
  return locateSavepoint('savepoint', files);
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
  const inspection = await inspectSavepoint(files, registry(), { countEntries: true });
  const state = inspection.operators.find((o) => o.id === OPERATOR)!.states.find((s) => s.name === 'long-last-event')!;
  // subtask 1's entry is read, subtask 0's three are not: partly, with the located error as the reason
  expect([state.decoded, state.entries]).toEqual(['partly', 1]);
  expect(state.decodedReason).toContain(message);
  expect(inspection.errors.map((e) => e.message)).toContainEqual(expect.stringContaining(message));
}

describe('RocksDB native state over bad SST files', () => {
  it('reads the unchanged fixture in full (the baseline of the cases below)', async () => {
    const inspection = await inspectSavepoint(openWith((b) => b), registry(), { countEntries: true });
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
    await expectLongLastEventFailure(files, `expected a meta-index block of 33 bytes and its 5-byte trailer at offset ${metaOffset}, found a 73-byte file — at savepoint/${SST}, ${at(metaOffset)}`);
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
    await expectLongLastEventFailure(files, `expected a data block compressed with none, Snappy, zlib, LZ4, LZ4HC or ZSTD, found unknown compression type 85 — at savepoint/${SST}, ${at(size)}`);
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
    for (const [magic, kind] of [['6495bf6396224282', 'plain table (magic 0x8242229663bf9564)'], ['7378f1c5d0896792', 'cuckoo table (magic 0x926789d0c5f17873)']] as const) {
      const files = openWith((b) => {
        const c = b.slice();
        c.set(Buffer.from(magic, 'hex'), c.length - 8);
        return c;
      });
      await expectLongLastEventFailure(files, `expected a RocksDB block-based table, found a ${kind}: only block-based tables are read here — at savepoint/${SST}, ${at(1241)}`);
    }
  });

  it('an undecodable key is located at the key, not at its value', async () => {
    // the table rewritten (uncompressed) with one entry whose key holds 3 bytes of an 8-byte Long after its key-group prefix
    const userKey = Uint8Array.of(1, 0x0a, 0x0b, 0x0c);
    const value = Uint8Array.of(0xee, 0xee, 0xee, 0xee, 0xee, 0xee);
    const table = writeSstTable([{ userKey, sequence: 5, type: TYPE_VALUE, value }], { columnFamily: { id: 2, name: 'long-last-event' } });
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

  it('every SST file missing: the inspection names each of them once (missingFiles), though each subtask\'s read stops at its first', async () => {
    const isSst = (name: string) => Buffer.from(readFileSync(path.join(FOLDER, name))).subarray(-8).toString('hex') === 'f7cff485b741e288';
    const ssts = readdirSync(FOLDER).filter(isSst).sort();
    const files = locateSavepoint(
      'savepoint',
      readdirSync(FOLDER)
        .filter((n) => !isSst(n))
        .map((n) => ({ path: `savepoint/${n}`, source: bytesSource(`savepoint/${n}`, new Uint8Array(readFileSync(path.join(FOLDER, n)))) })),
    );
    const inspection = await inspectSavepoint(files, registry(), { countEntries: true });
    expect([...inspection.missingFiles!].sort()).toEqual(ssts);
    // the reads that failed name fewer: one per subtask whose snapshot was opened
    const named = new Set(inspection.errors.filter((e) => e.code === 'missing-file').map((e) => e.missingFile));
    expect(named.size).toBeGreaterThan(0);
    expect(named.size).toBeLessThan(ssts.length);
    // a complete savepoint has none
    expect((await inspectSavepoint(openWith((b) => b), registry(), { countEntries: true })).missingFiles).toBeUndefined();
  });

  it('an SST file the handle names is missing', async () => {
    await expectLongLastEventFailure(openWith(() => undefined), `expected state file "${SST}" next to _metadata in savepoint, found no such file: the savepoint is incomplete (copy the whole folder) — at savepoint/_metadata, offset 480 (0x1e0) [operator 732aacc5… / subtask 0 / RocksDB table 000014.sst]`);
  });
});
