/**
 * Arrow column builders for the export's Arrow IPC stream (the app's Query view), written by hand
 * because apache-arrow's builders take one JavaScript value per cell: the Protobuf wire appender
 * (append-protobuf-wire-value.ts) writes a value's numbers and byte strings straight from the frame
 * into these buffers, with no message object, string or bigint in between. apache-arrow still types
 * the columns (makeData) and writes the IPC stream.
 *
 * Every builder appends one cell at a time (`appendValue` for a shaped ParquetValue, as the Parquet
 * writer shapes rows; typed appends for the wire appender); `mark`/`rollback` undo the cells appended
 * since the mark (a value the wire appender leaves to the full decoder), `finish` hands over the
 * batch's Data and starts empty.
 */
import { makeData, type Data, type DataType, type List, type Struct } from 'apache-arrow';
import type { ParquetValue } from './to-parquet-message-value';

/** Growable storage shared by the builders. */
function grow<T extends Int32Array | Uint8Array | Float32Array | Float64Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  let n = a.length * 2;
  while (n < need) n *= 2;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}

export abstract class ColumnBuilder {
  length = 0;
  nullCount = 0;
  private validity = new Uint8Array(64);

  constructor(readonly type: DataType) {}

  /** one null cell (a struct: null in every child too; a list: no elements) */
  abstract appendNull(): void;
  /** one cell from its shaped value (null/undefined: a null cell) */
  abstract appendValue(v: ParquetValue | undefined): void;
  /** the cells so far as Data, viewing the builder's buffers (valid until the next append: encode it first); the builder is empty afterwards */
  abstract finish(): Data;
  /** every builder of this subtree (for mark/rollback) */
  collect(out: ColumnBuilder[]): void {
    out.push(this);
  }
  /** the values buffer's own length mark (bytes builders: their data length) */
  protected saveExtra(): number {
    return 0;
  }
  protected restoreExtra(_extra: number): void {}

  /**
   * Counts cell `length` and keeps its validity bit. Bits are kept only once the batch has a null: until
   * then every cell is valid and no bitmap is written (most columns never see one); the first null
   * marks every cell before it valid.
   */
  protected pushValidity(valid: boolean): void {
    const i = this.length;
    if (valid) {
      if (this.nullCount !== 0) {
        if (i >> 3 >= this.validity.length) this.validity = grow(this.validity, (i >> 3) + 1);
        this.validity[i >> 3]! |= 1 << (i & 7);
      }
      this.length = i + 1;
      return;
    }
    if (i >> 3 >= this.validity.length) this.validity = grow(this.validity, (i >> 3) + 1);
    if (this.nullCount === 0) {
      this.validity.fill(0xff, 0, i >> 3);
      this.validity[i >> 3] = (1 << (i & 7)) - 1;
    } else this.validity[i >> 3]! &= ~(1 << (i & 7));
    this.nullCount++;
    this.length = i + 1;
  }

  /** views, not copies: the IPC writer copies a batch before the builders write the next one */
  protected takeValidity(): Uint8Array | undefined {
    return this.nullCount === 0 ? undefined : this.validity.subarray(0, (this.length + 7) >> 3);
  }

  protected resetCounts(): void {
    this.length = 0;
    this.nullCount = 0;
  }

  /** @internal mark/rollback support: three numbers at `at` */
  save(into: Int32Array, at: number): void {
    into[at] = this.length;
    into[at + 1] = this.nullCount;
    into[at + 2] = this.saveExtra();
  }
  /** @internal */
  restore(from: Int32Array, at: number): void {
    this.length = from[at]!;
    this.nullCount = from[at + 1]!;
    this.restoreExtra(from[at + 2]!);
  }
}

/** 64-bit integers as two 32-bit words (little-endian), so the wire appender needs no bigint. */
export class Int64ColumnBuilder extends ColumnBuilder {
  private words = new Int32Array(512);
  appendWords(lo: number, hi: number): void {
    const i = this.length * 2;
    if (i + 2 > this.words.length) this.words = grow(this.words, i + 2);
    this.words[i] = lo;
    this.words[i + 1] = hi;
    this.pushValidity(true);
  }
  appendNull(): void {
    this.appendWords(0, 0);
    this.length--;
    this.pushValidity(false);
  }
  appendValue(v: ParquetValue | undefined): void {
    if (v === null || v === undefined) return this.appendNull();
    const b = BigInt.asUintN(64, typeof v === 'bigint' ? v : BigInt(v as number));
    this.appendWords(Number(b & 0xffffffffn) | 0, Number(b >> 32n) | 0);
  }
  finish(): Data {
    const data = makeData({
      type: this.type as never,
      length: this.length,
      nullCount: this.nullCount,
      nullBitmap: this.takeValidity(),
      data: new BigInt64Array(this.words.buffer, 0, this.length),
    } as never);
    this.resetCounts();
    return data;
  }
}

