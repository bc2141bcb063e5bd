import { strFromU8 } from 'fflate';
import { DecodeError } from './decode-error';

/** Forward-only access to a tar stream: offsets never go backwards between calls. */
export interface TarCursor {
  readonly name: string;
  /** bytes [offset, offset + length), fewer when the stream ends first */
  read(offset: number, length: number): Promise<Uint8Array>;
}

export type TarWalkItem =
  | { kind: 'file'; rawPath: string; dataOffset: number; size: number; headerOffset: number }
  | { kind: 'skipped'; rawPath: string; reason: string }
  | { kind: 'warning'; message: string };

const BLOCK = 512;
const MAX_LONG_NAME = 64 * 1024;
const MAX_PAX = 1024 * 1024;

/**
 * Walks the members of a tar stream (ustar, GNU long names 'L', pax 'x' `path` and `size` records — a pax size
 * overrides the header's, as for members of 8 GiB or more that GNU tar writes with pax) reading only
 * headers and the small meta members; file data is skipped, the caller reads it from dataOffset.
 * Directories are dropped silently; links and devices are reported as skipped.
 */
export async function* walkTarMembers(cursor: TarCursor, maxEntries: number): AsyncGenerator<TarWalkItem> {
  const fail = (code: 'truncated' | 'corrupt-archive' | 'limit-exceeded', detail: string, offset: number): DecodeError =>
    new DecodeError({ code, detail, file: cursor.name, offset });
  let pos = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  let paxSize: number | undefined;
  let count = 0;
  for (;;) {
    const header = await cursor.read(pos, BLOCK);
    if (header.length === 0) {
      yield { kind: 'warning', message: `tar ${cursor.name} ends without its end-of-archive blocks (it may be truncated)` };
      return;
    }
    if (header.length < BLOCK) throw fail('truncated', `expected a 512-byte tar header, found ${header.length} bytes`, pos);
    if (header.every((b) => b === 0)) return;
    if (++count > maxEntries) throw fail('limit-exceeded', `expected at most ${maxEntries} tar members, found more`, pos);
    const stored = readOctal(header, 148, 8);
    const actual = checksumOf(header);
    if (stored !== actual) {
      throw fail(
        'corrupt-archive',
        `expected tar header checksum ${actual} (the sum of its bytes), found ${stored === undefined ? 'an unreadable value' : stored} in its checksum field: the tar is damaged or this is not a tar header`,
        pos,
      );
    }
    const type = String.fromCharCode(header[156]!);
    const ustar = strFromU8(header.subarray(257, 263), true) === 'ustar\u0000';
    let name = cString(header, 0, 100);
    const prefix = ustar ? cString(header, 345, 155) : '';
    if (prefix) name = `${prefix}/${name}`;
    const headerSize = readSize(header);
    if (headerSize === undefined && (paxSize === undefined || type === 'L' || type === 'x')) {
      throw fail(
        'corrupt-archive',
        `expected an octal size for tar member '${name}', found ${JSON.stringify(strFromU8(header.subarray(124, 136), true))}`,
        pos + 124,
      );
    }
    // a pax `size` record applies to the member that follows the pax header
    const size = type === 'L' || type === 'x' ? headerSize! : (paxSize ?? headerSize!);
    const dataOffset = pos + BLOCK;
    const next = dataOffset + Math.ceil(size / BLOCK) * BLOCK;

    if (type === 'L' || type === 'x') {
      const limit = type === 'L' ? MAX_LONG_NAME : MAX_PAX;
      if (size > limit)
        throw fail('limit-exceeded', `expected a ${type === 'L' ? 'GNU long name' : 'pax header'} of at most ${limit} bytes, found ${size}`, pos + 124);
      const data = await cursor.read(dataOffset, size);
      if (data.length < size)
        throw fail('truncated', `expected ${size} bytes of ${type === 'L' ? 'GNU long name' : 'pax header'}, found ${data.length}`, dataOffset);
      if (type === 'L') longName = cString(data, 0, data.length);
      else {
        const records = parsePaxRecords(data, cursor.name, dataOffset);
        paxPath = records.path ?? paxPath;
        paxSize = records.size ?? paxSize;
      }
      pos = next;
      continue;
    }
    const rawPath = paxPath ?? longName ?? name;
    paxPath = undefined;
    paxSize = undefined;
    longName = undefined;
    pos = next;
    if (type === '0' || type === '\u0000' || type === '7') {
      yield { kind: 'file', rawPath, dataOffset, size, headerOffset: dataOffset - BLOCK };
    } else if (type === 'g' || type === 'K') {
      // global pax header / GNU long link name: nothing a savepoint needs
    } else if (type !== '5') {
      const what = type === '1' ? 'a hard link' : type === '2' ? 'a symbolic link' : `a tar member of type '${type}'`;
      yield { kind: 'skipped', rawPath, reason: `it is ${what}, not a regular file` };
    }
  }
}

function cString(bytes: Uint8Array, at: number, len: number): string {
  let end = at;
  while (end < at + len && end < bytes.length && bytes[end] !== 0) end++;
  return strFromU8(bytes.subarray(at, end));
}

function readOctal(bytes: Uint8Array, at: number, len: number): number | undefined {
  // tar pads numeric fields with NUL bytes and spaces
  const text = strFromU8(bytes.subarray(at, at + len), true)
    // eslint-disable-next-line no-control-regex -- the NUL padding above
    .replace(/[\u0000 ]+$/g, '')
    .replace(/^[ ]+/, '');
  if (!/^[0-7]+$/.test(text)) return text === '' ? 0 : undefined;
  return parseInt(text, 8);
}

/** Size: octal, or GNU base-256 (top bit of the first byte set) for sizes ≥ 8 GiB. */
function readSize(header: Uint8Array): number | undefined {
  if ((header[124]! & 0x80) !== 0) {
    let v = header[124]! & 0x7f;
    for (let i = 125; i < 136; i++) v = v * 256 + header[i]!;
    return Number.isSafeInteger(v) ? v : undefined;
  }
  return readOctal(header, 124, 12);
}

function checksumOf(header: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum;
}

/** The `path` and `size` records of a pax extended header ("<len> <key>=<value>\n" records). */
function parsePaxRecords(data: Uint8Array, file: string, baseOffset: number): { path?: string; size?: number } {
  let p = 0;
  let path: string | undefined;
  let size: number | undefined;
  while (p < data.length) {
    let q = p;
    while (q < data.length && data[q] !== 0x20) q++;
    const len = parseInt(strFromU8(data.subarray(p, q), true), 10);
    if (!Number.isInteger(len) || len <= q - p || p + len > data.length || data[p + len - 1] !== 0x0a) {
      if (data.subarray(p).every((b) => b === 0)) break;
      throw new DecodeError({
        code: 'corrupt-archive',
        detail: 'expected pax records "<length> <key>=<value>\\n", found a malformed record',
        file,
        offset: baseOffset + p,
      });
    }
    const record = strFromU8(data.subarray(q + 1, p + len - 1));
    const eq = record.indexOf('=');
    const key = eq > 0 ? record.slice(0, eq) : '';
    if (key === 'path') path = record.slice(eq + 1);
    if (key === 'size') {
      const value = record.slice(eq + 1);
      size = /^[0-9]{1,16}$/.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(size)) {
        throw new DecodeError({
          code: 'corrupt-archive',
          detail: `expected a pax size record of decimal digits, found ${JSON.stringify(value.slice(0, 40))}`,
          file,
          offset: baseOffset + p,
        });
      }
    }
    p += len;
  }
  return { ...(path === undefined ? {} : { path }), ...(size === undefined ? {} : { size }) };
}
