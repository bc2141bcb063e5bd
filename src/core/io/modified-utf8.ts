/**
 * Java's modified UTF-8 (DataInput.readUTF / DataOutput.writeUTF): U+0000 as C0 80, supplementary
 * characters as two 3-byte surrogates (CESU-8), no 4-byte sequences.
 */
import { formatHex } from './format-hex';

/** Decodes bytes as modified UTF-8; returns null when a sequence is malformed (caller reports). */
export function decodeModifiedUtf8(bytes: Uint8Array, start = 0, end = bytes.length): { value: string } | { error: string; at: number } {
  const units: number[] = [];
  let i = start;
  while (i < end) {
    const a = bytes[i]!;
    if (a < 0x80) {
      units.push(a);
      i += 1;
    } else if ((a & 0xe0) === 0xc0) {
      if (i + 1 >= end) return { error: 'partial 2-byte character at end of string', at: i };
      const b = bytes[i + 1]!;
      if ((b & 0xc0) !== 0x80) return { error: `malformed 2-byte character 0x${formatHex([a])} 0x${formatHex([b])}`, at: i };
      units.push(((a & 0x1f) << 6) | (b & 0x3f));
      i += 2;
    } else if ((a & 0xf0) === 0xe0) {
      if (i + 2 >= end) return { error: 'partial 3-byte character at end of string', at: i };
      const b = bytes[i + 1]!;
      const c = bytes[i + 2]!;
      if ((b & 0xc0) !== 0x80 || (c & 0xc0) !== 0x80)
        return { error: `malformed 3-byte character 0x${formatHex([a])} 0x${formatHex([b])} 0x${formatHex([c])}`, at: i };
      units.push(((a & 0x0f) << 12) | ((b & 0x3f) << 6) | (c & 0x3f));
      i += 3;
    } else {
      return { error: `byte 0x${formatHex([a])} cannot start a modified UTF-8 character`, at: i };
    }
  }
  let out = '';
  for (let k = 0; k < units.length; k += 4096) out += String.fromCharCode(...units.slice(k, k + 4096));
  return { value: out };
}

/** Whether ByteReader.readUtf at `pos` would read a string (a \`u16\` length, then that many bytes of valid modified UTF-8 before `end`), without reading it. */
export function isModifiedUtf8StringAt(bytes: Uint8Array, pos: number, end: number): boolean {
  if (pos + 2 > end) return false;
  let i = pos + 2;
  const stop = i + ((bytes[pos]! << 8) | bytes[pos + 1]!);
  if (stop > end) return false;
  while (i < stop) {
    const a = bytes[i]!;
    if (a < 0x80) i += 1;
    else if ((a & 0xe0) === 0xc0) {
      if (i + 1 >= stop || (bytes[i + 1]! & 0xc0) !== 0x80) return false;
      i += 2;
    } else if ((a & 0xf0) === 0xe0) {
      if (i + 2 >= stop || (bytes[i + 1]! & 0xc0) !== 0x80 || (bytes[i + 2]! & 0xc0) !== 0x80) return false;
      i += 3;
    } else return false;
  }
  return true;
}

export function encodeModifiedUtf8(s: string): Uint8Array {
  const out = new Uint8Array(modifiedUtf8Length(s));
  let p = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 1 && c <= 0x7f) out[p++] = c;
    else if (c <= 0x7ff) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
    } else {
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    }
  }
  return out;
}

export function modifiedUtf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c >= 1 && c <= 0x7f ? 1 : c <= 0x7ff ? 2 : 3;
  }
  return n;
}
