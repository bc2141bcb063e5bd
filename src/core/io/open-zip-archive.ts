import type { ByteSource } from './byte-source';
import { computeCrc32 } from './compute-crc32';
import { DecodeError } from './decode-error';
import { resolveArchiveLimits, type ArchiveLimits, type ArchiveListing, type InputFile } from './input-file';
import { readU16LE, readU32LE } from './little-endian';
import { normalizeEntryPath } from './normalize-entry-path';
import { openInflatedSource } from './open-inflated-source';
import { readZipCentralDirectory, type ZipEntryRecord } from './read-zip-central-directory';
import { sliceSource } from './slice-source';

const LOCAL_SIG = 0x04034b50;
const METHOD_NAMES: Record<number, string> = {
  1: 'Shrink',
  6: 'Implode',
  9: 'Deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'Zstandard',
  95: 'xz',
  98: 'PPMd',
  99: 'AES encryption',
};

/**
 * Lists a zip (including Zip64) by random access over a ByteSource and turns each file entry into a
 * ByteSource named `<zip>!/<path>`: STORED entries read straight from the zip (no copy), DEFLATE
 * entries inflate on demand. Checks every entry against the expansion limits up front (declared
 * size, ratio, total), refuses encrypted entries and unsupported methods, and drops (with a warning)
 * entries whose path is absolute or contains '..'.
 *
 * Hand-written over fflate rather than @zip.js/zip.js: the central directory is ~150 lines, while
 * zip.js brings its own Reader/stream/worker machinery typed against DOM globals (the core has no
 * DOM), would not give range reads of STORED entries straight from a ByteSource, and would not
 * report failures as DecodeErrors with offsets. fflate (already pinned) does the inflating.
 */
export async function openZipArchive(zip: ByteSource, limitsIn?: Partial<ArchiveLimits>): Promise<ArchiveListing> {
  const limits = resolveArchiveLimits(limitsIn);
  const cd = await readZipCentralDirectory(zip, limits.maxEntries);
  const files: InputFile[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const e of cd.entries) {
    if (e.isDirectory) continue;
    const norm = normalizeEntryPath(e.rawName);
    if (norm.kind === 'rejected') {
      warnings.push(`ignored zip entry '${e.rawName}': ${norm.reason}`);
      continue;
    }
    if (seen.has(norm.path)) {
      warnings.push(`ignored a second zip entry named '${norm.path}' (the first one is used)`);
      continue;
    }
    seen.add(norm.path);
    checkEntry(zip, e, limits);
    total += e.uncompressedSize;
    if (total > limits.maxTotalBytes) {
      throw new DecodeError({
        code: 'limit-exceeded',
        detail: `expected the zip's entries to declare at most ${limits.maxTotalBytes} bytes in total, found at least ${total} (up to '${e.rawName}'): refusing a possible zip bomb`,
        file: zip.name,
        offset: e.recordOffset,
      });
    }
    files.push(lazyEntryFile(zip, e, norm.path));
  }
  if (total > limits.ratioFloor && total / Math.max(1, zip.size) > limits.maxRatio) {
    throw new DecodeError({
      code: 'limit-exceeded',
      detail: `expected the zip to expand at most ${limits.maxRatio}:1, found ${total} declared bytes in a ${zip.size}-byte zip: refusing a possible zip bomb`,
      file: zip.name,
      offset: cd.centralDirectoryOffset,
    });
  }
  return { kind: 'zip', name: zip.name, files, warnings };
}

/** The entry's ByteSource is made on first use: a jar's listing has tens of thousands of entries and a reader opens a few. */
function lazyEntryFile(zip: ByteSource, e: ZipEntryRecord, path: string): InputFile {
  let source: ByteSource | undefined;
  return {
    path,
    get source(): ByteSource {
      return (source ??= openEntrySource(zip, e, path));
    },
  };
}

