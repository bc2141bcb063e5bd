/**
 * A bounds-checked little-endian cursor over RocksDB bytes (varints, fixed-width integers,
 * length-prefixed slices), whose errors are DecodeErrors located in the file: `base` is the absolute
 * offset of bytes[0] (a block's offset in its SST file, a record's in the MANIFEST).
 */
import { DecodeError, type DecodeErrorCode, readVarintAt, VARINT_TOO_LONG, varintCursor } from '../../io';

export class RocksDbCursor {
  pos: number;

  constructor(
    readonly bytes: Uint8Array,
    readonly file: string,
    /** absolute offset of bytes[0] in `file` */
    readonly base: number,
    start = 0,
    /** exclusive end of what may be read */
    readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  error(code: DecodeErrorCode, detail: string, at = this.pos): DecodeError {
    return new DecodeError({ code, detail, file: this.file, offset: this.base + at });
  }

  private need(n: number, what: string): void {
    if (this.pos + n > this.end) throw this.error('truncated', `expected ${n} bytes of ${what}, found ${this.end - this.pos}`);
  }

  readU8(what: string): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }

  readFixed32(what: string): number {
    this.need(4, what);
    const b = this.bytes;
    const p = this.pos;
    this.pos += 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }

  readFixed64(what: string): bigint {
    const lo = this.readFixed32(what);
    const hi = this.readFixed32(what);
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** A varint of at most 32 bits. */
  readVarint32(what: string): number {
    const at = this.pos;
    const result = readVarintAt(this.bytes, at, this.end, 5);
    if (result >= 0 && result <= 0xffffffff) {
      this.pos = varintCursor.next;
      return result;
    }
    if (result < 0 && result !== VARINT_TOO_LONG) throw this.truncatedVarint(what, at);
    this.pos = result >= 0 ? varintCursor.next : at + 5;
    throw this.error('invalid-value', `expected a 32-bit varint (${what}), found more than 32 bits`, at);
  }

  /** A varint of at most 64 bits, as a number when it is a safe integer (offsets, sizes, counts), else an error. */
  readVarint64(what: string): number {
    const at = this.pos;
    const v = this.readVarint64Big(what);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw this.error('limit-exceeded', `expected ${what} below 2^53, found ${v}`, at);
    return Number(v);
  }

  readVarint64Big(what: string): bigint {
    const at = this.pos;
    const v = readVarintAt(this.bytes, at, this.end, 10);
    if (v >= 0) {
      const next = varintCursor.next;
      this.pos = next;
      if (next - at <= 7) return BigInt(v); // below 2^49: exact
      // 8 to 10 bytes: the first 7 (49 bits, exact) and the rest, the low 64 bits kept
      const low = readVarintAt(this.bytes, at, next, 7, true);
      const high = readVarintAt(this.bytes, at + 7, next, 3);
      return BigInt.asUintN(64, BigInt(low) + (BigInt(high) << 49n));
    }
    if (v !== VARINT_TOO_LONG) throw this.truncatedVarint(what, at);
    this.pos = at + 10;
    throw this.error('invalid-value', `expected a 64-bit varint (${what}), found more than 10 bytes`, at);
  }

  /** A varint at `at` cut off by the end (the position moved there). */
  private truncatedVarint(what: string, at: number): DecodeError {
    this.pos = this.end;
    return this.error('truncated', `expected a varint (${what}), found the end of the bytes`, at);
  }

  /** A zigzag-free signed varint (RocksDB's varsignedint64: zigzag-encoded). */
  readVarSigned64(what: string): number {
    const u = this.readVarint64Big(what);
    const v = (u >> 1n) ^ -(u & 1n);
    return Number(v);
  }

  readBytes(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  readSlice(what: string): Uint8Array {
    const n = this.readVarint32(`length of ${what}`);
    return this.readBytes(n, what);
  }
}

/** UTF-8 (column family and file names, properties); an invalid sequence becomes U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 0 : b >= 0xf0 && b < 0xf8 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : -1;
    let cp = n === 0 ? b : n === 1 ? b & 0x1f : n === 2 ? b & 0x0f : b & 0x07;
    let ok = n >= 0;
    for (let k = 1; ok && k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) ok = false;
      else cp = (cp << 6) | (c & 0x3f);
    }
    if (!ok || cp > 0x10ffff) {
      out += '\ufffd';
      i++;
      continue;
    }
    out += String.fromCodePoint(cp);
    i += n + 1;
  }
  return out;
}

/** Bytewise comparison (RocksDB's BytewiseComparator). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