/** 32-bit integers, floats and doubles: one typed array of values. */
export class NumberColumnBuilder extends ColumnBuilder {
  private values: Int32Array | Float32Array | Float64Array;
  constructor(type: DataType, kind: 'int32' | 'float32' | 'float64') {
    super(type);
    this.values = kind === 'int32' ? new Int32Array(256) : kind === 'float32' ? new Float32Array(256) : new Float64Array(256);
  }
  appendNumber(v: number): void {
    if (this.length >= this.values.length) this.values = grow(this.values, this.length + 1);
    this.values[this.length] = v;
    this.pushValidity(true);
  }
  appendNull(): void {
    this.appendNumber(0);
    this.length--;
    this.pushValidity(false);
  }
  appendValue(v: ParquetValue | undefined): void {
    if (v === null || v === undefined) this.appendNull();
    else this.appendNumber(Number(v));
  }
  finish(): Data {
    const data = makeData({
      type: this.type as never,
      length: this.length,
      nullCount: this.nullCount,
      nullBitmap: this.takeValidity(),
      data: this.values.subarray(0, this.length),
    } as never);
    this.resetCounts();
    return data;
  }
}

export class BoolColumnBuilder extends ColumnBuilder {
  private bits = new Uint8Array(64);
  appendBool(v: boolean): void {
    const i = this.length;
    if (i >> 3 >= this.bits.length) this.bits = grow(this.bits, (i >> 3) + 1);
    if (v) this.bits[i >> 3]! |= 1 << (i & 7);
    else this.bits[i >> 3]! &= ~(1 << (i & 7));
    this.pushValidity(true);
  }
  appendNull(): void {
    this.appendBool(false);
    this.length--;
    this.pushValidity(false);
  }
  appendValue(v: ParquetValue | undefined): void {
    if (v === null || v === undefined) this.appendNull();
    else this.appendBool(v === true);
  }
  finish(): Data {
    const data = makeData({
      type: this.type as never,
      length: this.length,
      nullCount: this.nullCount,
      nullBitmap: this.takeValidity(),
      data: this.bits.subarray(0, (this.length + 7) >> 3),
    } as never);
    this.resetCounts();
    return data;
  }
}

/** Utf8 and Binary: offsets and one byte buffer. Strings are encoded as TextEncoder does (an unpaired surrogate: U+FFFD). */
export class BytesColumnBuilder extends ColumnBuilder {
  private offsets = new Int32Array(257);
  private data = new Uint8Array(4096);
  private size = 0;

  appendBytes(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (this.size + n > this.data.length) this.data = grow(this.data, this.size + n);
    const d = this.data;
    const at = this.size;
    if (n > 32) d.set(src.subarray(start, end), at);
    else for (let i = 0; i < n; i++) d[at + i] = src[start + i]!;
    this.size = at + n;
    this.close(true);
  }

  /** appendBytes of a string's UTF-8 bytes; false when a byte is not ASCII (the caller checks those bytes itself) */
  appendAsciiChecked(src: Uint8Array, start: number, end: number): boolean {
    const n = end - start;
    if (this.size + n > this.data.length) this.data = grow(this.data, this.size + n);
    const d = this.data;
    const at = this.size;
    let all = 0;
    for (let i = 0; i < n; i++) all |= d[at + i] = src[start + i]!;
    this.size = at + n;
    this.close(true);
    return all < 0x80;
  }

