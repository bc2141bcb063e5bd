import { encodeModifiedUtf8 } from './modified-utf8';
import { measureVarint, writeVarintAt } from './varint';

/**
 * Growable big-endian writer with Java DataOutput semantics. The core uses it to write frames and
 * snapshots; tests use it to build minimal and malformed inputs byte by byte.
 */
export class ByteWriter {
  private buf = new Uint8Array(64);
  private view = new DataView(this.buf.buffer);
  private len = 0;

  get length(): number {
    return this.len;
  }

  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.len++] = v & 0xff;
    return this;
  }
  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }
  i16(v: number): this {
    this.ensure(2);
    this.view.setInt16(this.len, v);
    this.len += 2;
    return this;
  }
  u16(v: number): this {
    this.ensure(2);
    this.view.setUint16(this.len, v);
    this.len += 2;
    return this;
  }
  i32(v: number): this {
    this.ensure(4);
    this.view.setInt32(this.len, v);
    this.len += 4;
    return this;
  }
  u32(v: number): this {
    this.ensure(4);
    this.view.setUint32(this.len, v);
    this.len += 4;
    return this;
  }
  i64(v: bigint | number): this {
    this.ensure(8);
    this.view.setBigInt64(this.len, BigInt.asIntN(64, BigInt(v)));
    this.len += 8;
    return this;
  }
  f32(v: number): this {
    this.ensure(4);
    this.view.setFloat32(this.len, v);
    this.len += 4;
    return this;
  }
  f64(v: number): this {
    this.ensure(8);
    this.view.setFloat64(this.len, v);
    this.len += 8;
    return this;
  }
  bytes(b: Uint8Array | readonly number[]): this {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }
  /** Java writeUTF. Throws RangeError above 65535 encoded bytes, as Java does (UTFDataFormatException). */
  utf(s: string): this {
    const enc = encodeModifiedUtf8(s);
    if (enc.length > 0xffff) throw new RangeError(`encoded string too long: ${enc.length} bytes`);
    return this.u16(enc.length).bytes(enc);
  }
  /** Flink StringValue.writeString (null allowed). */
  stringValue(s: string | null): this {
    if (s === null) return this.u8(0);
    this.stringValueVarint(s.length + 1);
    for (let i = 0; i < s.length; i++) this.stringValueVarint(s.charCodeAt(i));
    return this;
  }
  private stringValueVarint(v: number): void {
    this.ensure(measureVarint(v));
    this.len = writeVarintAt(this.buf, this.len, v);
  }

  /** Overwrites 4 bytes at `at` (for length back-patching). */
  patchI32(at: number, v: number): this {
    this.view.setInt32(at, v);
    return this;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
