import { DecodeError, type DecodeErrorCode } from './decode-error';
import { decodeModifiedUtf8 } from './modified-utf8';
import { readVarintAt, VARINT_TOO_LONG, VARINT_TRUNCATED, varintCursor } from './varint';

export interface ByteReaderOptions {
  /** File name used in errors. */
  file?: string;
  /** Absolute offset in `file` of bytes[0] (errors report absolute offsets). */
  baseOffset?: number;
  /** Logical path used in errors. */
  path?: readonly string[];
}

/**
 * Bounds-checked big-endian reader with Java DataInput semantics. Every read checks the bytes
 * left first and throws a DecodeError (code `truncated`) naming what it wanted; it never
 * returns a default past the end.
 */
const NO_PATH: readonly string[] = Object.freeze([]);

export class ByteReader {
  readonly bytes: Uint8Array;
  readonly file: string | undefined;
  readonly baseOffset: number;
  readonly path: readonly string[];
  /** made on the first 64-bit or floating-point read: a reader per entry key and value is common, a DataView per reader is not free */
  private viewCache: DataView | undefined;
  private pos = 0;

  constructor(bytes: Uint8Array, options: ByteReaderOptions = {}) {
    this.bytes = bytes;
    this.file = options.file;
    this.baseOffset = options.baseOffset ?? 0;
    this.path = options.path ?? NO_PATH;
  }

