import { strFromU8 } from 'fflate';
import type { ByteSource } from './byte-source';
import { DecodeError, type DecodeErrorCode } from './decode-error';
import { readU16LE, readU32LE, readU64LE } from './little-endian';

/** One central-directory record of a zip, sizes and offsets already widened by Zip64 fields. */
export interface ZipEntryRecord {
  readonly rawName: string;
  readonly flags: number;
  readonly method: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
  readonly isDirectory: boolean;
  /** offset of this record in the zip, for error messages */
  readonly recordOffset: number;
}

export interface ZipCentralDirectory {
  readonly entries: readonly ZipEntryRecord[];
  readonly zip64: boolean;
  readonly centralDirectoryOffset: number;
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CD_SIG = 0x02014b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** the central directory is read in one piece; bigger ones are refused */
const MAX_CENTRAL_DIRECTORY_BYTES = 256 * 1024 * 1024;

/**
 * Reads a zip's central directory by random access: the end-of-central-directory record from the
 * last 64 KiB + 22 bytes, the Zip64 locator/record when present, then the directory itself.
 * Reads O(central directory) bytes, never the entries' data.
 */
export async function readZipCentralDirectory(zip: ByteSource, maxEntries: number): Promise<ZipCentralDirectory> {
  const fail = (code: DecodeErrorCode, detail: string, offset?: number): DecodeError =>
    new DecodeError({ code, detail, file: zip.name, ...(offset === undefined ? {} : { offset }) });

  const tailLen = Math.min(zip.size, EOCD_SIZE + MAX_COMMENT);
  const tailStart = zip.size - tailLen;
  const tail = await zip.read(tailStart, tailLen);
  // The last signature whose comment length reaches exactly the end wins (a comment may itself
  // contain PK\x05\x06); failing that, the last signature found (trailing bytes, or truncation).
  let eocdAt = -1;
  for (let i = tail.length - 4; i >= 0; i--) {
    if (readU32LE(tail, i) !== EOCD_SIG) continue;
    if (eocdAt < 0) eocdAt = i;
    if (i + EOCD_SIZE <= tail.length && i + EOCD_SIZE + readU16LE(tail, i + 20) === tail.length) {
      eocdAt = i;
      break;
    }
  }
  if (eocdAt < 0) {
    throw fail(
      'corrupt-archive',
      `expected a zip end-of-central-directory record (PK\\x05\\x06) in the last ${tailLen} bytes, found none: the zip is truncated or damaged`,
      tailStart,
    );
  }
  const eocdOffset = tailStart + eocdAt;
  if (tail.length - eocdAt < EOCD_SIZE) {
    throw fail('truncated', `expected ${EOCD_SIZE} bytes for the zip end-of-central-directory record, found ${tail.length - eocdAt}`, eocdOffset);
  }
  const diskNumber = readU16LE(tail, eocdAt + 4);
  const cdDisk = readU16LE(tail, eocdAt + 6);
  let count = readU16LE(tail, eocdAt + 10);
  let cdSize = readU32LE(tail, eocdAt + 12);
  let cdOffset = readU32LE(tail, eocdAt + 16);
  if (diskNumber !== 0 || cdDisk !== 0) {
    throw fail('unsupported-format', `expected a single-part zip, found a multi-part (spanned) archive (disk ${diskNumber}); join the parts first`, eocdOffset);
  }

  let zip64 = false;
  const locatorOffset = eocdOffset - 20;
  const mayBeZip64 = count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff;
  if (locatorOffset >= 0) {
    const loc = locatorOffset >= tailStart ? tail.subarray(locatorOffset - tailStart, locatorOffset - tailStart + 20) : await zip.read(locatorOffset, 20);
    if (readU32LE(loc, 0) === ZIP64_LOCATOR_SIG) {
      zip64 = true;
      const recOffset = readU64LE(loc, 8);
      if (recOffset === undefined || recOffset + 56 > locatorOffset) {
        throw fail(
          'corrupt-archive',
          `expected the Zip64 end-of-central-directory record before the locator (offset < ${locatorOffset}), found offset ${recOffset ?? 'beyond 2^53'}`,
          locatorOffset + 8,
        );
      }
      const rec = await zip.read(recOffset, 56);
      if (readU32LE(rec, 0) !== ZIP64_EOCD_SIG) {
        throw fail(
          'bad-magic',
          `expected the Zip64 end-of-central-directory signature PK\\x06\\x06, found 0x${readU32LE(rec, 0).toString(16).padStart(8, '0')}`,
          recOffset,
        );
      }
      const c64 = readU64LE(rec, 32);
      const s64 = readU64LE(rec, 40);
      const o64 = readU64LE(rec, 48);
      if (c64 === undefined || s64 === undefined || o64 === undefined) {
        throw fail('limit-exceeded', 'expected Zip64 entry count, directory size and offset below 2^53, found larger values', recOffset + 32);
      }
      count = c64;
      cdSize = s64;
      cdOffset = o64;
    } else if (mayBeZip64) {
      throw fail(
        'corrupt-archive',
        'expected a Zip64 end-of-central-directory locator (the record holds 0xFFFF/0xFFFFFFFF placeholders), found none',
        locatorOffset,
      );
    }
  }

  const cdEnd = zip64 ? locatorOffset : eocdOffset;
  if (cdOffset + cdSize > cdEnd) {
    throw fail(
      'truncated',
      `expected the central directory (${cdSize} bytes at offset ${cdOffset}) before offset ${cdEnd}, found it runs past it: the zip is truncated or damaged`,
      eocdOffset,
    );
  }
  if (cdSize > MAX_CENTRAL_DIRECTORY_BYTES) {
    throw fail('limit-exceeded', `expected a central directory of at most ${MAX_CENTRAL_DIRECTORY_BYTES} bytes, found ${cdSize}`, eocdOffset);
  }
  if (count > maxEntries) {
    throw fail('limit-exceeded', `expected at most ${maxEntries} zip entries, found ${count}`, eocdOffset);
  }
  if (count * 46 > cdSize) {
    throw fail('corrupt-archive', `expected ${count} central-directory records (at least ${count * 46} bytes), found a ${cdSize}-byte directory`, eocdOffset);
  }
  const cd = await zip.read(cdOffset, cdSize);
  const entries: ZipEntryRecord[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    const at = cdOffset + p;
    if (cd.length - p < 46) throw fail('truncated', `expected 46 bytes for central-directory record ${i + 1} of ${count}, found ${cd.length - p}`, at);
    const sig = readU32LE(cd, p);
    if (sig !== CD_SIG)
      throw fail(
        'bad-magic',
        `expected central-directory record ${i + 1} of ${count} (signature PK\\x01\\x02), found 0x${sig.toString(16).padStart(8, '0')}`,
        at,
      );
    const nameLen = readU16LE(cd, p + 28);
    const extraLen = readU16LE(cd, p + 30);
    const commentLen = readU16LE(cd, p + 32);
    const recLen = 46 + nameLen + extraLen + commentLen;
    if (cd.length - p < recLen)
      throw fail('truncated', `expected ${recLen} bytes for central-directory record ${i + 1} of ${count}, found ${cd.length - p}`, at);
    const flags = readU16LE(cd, p + 8);
    const nameBytes = cd.subarray(p + 46, p + 46 + nameLen);
    const rawName = isAscii(nameBytes) ? decodeAscii(nameBytes) : strFromU8(nameBytes, (flags & 0x800) === 0 && !isUtf8Compatible(nameBytes));
    let compressedSize = readU32LE(cd, p + 20);
    let uncompressedSize = readU32LE(cd, p + 24);
    let localHeaderOffset = readU32LE(cd, p + 42);
    const needs = { u: uncompressedSize === 0xffffffff, c: compressedSize === 0xffffffff, o: localHeaderOffset === 0xffffffff };
    if (needs.u || needs.c || needs.o) {
      const z = readZip64Extra(cd.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen), needs);
      if (z === undefined) {
        throw fail(
          'corrupt-archive',
          `expected a Zip64 extra field with the sizes/offset of '${rawName}' (its record holds 0xFFFFFFFF placeholders), found none or a short one`,
          at,
        );
      }
      uncompressedSize = z.u ?? uncompressedSize;
      compressedSize = z.c ?? compressedSize;
      localHeaderOffset = z.o ?? localHeaderOffset;
    }
    entries.push({
      rawName,
      flags,
      method: readU16LE(cd, p + 10),
      crc32: readU32LE(cd, p + 16),
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      isDirectory: rawName.endsWith('/') || rawName.endsWith('\\'),
      recordOffset: at,
    });
    p += recLen;
  }
  return { entries, zip64, centralDirectoryOffset: cdOffset };
}