function checkEntry(zip: ByteSource, e: ZipEntryRecord, limits: ArchiveLimits): void {
  const fail = (code: 'unsupported-format' | 'limit-exceeded' | 'truncated' | 'corrupt-archive', detail: string): DecodeError =>
    new DecodeError({ code, detail, file: zip.name, offset: e.recordOffset });
  if ((e.flags & 0x1) !== 0 || e.method === 99) {
    throw fail('unsupported-format', `zip entry '${e.rawName}' is encrypted; encrypted zips are not supported: extract it or re-zip without a password`);
  }
  if (e.method !== 0 && e.method !== 8) {
    const label = METHOD_NAMES[e.method] ? ` (${METHOD_NAMES[e.method]})` : '';
    throw fail('unsupported-format', `zip entry '${e.rawName}' uses compression method ${e.method}${label}; only STORED (0) and DEFLATE (8) are supported`);
  }
  if (e.method === 0 && e.compressedSize !== e.uncompressedSize) {
    throw fail(
      'corrupt-archive',
      `expected STORED zip entry '${e.rawName}' to have equal compressed and uncompressed sizes, found ${e.compressedSize} and ${e.uncompressedSize}`,
    );
  }
  if (e.uncompressedSize > limits.maxEntryBytes) {
    throw fail(
      'limit-exceeded',
      `zip entry '${e.rawName}' declares ${e.uncompressedSize} bytes, above the limit of ${limits.maxEntryBytes} bytes per entry: refusing a possible zip bomb`,
    );
  }
  if (e.uncompressedSize > limits.ratioFloor && e.uncompressedSize / Math.max(1, e.compressedSize) > limits.maxRatio) {
    const ratio = Math.floor(e.uncompressedSize / Math.max(1, e.compressedSize));
    throw fail(
      'limit-exceeded',
      `zip entry '${e.rawName}' declares ${e.uncompressedSize} bytes from ${e.compressedSize} compressed bytes (ratio ${ratio}:1), above the limit of ${limits.maxRatio}:1: refusing a possible zip bomb`,
    );
  }
  if (e.localHeaderOffset + 30 + e.compressedSize > zip.size) {
    throw fail(
      'truncated',
      `expected zip entry '${e.rawName}' (${e.compressedSize} bytes after a local header at offset ${e.localHeaderOffset}) inside the ${zip.size}-byte zip, found it runs past the end`,
    );
  }
}

function openEntrySource(zip: ByteSource, e: ZipEntryRecord, path: string): ByteSource {
  const name = `${zip.name}!/${path}`;
  let dataStartPromise: Promise<number> | undefined;
  const dataStart = (): Promise<number> => (dataStartPromise ??= readDataStart(zip, e));
  if (e.method === 8) {
    return openInflatedSource({ name, container: zip, dataStart, compressedSize: e.compressedSize, uncompressedSize: e.uncompressedSize, crc32: e.crc32 });
  }
  // STORED: the CRC-32 is checked as the entry is read from its start on (a read that starts at or
  // before the bytes checked so far carries the check on), so a whole-entry read or a scan that
  // reads it in order ends in an error naming the entry if it is damaged; a read past a gap is not
  // checked (random access never reads the whole entry)
  let checkedTo = 0;
  let crc = 0;
  let damaged: DecodeError | undefined;
  return {
    name,
    size: e.uncompressedSize,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > e.uncompressedSize) {
        throw new DecodeError({
          code: 'truncated',
          detail: `expected ${length} bytes at offset ${offset}, found a ${e.uncompressedSize}-byte file`,
          file: name,
          offset,
        });
      }
      if (damaged) throw damaged;
      const start = await dataStart();
      const bytes = await sliceSource(zip, start, e.compressedSize, name).read(offset, length);
      if (offset <= checkedTo && offset + bytes.length > checkedTo) {
        crc = computeCrc32(bytes.subarray(checkedTo - offset), crc);
        checkedTo = offset + bytes.length;
        if (checkedTo === e.uncompressedSize && crc !== e.crc32) {
          damaged = new DecodeError({
            code: 'corrupt-archive',
            detail: `expected CRC-32 0x${e.crc32.toString(16).padStart(8, '0')} for '${name}', found 0x${crc.toString(16).padStart(8, '0')}: the entry is damaged`,
            file: zip.name,
            offset: start,
          });
          throw damaged;
        }
      }
      return bytes;
    },
  };
}

/** Parses the entry's local header (its name/extra lengths may differ from the central record). */
async function readDataStart(zip: ByteSource, e: ZipEntryRecord): Promise<number> {
  const at = e.localHeaderOffset;
  const head = await zip.read(at, 30);
  const sig = readU32LE(head, 0);
  if (sig !== LOCAL_SIG) {
    throw new DecodeError({
      code: 'bad-magic',
      detail: `expected the local header of zip entry '${e.rawName}' (signature PK\\x03\\x04), found 0x${sig.toString(16).padStart(8, '0')}`,
      file: zip.name,
      offset: at,
    });
  }
  const start = at + 30 + readU16LE(head, 26) + readU16LE(head, 28);
  if (start + e.compressedSize > zip.size) {
    throw new DecodeError({
      code: 'truncated',
      detail: `expected zip entry '${e.rawName}' (${e.compressedSize} bytes at offset ${start}) inside the ${zip.size}-byte zip, found it runs past the end`,
      file: zip.name,
      offset: start,
    });
  }
  return start;
}
