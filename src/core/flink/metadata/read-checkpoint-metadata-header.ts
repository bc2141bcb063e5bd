/**
 * Reads the `_metadata` prefix: magic and format version. A wrong magic is reported as
 * "not a Flink _metadata file", naming what the bytes look like when that is recognisable.
 */
import type { ByteReader } from '../../io';

export const METADATA_MAGIC = 0x4960672d;
export const MIN_METADATA_VERSION = 2;
export const MAX_METADATA_VERSION = 7;

export function readCheckpointMetadataHeader(r: ByteReader): number {
  if (r.remaining < 4) {
    const what = r.remaining === 0 ? 'an empty file' : `only ${r.remaining} byte${r.remaining === 1 ? '' : 's'}`;
    throw r.error('not-recognised', `not a Flink _metadata file: expected the magic number 0x4960672d, found ${what}`, 0);
  }
  const magic = r.readU32('magic number');
  if (magic !== METADATA_MAGIC) {
    const kind = describeForeignBytes(r.bytes);
    const found = `0x${magic.toString(16).padStart(8, '0')}`;
    if (kind !== undefined) {
      throw r.error('wrong-file-kind', `not a Flink _metadata file: expected the magic number 0x4960672d, found ${found}; the bytes look like ${kind}`, 0);
    }
    throw r.error('not-recognised', `not a Flink _metadata file: expected the magic number 0x4960672d, found ${found}`, 0);
  }
  const versionAt = r.position;
  const version = r.readI32('metadata format version');
  if (version === 1) {
    throw r.error(
      'unsupported-version',
      `_metadata format version ${version} was written by Flink ≤ 1.2, not supported (this reader supports versions ${MIN_METADATA_VERSION}–${MAX_METADATA_VERSION})`,
      versionAt,
    );
  }
  if (version < MIN_METADATA_VERSION || version > MAX_METADATA_VERSION) {
    throw r.error(
      'unsupported-version',
      `unsupported _metadata format version ${version}: this reader supports versions ${MIN_METADATA_VERSION}–${MAX_METADATA_VERSION} (Flink 1.3 to 2.x)`,
      versionAt,
    );
  }
  return version;
}

/** What a non-`_metadata` input looks like, when recognisable from its first or last bytes. */
export function describeForeignBytes(b: Uint8Array): string | undefined {
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) return 'a zip archive (open the archive instead of a file inside it)';
  if (starts(0x1f, 0x8b)) return 'a gzip-compressed file (e.g. a .tar.gz archive)';
  if (b.length >= 262 && ascii(b, 257, 5) === 'ustar') return 'a tar archive';
  if (starts(0xac, 0xed, 0x00, 0x05)) return 'a Java serialization stream';
  if (starts(0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59)) return 'a Snappy framed stream';
  if (isRocksDbSst(b)) return 'a RocksDB SST file (a state file of a native savepoint or checkpoint)';
  if (ascii(b, 0, 9) === 'MANIFEST-' || ascii(b, 0, 31) === '# This is a RocksDB option file') return 'a RocksDB text file (CURRENT/OPTIONS)';
  if (looksLikeDescriptorSet(b)) return 'a Protobuf descriptor set (FileDescriptorSet)';
  if (b[0] === 0x7b || b[0] === 0x5b) return 'a JSON document';
  return undefined;
}

function ascii(b: Uint8Array, start: number, n: number): string {
  if (b.length < start + n) return '';
  let s = '';
  for (let i = start; i < start + n; i++) s += String.fromCharCode(b[i]!);
  return s;
}

/** Block-based table magic 0x88e241b785f4cff7, stored little-endian in the last 8 bytes. */
function isRocksDbSst(b: Uint8Array): boolean {
  const magic = [0xf7, 0xcf, 0xf4, 0x85, 0xb7, 0x41, 0xe2, 0x88];
  if (b.length < 48) return false;
  return magic.every((v, i) => b[b.length - 8 + i] === v);
}

/** FileDescriptorSet: field 1 (LEN) holding a FileDescriptorProto whose field 1 is a `.proto` name. */
function looksLikeDescriptorSet(b: Uint8Array): boolean {
  if (b[0] !== 0x0a) return false;
  let i = 1;
  while (i < b.length && i < 6 && (b[i]! & 0x80) !== 0) i++;
  i++;
  if (b[i] !== 0x0a) return false;
  const nameLength = b[i + 1];
  if (nameLength === undefined || nameLength >= 0x80) return false;
  return ascii(b, i + 2, nameLength).endsWith('.proto');
}
