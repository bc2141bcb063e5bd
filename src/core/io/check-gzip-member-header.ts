import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';
import { formatHex } from './format-hex';

/** how far a gzip header's file name or comment is searched for its closing NUL */
const MAX_HEADER_TEXT = 1024 * 1024;
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;
const FRESERVED = 0xe0;

/**
 * The problem with the header of gzip member #`index` starting at `start`, if it has one (RFC 1952 §2.3):
 * no 1f 8b magic (after the first member: trailing data), a method other than DEFLATE, reserved flags,
 * an FEXTRA field longer than the file, a file name or comment without its closing NUL, a header that
 * ends before its fields. Called when inflating a member failed, so that the message says what is wrong
 * and where instead of "invalid gzip data" at the start of a read window.
 */
export async function checkGzipMemberHeader(gz: ByteSource, start: number, index: number): Promise<DecodeError | undefined> {
  const what = `gzip member #${index}`;
  const fail = (detail: string, offset: number) => new DecodeError({ code: 'corrupt-compression', detail, file: gz.name, offset });
  const fixed = await gz.read(start, Math.min(10, gz.size - start));
  if (fixed.length < 2 || fixed[0] !== 0x1f || fixed[1] !== 0x8b) {
    if (index > 1) {
      return fail(
        `expected another gzip member (1f 8b) or the end of the file after member #${index - 1}, found ${gz.size - start} bytes of trailing data starting ${formatHex(fixed.subarray(0, 4), ' ')}`,
        start,
      );
    }
    return fail(`expected a gzip header (1f 8b), found ${formatHex(fixed.subarray(0, 4), ' ')}`, start);
  }
  if (fixed.length < 10) return fail(`expected the 10-byte header of ${what}, found the file ends after ${fixed.length} bytes`, start);
  if (fixed[2] !== 8) return fail(`expected ${what} to use compression method 8 (DEFLATE), found method ${fixed[2]}`, start + 2);
  const flags = fixed[3]!;
  if ((flags & FRESERVED) !== 0) return fail(`expected the reserved flag bits of ${what} to be 0, found flags 0x${formatHex([flags])}`, start + 3);
  let at = start + 10;
  if ((flags & FEXTRA) !== 0) {
    const xlen = await gz.read(at, Math.min(2, gz.size - at));
    if (xlen.length < 2) return fail(`expected the extra-field length (FEXTRA) of ${what}, found the file ends`, at);
    const length = xlen[0]! | (xlen[1]! << 8);
    if (at + 2 + length > gz.size) {
      return fail(
        `expected an extra field (FEXTRA) of ${length} bytes in the header of ${what}, found the file ends ${gz.size - at - 2} bytes after its length`,
        at,
      );
    }
    at += 2 + length;
  }
  for (const [flag, name] of [
    [FNAME, 'file name (FNAME)'],
    [FCOMMENT, 'comment (FCOMMENT)'],
  ] as const) {
    if ((flags & flag) === 0) continue;
    const end = await findNul(gz, at);
    if (end === undefined) {
      const searched = Math.min(gz.size - at, MAX_HEADER_TEXT);
      const where = searched < MAX_HEADER_TEXT ? 'before the end of the file' : `within ${MAX_HEADER_TEXT} bytes`;
      return fail(`expected the ${name} in the header of ${what} to end with a NUL byte, found none ${where}`, at);
    }
    at = end + 1;
  }
  if ((flags & FHCRC) !== 0) at += 2;
  // the smallest DEFLATE body (an empty final block) and the 8-byte trailer
  if (at + 2 + 8 > gz.size)
    return fail(`expected the compressed data and trailer of ${what} after its header, found the file ends at offset ${gz.size}`, Math.min(at, gz.size));
  return undefined;
}

async function findNul(gz: ByteSource, from: number): Promise<number | undefined> {
  const limit = Math.min(gz.size, from + MAX_HEADER_TEXT);
  for (let at = from; at < limit;) {
    const chunk = await gz.read(at, Math.min(64 * 1024, limit - at));
    const i = chunk.indexOf(0);
    if (i >= 0) return at + i;
    at += chunk.length;
    if (chunk.length === 0) break;
  }
  return undefined;
}
