import type { ByteSource } from './byte-source';
import { readU32LE } from './little-endian';
import { readVarintAt, varintCursor } from './varint';

export type InputKind =
  | 'zip'
  | 'gzip'
  | 'tar'
  | 'flink-metadata'
  | 'flink-state-file'
  | 'protobuf-descriptor-set'
  | 'protobuf-source'
  | 'rocksdb-sst'
  | 'snappy-framed'
  | 'java-serialized'
  | 'bzip2'
  | 'xz'
  | 'zstd'
  | '7z'
  | 'rar'
  | 'json'
  | 'empty'
  | 'unknown';

export interface DetectedInput {
  readonly kind: InputKind;
  /** human description, e.g. "a Protobuf descriptor set" */
  readonly label: string;
}

const LABELS: Record<InputKind, string> = {
  zip: 'a zip archive',
  gzip: 'a gzip-compressed file (tar.gz)',
  tar: 'a tar archive',
  'flink-metadata': 'a Flink checkpoint/savepoint _metadata file',
  'flink-state-file': 'a Flink state file (one of the files next to _metadata)',
  'protobuf-descriptor-set': 'a Protobuf descriptor set',
  'protobuf-source': 'a .proto source file',
  'rocksdb-sst': 'a RocksDB SST file (native RocksDB state)',
  'snappy-framed': 'a Snappy-framed stream',
  'java-serialized': 'a Java serialization stream',
  bzip2: 'a bzip2-compressed file',
  xz: 'an xz-compressed file',
  zstd: 'a Zstandard-compressed file',
  '7z': 'a 7-Zip archive',
  rar: 'a RAR archive',
  json: 'a JSON document',
  empty: 'an empty file',
  unknown: 'an unrecognised file',
};

/** RocksDB table footers end with a fixed64 magic number (little-endian). */
const SST_MAGICS = [
  [0xf7, 0xcf, 0xf4, 0x85, 0xb7, 0x41, 0xe2, 0x88], // block-based table 0x88e241b785f4cff7
  [0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb], // legacy block-based 0xdb4775248b80fb57
  [0x64, 0x95, 0xbf, 0x63, 0x96, 0x22, 0x42, 0x82], // plain table 0x8242229663bf9564
];

/**
 * Sniffs what an input is from its first 512 bytes (and its last 8 for RocksDB SST footers), so that
 * a wrong file gets a specific message ("This looks like a Protobuf descriptor set, not a
 * savepoint") instead of a decode error deep inside a parser. Reads at most 520 bytes.
 */
export async function detectInputKind(source: ByteSource): Promise<DetectedInput> {
  if (source.size === 0) return detected('empty');
  const head = await source.read(0, Math.min(512, source.size));
  const tail = source.size >= 16 ? await source.read(source.size - 8, 8) : new Uint8Array(0);
  return detected(classify(head, tail, source.size));
}

function detected(kind: InputKind): DetectedInput {
  return { kind, label: LABELS[kind] };
}

function classify(h: Uint8Array, tail: Uint8Array, size: number): InputKind {
  const starts = (...bytes: number[]): boolean => bytes.every((b, i) => h[i] === b);
  if (h.length >= 4 && readU32LE(h, 0) === 0x2d676049) return 'flink-metadata'; // 49 60 67 2D
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06) || starts(0x50, 0x4b, 0x07, 0x08)) return 'zip';
  if (starts(0x1f, 0x8b)) return 'gzip';
  if (h.length >= 262 && String.fromCharCode(...h.subarray(257, 262)) === 'ustar') return 'tar';
  if (starts(0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59)) return 'snappy-framed';
  if (starts(0x42, 0x5a, 0x68)) return 'bzip2';
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return 'xz';
  if (starts(0x28, 0xb5, 0x2f, 0xfd)) return 'zstd';
  if (starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) return '7z';
  if (starts(0x52, 0x61, 0x72, 0x21, 0x1a, 0x07)) return 'rar';
  if (starts(0xac, 0xed, 0x00, 0x05)) return 'java-serialized';
  if (tail.length === 8 && SST_MAGICS.some((m) => m.every((b, i) => tail[i] === b))) return 'rocksdb-sst';
  if (looksLikeFlinkStateFile(h)) return 'flink-state-file';
  if (looksLikeDescriptorSet(h, size)) return 'protobuf-descriptor-set';
  const text = asText(h);
  if (text !== undefined) {
    const t = text.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) return 'json';
    if (/^\s*(\/\/.*\n\s*|\/\*[\s\S]*?\*\/\s*)*(syntax|edition|package)\s*=?\s*/.test(text) && /\b(message|syntax|edition)\b/.test(text))
      return 'protobuf-source';
  }
  return 'unknown';
}

/** Keyed/operator state files open with the proxy version (5 or 6), a bool, then Java class names. */
function looksLikeFlinkStateFile(h: Uint8Array): boolean {
  if (h.length < 16 || h[0] !== 0 || h[1] !== 0 || h[2] !== 0 || (h[3] !== 5 && h[3] !== 6)) return false;
  return String.fromCharCode(...h.subarray(0, Math.min(h.length, 256))).includes('org.apache.flink');
}

/**
 * FileDescriptorSet = repeated FileDescriptorProto file = 1 → `0A len` then the file's own fields,
 * which start with `0A len "name.proto"` (or `12 len "package"`). A bare FileDescriptorProto starts
 * directly with the name. Heuristic: the length varints fit the file and a name ends in ".proto".
 */
function looksLikeDescriptorSet(h: Uint8Array, size: number): boolean {
  if (h[0] !== 0x0a) return false;
  const outer = readVarint(h, 1);
  if (outer === undefined || outer.value === 0 || outer.next + outer.value > size) return false;
  if (isProtoName(h, 1)) return true; // bare FileDescriptorProto
  if (h[outer.next] !== 0x0a) return false;
  return isProtoName(h, outer.next + 1);
}

function isProtoName(h: Uint8Array, lenAt: number): boolean {
  const len = readVarint(h, lenAt);
  if (len === undefined || len.value < 7 || len.value > 4096 || len.next + len.value > h.length) return false;
  const name = h.subarray(len.next, len.next + len.value);
  if (!name.every((b) => b >= 0x20 && b < 0x7f)) return false;
  return String.fromCharCode(...name).endsWith('.proto');
}

/** A length varint of at most 5 bytes inside the header, and where it ends. */
function readVarint(h: Uint8Array, at: number): { value: number; next: number } | undefined {
  const value = readVarintAt(h, at, h.length, 5);
  return value < 0 ? undefined : { value, next: varintCursor.next };
}

function asText(h: Uint8Array): string | undefined {
  for (const b of h) if (b < 0x09 || (b > 0x0d && b < 0x20)) return undefined;
  return String.fromCharCode(...h);
}