/** Zip64 extended information (header 0x0001): only the fields that hold 0xFFFFFFFF, in order. */
function readZip64Extra(extra: Uint8Array, needs: { u: boolean; c: boolean; o: boolean }): { u?: number; c?: number; o?: number } | undefined {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = readU16LE(extra, p);
    const len = readU16LE(extra, p + 2);
    if (p + 4 + len > extra.length) return undefined;
    if (id === 0x0001) {
      const out: { u?: number; c?: number; o?: number } = {};
      let q = p + 4;
      const end = p + 4 + len;
      for (const key of ['u', 'c', 'o'] as const) {
        if (!needs[key]) continue;
        if (q + 8 > end) return undefined;
        const v = readU64LE(extra, q);
        if (v === undefined) return undefined;
        out[key] = v;
        q += 8;
      }
      return out;
    }
    p += 4 + len;
  }
  return undefined;
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** An ASCII name in one call (a jar's directory holds tens of thousands; TextDecoder's per-call cost dominated): chunks keep the argument list short. */
function decodeAscii(bytes: Uint8Array): string {
  if (bytes.length <= 1024) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  let out = '';
  for (let i = 0; i < bytes.length; i += 1024) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 1024) as unknown as number[]);
  return out;
}

/** Names without the UTF-8 flag are CP437 by the ZIP specification, but most tools write UTF-8 anyway. */
function isUtf8Compatible(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return isValidUtf8(bytes);
  return true;
}

function isValidUtf8(bytes: Uint8Array): boolean {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 0 : (b & 0xe0) === 0xc0 ? 1 : (b & 0xf0) === 0xe0 ? 2 : (b & 0xf8) === 0xf0 ? 3 : -1;
    if (n < 0 || i + n >= bytes.length) return false;
    for (let k = 1; k <= n; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return false;
    i += n + 1;
  }
  return true;
}
