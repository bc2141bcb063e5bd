import { describe, expect, it } from 'vitest';
import { computeMaskedCrc32c } from '../../io';
import { readLogRecords, readRocksDbManifest } from './read-rocksdb-manifest';
import { encodeVersionEdit, writeLogFile, type VersionEditField } from './write-rocksdb-files';

const file = (level: number, number: number, smallestSequence = 1, largestSequence = 9): VersionEditField => ({
  kind: 'new-file',
  level,
  number,
  size: 1000 + number,
  smallest: Uint8Array.of(1),
  largest: Uint8Array.of(2),
  smallestSequence,
  largestSequence,
});

function liveFiles(bytes: Uint8Array) {
  const v = readRocksDbManifest(bytes, 'MANIFEST-000004');
  return [...v.columnFamilies.values()].map((cf) => [cf.id, cf.name, [...cf.files.values()].map((f) => `L${f.level}:${f.number}`).sort()]);
}

describe('readRocksDbManifest', () => {
  it('replays column families added and dropped, files added and deleted per level', () => {
    const edits = [
      encodeVersionEdit([
        { kind: 'comparator', name: 'leveldb.BytewiseComparator' },
        { kind: 'last-sequence', value: 0 },
      ]),
      encodeVersionEdit([
        { kind: 'column-family', id: 1 },
        { kind: 'add-column-family', name: 'last-event' },
      ]),
      encodeVersionEdit([
        { kind: 'column-family', id: 2 },
        { kind: 'add-column-family', name: 'event-history' },
      ]),
      encodeVersionEdit([
        { kind: 'column-family', id: 3 },
        { kind: 'add-column-family', name: 'dropped' },
      ]),
      encodeVersionEdit([{ kind: 'column-family', id: 1 }, file(0, 10), file(0, 11), { kind: 'ignorable', tag: (1 << 13) + 1, bytes: Uint8Array.of(9, 9) }]),
      encodeVersionEdit([{ kind: 'column-family', id: 2 }, file(0, 12)]),
      encodeVersionEdit([{ kind: 'column-family', id: 3 }, file(0, 13)]),
      // a compaction: 10 and 11 into 14 at level 1
      encodeVersionEdit([
        { kind: 'column-family', id: 1 },
        { kind: 'deleted-file', level: 0, number: 10 },
        { kind: 'deleted-file', level: 0, number: 11 },
        file(1, 14),
      ]),
      encodeVersionEdit([{ kind: 'column-family', id: 3 }, { kind: 'drop-column-family' }]),
      encodeVersionEdit([{ kind: 'last-sequence', value: 77 }]),
    ];
    const bytes = writeLogFile(edits);
    expect(liveFiles(bytes)).toEqual([
      [0, 'default', []],
      [1, 'last-event', ['L1:14']],
      [2, 'event-history', ['L0:12']],
    ]);
    const v = readRocksDbManifest(bytes, 'MANIFEST-000004');
    expect([v.comparator, v.lastSequence]).toEqual(['leveldb.BytewiseComparator', 77]);
  });

  it('assembles records fragmented across 32 KiB blocks (first, middle, last), past block trailers', () => {
    const big = encodeVersionEdit([{ kind: 'comparator', name: 'x'.repeat(70000) }]);
    const small = encodeVersionEdit([
      { kind: 'column-family', id: 1 },
      { kind: 'add-column-family', name: 'a' },
    ]);
    // the first record leaves fewer than 7 bytes in its block: the writer pads, the reader skips
    const filler = encodeVersionEdit([{ kind: 'comparator', name: 'y'.repeat(32768 - 7 - 3 - 4 - 7 - 2) }]);
    const bytes = writeLogFile([filler, big, small]);
    const records = [...readLogRecords(bytes, 'MANIFEST-000004')];
    expect(records.map((r) => r.data.length)).toEqual([filler.length, big.length, small.length]);
    expect(records[1]!.data).toEqual(big);
    expect(liveFiles(bytes).map((cf) => cf[1])).toEqual(['default', 'a']);
  });

  it('refuses a corrupt record, a fragment out of order, an unknown tag and a file of a column family never added, located', () => {
    const ok = writeLogFile([
      encodeVersionEdit([
        { kind: 'column-family', id: 1 },
        { kind: 'add-column-family', name: 'a' },
      ]),
    ]);
    const corrupt = ok.slice();
    corrupt[10] = corrupt[10]! ^ 1;
    expect(() => readRocksDbManifest(corrupt, 'M')).toThrow(
      /^expected the log record checksum 0x[0-9a-f]{8}, found 0x[0-9a-f]{8}: the MANIFEST is corrupt — at M, offset 0 \(0x0\)$/,
    );
    // a middle fragment with nothing before it (its checksum right)
    const middle = Uint8Array.of(0, 0, 0, 0, 3, 0, 3, 1, 2, 3);
    new DataView(middle.buffer).setUint32(0, computeMaskedCrc32c(Uint8Array.of(3, 1, 2, 3)), true);
    expect(() => [...readLogRecords(middle, 'M')]).toThrow('expected a full or first log record fragment, found a middle one — at M, offset 0 (0x0)');
    expect(() => readRocksDbManifest(writeLogFile([Uint8Array.of(0x90, 0x03, 0)]), 'M')).toThrow(
      /^expected a VersionEdit tag Flink's RocksDB writes .*found tag 400 \(blob files: BlobDB is not read here\) — at M, offset 7 \(0x7\)$/,
    );
    expect(() => readRocksDbManifest(writeLogFile([encodeVersionEdit([{ kind: 'column-family', id: 5 }, file(0, 3)])]), 'M')).toThrow(
      'expected a VersionEdit of a live column family, found one of column family 5, which is not added or was dropped — at M, offset 7 (0x7)',
    );
    expect(() => readRocksDbManifest(ok.subarray(0, 12), 'M')).toThrow(
      'expected a 7-byte log record fragment within its 32 KiB block, found it running past the end of the file — at M, offset 0 (0x0)',
    );
  });
});
