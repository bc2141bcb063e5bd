import { measureVarint, writeVarintAt } from '../io';

/** A growable little Protobuf wire writer (tags, varints, fixed ints, raw bytes). */
export class ProtoBytesWriter {
  private buf = new Uint8Array(64);
  private len = 0;

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  get length(): number {
    return this.len;
  }

  tag(no: number, wireType: number): this {
    return this.varint(((no << 3) | wireType) >>> 0);
  }

  /** unsigned value below 2^32 */
  varint(v: number): this {
    this.ensure(5);
    this.len = writeVarintAt(this.buf, this.len, v);
    return this;
  }

  /** any 64-bit value (negative values as two's complement, 10 bytes) */
  varint64(v: bigint): this {
    let u = BigInt.asUintN(64, v);
    this.ensure(10);
    while (u > 0x7fn) {
      this.buf[this.len++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.len++] = Number(u);
    return this;
  }

  fixed32(v: number): this {
    this.ensure(4);
    this.buf[this.len++] = v & 0xff;
    this.buf[this.len++] = (v >>> 8) & 0xff;
    this.buf[this.len++] = (v >>> 16) & 0xff;
    this.buf[this.len++] = (v >>> 24) & 0xff;
    return this;
  }

  raw(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }

  /** Reserves one byte for the length of a length-delimited value written next; pass the result to endLength. */
  beginLength(): number {
    this.ensure(1);
    return this.len++;
  }

  /** Writes the length of everything after `at` as a varint at `at`, moving the value when it needs more than one byte. */
  endLength(at: number): this {
    const v = this.len - at - 1;
    const size = measureVarint(v);
    if (size > 1) {
      this.ensure(size - 1);
      this.buf.copyWithin(at + size, at + 1, this.len);
      this.len += size - 1;
    }
    writeVarintAt(this.buf, at, v);
    return this;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