  appendString(s: string): void {
    if (this.size + s.length * 3 > this.data.length) this.data = grow(this.data, this.size + s.length * 3);
    const d = this.data;
    let p = this.size;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        d[p++] = c;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          d[p++] = 0xf0 | (cp >> 18);
          d[p++] = 0x80 | ((cp >> 12) & 0x3f);
          d[p++] = 0x80 | ((cp >> 6) & 0x3f);
          d[p++] = 0x80 | (cp & 0x3f);
          i++;
          continue;
        }
        c = 0xfffd;
      }
      if (c < 0x800) {
        d[p++] = 0xc0 | (c >> 6);
        d[p++] = 0x80 | (c & 0x3f);
      } else {
        d[p++] = 0xe0 | (c >> 12);
        d[p++] = 0x80 | ((c >> 6) & 0x3f);
        d[p++] = 0x80 | (c & 0x3f);
      }
    }
    this.size = p;
    this.close(true);
  }

  appendNull(): void {
    this.close(false);
  }

  appendValue(v: ParquetValue | undefined): void {
    if (v === null || v === undefined) this.appendNull();
    else if (typeof v === 'string') this.appendString(v);
    else if (v instanceof Uint8Array) this.appendBytes(v, 0, v.length);
    else this.appendString(String(v));
  }

  private close(valid: boolean): void {
    if (this.length + 2 > this.offsets.length) this.offsets = grow(this.offsets, this.length + 2);
    this.offsets[this.length + 1] = this.size;
    this.pushValidity(valid);
  }

  protected override saveExtra(): number {
    return this.size;
  }
  protected override restoreExtra(extra: number): void {
    this.size = extra;
  }

  finish(): Data {
    const data = makeData({
      type: this.type as never,
      length: this.length,
      nullCount: this.nullCount,
      nullBitmap: this.takeValidity(),
      valueOffsets: this.offsets.subarray(0, this.length + 1),
      data: this.data.subarray(0, this.size),
    } as never);
    this.resetCounts();
    this.size = 0;
    return data;
  }
}

export class StructColumnBuilder extends ColumnBuilder {
  constructor(
    type: Struct,
    readonly children: ColumnBuilder[],
  ) {
    super(type);
  }
  /** a present struct: the caller appends one cell to every child */
  appendValid(): void {
    this.pushValidity(true);
  }
  appendNull(): void {
    for (const c of this.children) c.appendNull();
    this.pushValidity(false);
  }
  appendValue(v: ParquetValue | undefined): void {
    if (v === null || v === undefined) return this.appendNull();
    const o = v as { [name: string]: ParquetValue };
    const fields = (this.type as Struct).children;
    for (let i = 0; i < this.children.length; i++) this.children[i]!.appendValue(o[fields[i]!.name]);
    this.pushValidity(true);
  }
  override collect(out: ColumnBuilder[]): void {
    out.push(this);
    for (const c of this.children) c.collect(out);
  }
  finish(): Data {
    const data = makeData({
      type: this.type as never,
      length: this.length,
      nullCount: this.nullCount,
      nullBitmap: this.takeValidity(),
      children: this.children.map((c) => c.finish()),
    } as never);
    this.resetCounts();
    return data;
  }
}

export class ListColumnBuilder extends ColumnBuilder {
  private offsets = new Int32Array(257);
  constructor(
    type: List,
    readonly element: ColumnBuilder,
  ) {
    super(type);
  }
  /** closes a list whose elements the caller appended to `element` since the previous list; none: a null list, as the export writes an empty repeated field */
  endList(emptyIsNull: boolean): void {
    const n = this.element.length;
    if (this.length + 2 > this.offsets.length) this.offsets = grow(this.offsets, this.length + 2);
    this.offsets[this.length + 1] = n;
    this.pushValidity(!(emptyIsNull && n === this.offsets[this.length]));
  }
  appendNull(): void {
    if (this.length + 2 > this.offsets.length) this.offsets = grow(this.offsets, this.length + 2);
    this.offsets[this.length + 1] = this.element.length;
    this.pushValidity(false);
  }
  appendValue(v: ParquetValue | undefined): void {
    if (v === null || v === undefined) return this.appendNull();
    for (const x of v as ParquetValue[]) this.element.appendValue(x);
    this.endList(false);
  }
  override collect(out: ColumnBuilder[]): void {
    out.push(this);
    this.element.collect(out);
  }
  finish(): Data {
    const data = makeData({
      type: this.type as never,
      length: this.length,
      nullCount: this.nullCount,
      nullBitmap: this.takeValidity(),
      valueOffsets: this.offsets.subarray(0, this.length + 1),
      child: this.element.finish(),
    } as never);
    this.resetCounts();
    return data;
  }
}

/** Undoes whole rows: `mark` before a row, `rollback` to drop what it appended. */
export class ColumnTreeMark {
  private readonly builders: ColumnBuilder[] = [];
  private readonly saved: Int32Array;
  constructor(roots: readonly ColumnBuilder[]) {
    for (const r of roots) r.collect(this.builders);
    this.saved = new Int32Array(this.builders.length * 3);
  }
  mark(): void {
    const b = this.builders;
    for (let i = 0; i < b.length; i++) b[i]!.save(this.saved, i * 3);
  }
  rollback(): void {
    const b = this.builders;
    for (let i = 0; i < b.length; i++) b[i]!.restore(this.saved, i * 3);
  }
}
