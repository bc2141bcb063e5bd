import type { ByteReader } from '../../io';

export const LINKED_OPTIONAL_MAP_HEADER = 0x4f2c69a3d70n;

export interface LinkedOptionalMapEntry {
  name: string;
  /** key frame reader (absolute offsets kept), absent when the key is missing */
  key?: ByteReader;
  /** value frame reader, absent when the value is missing */
  value?: ByteReader;
}

/**
 * LinkedOptionalMapSerializer: `i64` header, `i32` n, n × (`utf` name, `bool` has key,
 * [`i32` len, key frame], `bool` has value, [`i32` len, value frame]). Frames are returned as
 * bounded readers so an unreadable frame can be skipped.
 */
export function readLinkedOptionalMap(r: ByteReader, what: string): LinkedOptionalMapEntry[] {
  const at = r.position;
  const header = r.readI64(`${what} header`);
  if (header !== LINKED_OPTIONAL_MAP_HEADER) {
    throw r.error(
      'bad-magic',
      `expected linked optional map header 0x000004f2c69a3d70 for ${what}, found 0x${BigInt.asUintN(64, header).toString(16).padStart(16, '0')}`,
      at,
    );
  }
  const n = r.readCount(`${what} entries`, 4);
  const out: LinkedOptionalMapEntry[] = [];
  for (let i = 0; i < n; i++) {
    const name = r.readUtf(`${what} entry name`);
    const entry: LinkedOptionalMapEntry = { name };
    if (r.readBool(`${what} has-key flag`)) entry.key = readFrame(r, `${what} key frame of ${name}`);
    if (r.readBool(`${what} has-value flag`)) entry.value = readFrame(r, `${what} value frame of ${name}`);
    out.push(entry);
  }
  return out;
}

function readFrame(r: ByteReader, what: string): ByteReader {
  const at = r.position;
  const len = r.readI32(`length of ${what}`);
  if (len < 0) throw r.error('invalid-value', `expected a non-negative length of ${what}, found ${len}`, at);
  return r.subReader(len, what);
}