  private get view(): DataView {
    return (this.viewCache ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength));
  }

  get position(): number {
    return this.pos;
  }
  /** Absolute offset of the next byte inside the file. */
  get absolutePosition(): number {
    return this.baseOffset + this.pos;
  }
  get length(): number {
    return this.bytes.length;
  }
  get remaining(): number {
    return this.bytes.length - this.pos;
  }
  get atEnd(): boolean {
    return this.pos >= this.bytes.length;
  }

  seek(position: number): void {
    if (!Number.isInteger(position) || position < 0 || position > this.bytes.length) {
      throw this.error('truncated', `expected a position inside the ${this.bytes.length}-byte input, found ${position}`, this.pos);
    }
    this.pos = position;
  }

  skip(n: number, what = 'bytes'): void {
    this.require(n, what);
    this.pos += n;
  }

  /** A reader over the next n bytes (advancing this one), keeping absolute offsets. */
  subReader(n: number, what = 'bytes', pathSegment?: string): ByteReader {
    const bytes = this.readBytes(n, what);
    return new ByteReader(bytes, {
      ...(this.file === undefined ? {} : { file: this.file }),
      baseOffset: this.baseOffset + this.pos - n,
      path: pathSegment === undefined ? this.path : [...this.path, pathSegment],
    });
  }

  /** Same bytes, same position, with a longer path. */
  withPath(segment: string): ByteReader {
    const r = new ByteReader(this.bytes, {
      ...(this.file === undefined ? {} : { file: this.file }),
      baseOffset: this.baseOffset,
      path: [...this.path, segment],
    });
    r.pos = this.pos;
    return r;
  }

  /** Moves this reader to where another reader over the same bytes stopped. */
  syncFrom(other: ByteReader): void {
    this.pos = other.pos;
  }

  require(n: number, what: string): void {
    if (n < 0 || !Number.isFinite(n)) {
      throw this.error('invalid-value', `expected a non-negative length for ${what}, found ${n}`, this.pos);
    }
    if (n > this.bytes.length - this.pos) {
      throw this.error('truncated', `expected ${n} byte${n === 1 ? '' : 's'} for ${what}, found ${this.bytes.length - this.pos}`, this.pos);
    }
  }

  readU8(what = 'u8'): number {
    this.require(1, what);
    return this.bytes[this.pos++]!;
  }
  readI8(what = 'byte'): number {
    this.require(1, what);
    return (this.bytes[this.pos++]! << 24) >> 24;
  }
  /** Java readBoolean: any non-zero byte is true. */
  readBool(what = 'boolean'): boolean {
    return this.readU8(what) !== 0;
  }
  readI16(what = 'short'): number {
    this.require(2, what);
    const b = this.bytes;
    const p = this.pos;
    this.pos = p + 2;
    return ((b[p]! << 24) >> 16) | b[p + 1]!;
  }
  readU16(what = 'unsigned short'): number {
    this.require(2, what);
    const b = this.bytes;
    const p = this.pos;
    this.pos = p + 2;
    return (b[p]! << 8) | b[p + 1]!;
  }
  readI32(what = 'int'): number {
    this.require(4, what);
    const b = this.bytes;
    const p = this.pos;
    this.pos = p + 4;
    return (b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!;
  }
  readU32(what = 'unsigned int'): number {
    this.require(4, what);
    const b = this.bytes;
    const p = this.pos;
    this.pos = p + 4;
    return ((b[p]! << 24) | (b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!) >>> 0;
  }
  readI64(what = 'long'): bigint {
    this.require(8, what);
    const v = this.view.getBigInt64(this.pos);
    this.pos += 8;
    return v;
  }
  readF32(what = 'float'): number {
    this.require(4, what);
    const v = this.view.getFloat32(this.pos);
    this.pos += 4;
    return v;
  }
  readF64(what = 'double'): number {
    this.require(8, what);
    const v = this.view.getFloat64(this.pos);
    this.pos += 8;
    return v;
  }
  /** The next n bytes as a view into the input (no copy). */
  readBytes(n: number, what = 'bytes'): Uint8Array {
    this.require(n, what);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  peekU8(offsetFromHere = 0): number | undefined {
    return this.bytes[this.pos + offsetFromHere];
  }

  /** Java readUTF: u16 byte length + modified UTF-8. */
  readUtf(what = 'string'): string {
    const start = this.pos;
    const n = this.readU16(`length of ${what}`);
    this.require(n, `${what} (${n} bytes of modified UTF-8)`);
    const r = decodeModifiedUtf8(this.bytes, this.pos, this.pos + n);
    if ('error' in r) {
      this.pos = start;
      throw this.error('invalid-value', `expected modified UTF-8 for ${what}, found ${r.error}`, r.at);
    }
    this.pos += n;
    return r.value;
  }

  /**
   * Flink StringValue.readString: varint (length + 1, 0 = null), then each UTF-16 unit as a varint.
   * Returns null for the null string.
   */
  readStringValue(what = 'string'): string | null {
    const start = this.pos;
    const len = this.readStringValueVarint(`length of ${what}`);
    if (len === 0) return null;
    const n = len - 1;
    // Each unit takes at least one byte: check before allocating.
    if (n > this.remaining) {
      this.pos = start;
      throw this.error('truncated', `expected ${n} characters for ${what}, found only ${this.remaining} bytes`, start);
    }
    let out = '';
    const chunk: number[] = [];
    const bytes = this.bytes;
    for (let i = 0; i < n; i++) {
      // a one-byte unit (ASCII) needs no varint loop and no error texts; anything else takes the checked path
      const b = this.pos < bytes.length ? bytes[this.pos]! : 0x80;
      let c: number;
      if (b < 0x80) {
        this.pos++;
        c = b;
      } else c = this.readStringValueVarint(`character ${i} of ${what}`);
      if (c > 0xffff) {
        throw this.error('invalid-value', `expected a UTF-16 code unit in ${what}, found ${c}`, this.pos);
      }
      chunk.push(c);
      if (chunk.length === 4096) {
        out += String.fromCharCode(...chunk);
        chunk.length = 0;
      }
    }
    return out + String.fromCharCode(...chunk);
  }

  /** One varint of Flink's StringValue (a length or a UTF-16 unit): at most 5 bytes. */
  readStringValueVarint(what: string): number {
    const v = this.readVarint(what, 5);
    if (v === VARINT_TOO_LONG) throw this.error('invalid-value', `expected a varint of at most 5 bytes for the ${what}, found a longer one`, this.pos);
    return v;
  }

  /**
   * The unsigned varint at the position (io's readVarintAt), of at most `maxBytes` bytes (`lastWhole`: the
   * last of them ends it, as in Kryo): its value, the position after it; cut off by the end, the error
   * readU8(`what`) gives there; longer, VARINT_TOO_LONG with the position after the `maxBytes` bytes (the
   * caller words that failure: a format's limit is its own).
   */
  readVarint(what: string, maxBytes: number, lastWhole = false): number {
    const v = readVarintAt(this.bytes, this.pos, this.bytes.length, maxBytes, lastWhole);
    if (v >= 0) this.pos = varintCursor.next;
    else if (v === VARINT_TRUNCATED) {
      this.pos = this.bytes.length;
      this.require(1, what);
    } else this.pos += maxBytes;
    return v;
  }

  /**
   * Reads an i32 count and checks it against the bytes left, assuming each item takes at least
   * `minBytesPerItem` bytes. Rejects negative counts before anything is allocated.
   */
  readCount(what: string, minBytesPerItem = 1, max = Number.MAX_SAFE_INTEGER): number {
    const at = this.pos;
    const n = this.readI32(`number of ${what}`);
    this.checkCount(n, what, minBytesPerItem, max, at);
    return n;
  }

  checkCount(n: number, what: string, minBytesPerItem = 1, max = Number.MAX_SAFE_INTEGER, at = this.pos): void {
    if (n < 0) throw this.error('invalid-value', `expected a non-negative number of ${what}, found ${n}`, at);
    if (n > max) throw this.error('limit-exceeded', `expected at most ${max} ${what}, found ${n}`, at);
    if (minBytesPerItem > 0 && n * minBytesPerItem > this.remaining) {
      throw this.error('truncated', `expected ${n} ${what} (at least ${n * minBytesPerItem} bytes), found ${this.remaining} bytes left`, at);
    }
  }

  /** A DecodeError located at `at` (position in this reader; default: current). */
  error(code: DecodeErrorCode, detail: string, at = this.pos, extra: { expected?: string; found?: string; cause?: unknown } = {}): DecodeError {
    return new DecodeError({
      code,
      detail,
      ...(this.file === undefined ? {} : { file: this.file }),
      offset: this.baseOffset + at,
      path: this.path,
      ...extra,
    });
  }
}
