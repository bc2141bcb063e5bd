/**
 * A copy of the Flink 1.20 RocksDB native fixture savepoint whose one table file of operator 732aacc5…
 * (uid long-keyed), subtask 0 — 000014.sst of column family `long-last-event` — is replaced by a table of
 * `entries` entries in `blocks` data blocks, written with the core's test writer one block at a time
 * (a table of any size, 1 GB included, never held whole): Long keys in key groups 0–15 (the subtask's),
 * values the fixture's first event with a `bytes blob = 12` of `valueBytes` bytes after its fields. The
 * MANIFEST's record of the file and `_metadata`'s handle take the new size, so the savepoint is
 * consistent; only the table's size differs from the fixture's.
 */
import { closeSync, cpSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import { writeCheckpointMetadata } from '../../src/core/flink/metadata/write-checkpoint-metadata';
import { readLogRecords, readRocksDbManifest } from '../../src/core/flink/rocksdb/read-rocksdb-manifest';
import { TYPE_VALUE } from '../../src/core/flink/rocksdb/open-sst-table';
import { writeLogFile, writeSstTableTo, type WrittenEntry } from '../../src/core/flink/rocksdb/write-rocksdb-files';

export const LARGE_ROCKSDB_FIXTURE = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint');
export const LARGE_ROCKSDB_OPERATOR = '732aacc57f1a1cd4ab51694dd9eed722';
const SST = '2457a376-14ff-4c20-860f-1590b4d13ca6';
const MANIFEST = '8e74bc23-f804-4b7f-9569-e9afe27aca59';
/** the fixture's first event of subtask 0 (key group 0), its protobuf payload without the 4-byte length frame */
const EVENT =
  '081712086576656e742d323318032a0274302a02743152120900000000008037401100000000004037c058026208171717171717171772032d2e017a0a08161206706172656e7481010000000000404140a00663';

export interface LargeRocksDbOptions {
  entries: number;
  blocks: number;
  valueBytes: number;
  /** 0 none (default), 1 Snappy */
  compression?: 0 | 1;
}

function varint(v: number): number[] {
  const out: number[] = [];
  for (; v >= 0x80; v = Math.floor(v / 128)) out.push((v % 128) | 0x80);
  out.push(v);
  return out;
}

/** The value every entry carries: the framed event with a blob of `valueBytes` bytes. */
function valueOf(valueBytes: number): Uint8Array {
  const event = Buffer.from(EVENT, 'hex');
  const blob = new Uint8Array(valueBytes);
  for (let i = 0; i < blob.length; i++) blob[i] = (i * 131 + (i >> 7)) & 0xff;
  const payload = Buffer.concat([event, Uint8Array.from([(12 << 3) | 2, ...varint(valueBytes)]), blob]);
  const out = Buffer.alloc(4 + payload.length);
  out.writeInt32BE(payload.length, 0);
  payload.copy(out, 4);
  return new Uint8Array(out);
}

function* entriesOf(o: LargeRocksDbOptions): Generator<WrittenEntry> {
  const value = valueOf(o.valueBytes);
  const perGroup = Math.ceil(o.entries / 16);
  for (let i = 0; i < o.entries; i++) {
    // key group, the Long key, the VoidNamespace byte
    const key = new Uint8Array(10);
    key[0] = Math.floor(i / perGroup);
    new DataView(key.buffer).setBigInt64(1, 1_000_000_000_000n + BigInt(i));
    yield { userKey: key, sequence: 100 + i, type: TYPE_VALUE, value };
  }
}

/** The MANIFEST with file `number`'s recorded size replaced (its records rewritten as a new log). */
function withTableSize(manifest: Uint8Array, name: string, number: number, size: number): Uint8Array {
  const version = readRocksDbManifest(manifest, name);
  const live = [...version.columnFamilies.values()].map((cf) => cf.files.get(number)).find((f) => f !== undefined);
  if (!live) throw new Error(`expected file ${number} in ${name}`);
  const records = [...readLogRecords(manifest, name)].map((r) => {
    if (live.at < r.offset || live.at >= r.offset + r.data.length) return r.data;
    // the number's varint, then the size's
    let p = live.at - r.offset;
    while (r.data[p]! & 0x80) p++;
    const start = p + 1;
    let end = start;
    while (r.data[end]! & 0x80) end++;
    return Uint8Array.from([...r.data.subarray(0, start), ...varint(size), ...r.data.subarray(end + 1)]);
  });
  return writeLogFile(records);
}

/** Writes the savepoint folder `to` (replaced if there); returns the table file's size. */
export function writeLargeRocksDbSavepoint(to: string, options: LargeRocksDbOptions): number {
  cpSync(LARGE_ROCKSDB_FIXTURE, to, { recursive: true });
  const perBlock = Math.ceil(options.entries / options.blocks);
  const fd = openSync(path.join(to, SST), 'w');
  let size: number;
  try {
    size = writeSstTableTo(entriesOf(options), (chunk) => void writeSync(fd, chunk), {
      blockEntries: perBlock,
      restartInterval: 16,
      compression: options.compression ?? 0,
      columnFamily: { id: 1, name: 'long-last-event' },
    });
  } finally {
    closeSync(fd);
  }
  const manifestFile = path.join(to, MANIFEST);
  writeFileSync(manifestFile, withTableSize(new Uint8Array(readFileSync(manifestFile)), MANIFEST, 14, size));
  const bytes = new Uint8Array(readFileSync(path.join(to, '_metadata')));
  const metadata = readCheckpointMetadata(bytes, '_metadata');
  const trailer = bytes.subarray(metadata.properties!.trailerOffset!);
  const manifestSize = readFileSync(manifestFile).length;
  for (const op of metadata.operators) {
    for (const st of op.subtasks) {
      const h = st.managedKeyedState;
      if (h?.kind !== 'incremental') continue;
      for (const f of [...h.sharedFiles, ...h.privateFiles]) {
        if (f.handle?.kind !== 'relative-file') continue;
        if (f.handle.relativePath === SST) f.handle.size = size;
        if (f.handle.relativePath === MANIFEST) f.handle.size = manifestSize;
      }
    }
  }
  writeFileSync(path.join(to, '_metadata'), new Uint8Array([...writeCheckpointMetadata(metadata), ...trailer]));
  return size;
}
