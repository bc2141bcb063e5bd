/**
 * Differential test against RocksDB itself: the databases under fixtures/rocksdb-databases were written by
 * frocksdbjni (the RocksDB build Flink ships; fixtures/rocksdb-writer) in phases of puts, merges with Flink's
 * merge operator, deletions, single deletions, range deletions, flushes and compactions, under every
 * compression (none, Snappy, zlib, LZ4, LZ4HC, ZSTD), checksum type (CRC32C, xxHash, xxHash64, XXH3), format
 * versions 2–7 (7 written by rocksdbjni 10.10) and both index types; each expected.json holds what RocksDB's
 * own iterator gives. The core's
 * CURRENT/MANIFEST replay, table reader and merged view must give exactly that.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource, computeMaskedCrc32c, isDecodeError, type DecodeError } from '../../src/core/io';
import { expectSameBytes } from '../helpers/expect-same-bytes';
import { mergeSstEntries } from '../../src/core/flink/rocksdb/merge-sst-entries';
import { openSstTable } from '../../src/core/flink/rocksdb/open-sst-table';
import { readRocksDbManifest } from '../../src/core/flink/rocksdb/read-rocksdb-manifest';

const ROOT = path.resolve(process.cwd(), 'fixtures/rocksdb-databases');
const cases = existsSync(ROOT) ? readdirSync(ROOT).sort() : [];

interface Expected {
  columnFamilies: Record<string, [string, string][]>;
  liveFiles: [string, number, string][];
}

describe('RocksDB databases written by RocksDB (fixtures/rocksdb-databases)', () => {
  it('covers every compression, checksum type, format versions 2–7 and both index types', () => {
    expect(cases).toEqual([
      'lz4-xxhash64-v4-partitioned',
      'lz4-xxhash64-v7',
      'lz4hc-crc32c-v3',
      'none-crc32c-v5',
      'snappy-crc32c-v5-ingested',
      'snappy-crc32c-v6-ingested',
      'snappy-xxh3-v5-compacted',
      'zlib-crc32c-v7-partitioned',
      'zlib-xxhash-v2',
      'zstd-xxh3-v5-partitioned-compacted',
      'zstd-xxh3-v6-partitioned-compacted',
    ]);
  });

  for (const name of cases) {
    it(`${name}: the live files and every live key and value are those RocksDB's iterator gives`, async () => {
      const dir = path.join(ROOT, name, 'db');
      const expected = JSON.parse(readFileSync(path.join(ROOT, name, 'expected.json'), 'utf8')) as Expected;
      const manifestName = readFileSync(path.join(dir, 'CURRENT'), 'utf8').trim();
      const version = readRocksDbManifest(new Uint8Array(readFileSync(path.join(dir, manifestName))), manifestName);
      const live = [...version.columnFamilies.values()].flatMap((cf) =>
        [...cf.files.values()].map((f): [string, number, string] => [cf.name, f.level, `${String(f.number).padStart(6, '0')}.sst`]),
      );
      const byFile = (a: [string, number, string], b: [string, number, string]) => (a[2] < b[2] ? -1 : 1);
      expect(live.sort(byFile)).toEqual([...expected.liveFiles].sort(byFile));
      // the dropped column family is gone
      expect([...version.columnFamilies.values()].map((cf) => cf.name).sort()).toEqual(['default', 'list-state', 'value-state']);
      const formatVersion = Number(/-v(\d)/.exec(name)![1]);
      for (const cf of version.columnFamilies.values()) {
        if (cf.name === 'default') continue;
        const files = [...cf.files.values()];
        const tables = await Promise.all(
          files.map((f) => {
            const file = `${String(f.number).padStart(6, '0')}.sst`;
            return openSstTable(bytesSource(file, new Uint8Array(readFileSync(path.join(dir, file)))), file);
          }),
        );
        // an ingested file (SstFileWriter) names no column family
        for (const t of tables) expect(t.properties.columnFamilyName ?? (t.properties.externalFileVersion === 2 ? cf.name : undefined)).toBe(cf.name);
        // every table has the case's format version (an ingested file: SstFileWriter's, the same options)
        for (const t of tables) expect(t.footer.formatVersion, t.file).toBe(formatVersion);
        // with new arrays per block and merged value, and with the blocks and merged values in reused buffers (each entry copied before the merge moves on)
        for (const reuse of [false, true]) {
          const merged: [string, string][] = [];
          for await (const batch of mergeSstEntries(
            tables.map((t, i) => t.liveCursor(files[i]!.largestSequence, undefined, { reuseBlocks: reuse })),
            tables.flatMap((t, i) => t.liveTombstones(files[i]!.largestSequence)),
            reuse,
          ))
            for (const m of batch) merged.push([Buffer.from(m.userKey).toString('hex'), Buffer.from(m.value).toString('hex')]);
          expect(merged, `${cf.name}, reused buffers: ${reuse}`).toEqual(expected.columnFamilies[cf.name]);
        }
      }
    });
  }
});

describe('format version 6 footers and context checksums (fixtures/rocksdb-databases/snappy-crc32c-v6-ingested)', () => {
  const FILE = '000008.sst';
  const original = new Uint8Array(readFileSync(path.join(ROOT, 'snappy-crc32c-v6-ingested', 'db', FILE)));
  const footerAt = original.length - 53;
  const fixed32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
  const hex32 = (n: number) => n.toString(16).padStart(8, '0');
  const at = (n: number) => `offset ${n} (0x${n.toString(16)})`;
  const open = (bytes: Uint8Array) => openSstTable(bytesSource(FILE, bytes), FILE);
  /** the file with its footer changed and the footer's CRC32C checksum made right again (RocksDB's rule, written out here) */
  function withFooter(change: (footer: Uint8Array) => void): Uint8Array {
    const bytes = original.slice();
    const footer = bytes.subarray(footerAt);
    change(footer);
    footer.fill(0, 5, 9);
    const base = fixed32(footer, 9);
    const checksum = (computeMaskedCrc32c(footer) + (base ^ footerAt)) >>> 0;
    footer.set([checksum & 0xff, (checksum >>> 8) & 0xff, (checksum >>> 16) & 0xff, checksum >>> 24], 5);
    return bytes;
  }

  it('reads the footer: CRC32C, format version 6, the meta-index right before the footer, the index handle from the meta-index', async () => {
    const table = await open(original);
    const metaIndexSize = fixed32(original, footerAt + 13);
    expect(table.footer).toMatchObject({
      formatVersion: 6,
      checksumType: 1,
      metaIndex: { offset: footerAt - 5 - metaIndexSize, size: metaIndexSize },
      baseContextChecksum: fixed32(original, footerAt + 9),
    });
    expect(table.footer.index.offset).toBeGreaterThan(0);
    // the footer's rebuilt checksum is the one RocksDB wrote
    expectSameBytes(
      withFooter(() => undefined),
      original,
    );
  });

  it('refuses a footer whose checksum does not match', async () => {
    const bytes = original.slice();
    bytes[footerAt + 20] ^= 1;
    await expect(open(bytes)).rejects.toThrow(
      new RegExp(
        `^expected the table footer's CRC32C checksum 0x[0-9a-f]{8}, found 0x${hex32(fixed32(original, footerAt + 5))}: the footer is corrupt — at ${FILE}, ${at(footerAt + 5).replace(/[()]/g, '\\$&')}$`,
      ),
    );
  });

  it('checks each block against the context of its offset: another base context checksum fails the first block read', async () => {
    const bytes = withFooter((f) => (f[9] ^= 0x10));
    const metaIndexSize = fixed32(original, footerAt + 13);
    const checksumAt = footerAt - 5 + 1;
    await expect(open(bytes)).rejects.toThrow(
      new RegExp(
        `^expected the meta-index block's CRC32C checksum 0x[0-9a-f]{8} \\(of its ${metaIndexSize} bytes and type byte\\), found 0x${hex32(fixed32(original, checksumAt))}: the block is corrupt — at ${FILE}, ${at(checksumAt).replace(/[()]/g, '\\$&')}$`,
      ),
    );
  });

  it('every byte of the meta-index, its trailer and the footer changed: a result or a located DecodeError, never a crash', async () => {
    const metaIndexSize = fixed32(original, footerAt + 13);
    const from = footerAt - 5 - metaIndexSize;
    let refused = 0;
    for (let i = from; i < original.length; i++) {
      for (const flip of [0x01, 0x80, 0xff]) {
        const bytes = original.slice();
        bytes[i] ^= flip;
        try {
          const table = await open(bytes);
          for await (const _ of table.entries()) void _;
        } catch (e) {
          expect(isDecodeError(e), `byte ${i} ^ ${flip}: ${String(e)}`).toBe(true);
          expect((e as DecodeError).file).toBe(FILE);
          expect((e as DecodeError).offset).toBeGreaterThanOrEqual(0);
          refused++;
        }
      }
    }
    // the footer's and the meta-index's checksums cover every byte but the footer's unchecked padding
    expect(refused).toBeGreaterThan(3 * (original.length - from - 16) - 3);
  });

  it('refuses the extended magic number missing, a zero base context checksum and reserved bytes in use', async () => {
    await expect(open(withFooter((f) => (f[2] = 1)))).rejects.toThrow(
      `expected the extended magic number 3e007a00 of a format version 6 table footer, found 3e017a00 — at ${FILE}, ${at(footerAt + 1)}`,
    );
    await expect(open(withFooter((f) => f.fill(0, 9, 13)))).rejects.toThrow(
      `expected a non-zero base context checksum in a format version 6 table footer, found 0 — at ${FILE}, ${at(footerAt + 9)}`,
    );
    await expect(open(withFooter((f) => (f[40] = 1)))).rejects.toThrow(
      `expected zero reserved bytes in a format version 6 table footer, found 0000000000000001: the file uses a RocksDB feature newer than this reader — at ${FILE}, ${at(footerAt + 33)}`,
    );
  });
});
