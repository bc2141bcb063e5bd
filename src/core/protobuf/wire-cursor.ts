/**
 * The one Protobuf wire reader: a cursor over bytes[pos, end) of a buffer (a subarray's bounds, never a
 * copy) that reads tags, varints (as two 32-bit words: no bigint, no object per field), fixed values and
 * length-delimited bounds, and skips fields. protobuf-es's BinaryReader is the model; unlike it this one
 * works on bounds inside a larger read buffer and reports a failure the way its user asks (`onFail`):
 * the export's wire path gives up to the full decoder, the structural scan returns a failure position,
 * the decoder (wire-input.ts) throws protobuf-java's error, the descriptor tools leave the bytes as they are.
 *
 * `varintAt` is the one varint loop of the Protobuf readers; the structural scan's hot loop keeps its tag
 * and one-byte-length cases unrolled in place (scan-protobuf-payload.ts: the same rule, measured faster)
 * and comes here for everything longer.
 */

/** Why a read failed: a value runs past `end`, a varint is longer than 10 bytes, a tag or length is not one, a wire type cannot be skipped. */
export type WireFailure = 'truncated' | 'malformed-varint' | 'invalid-tag' | 'bad-length' | 'bad-wire-type';

/** varintAt's result when the varint runs past `end` */
export const VARINT_TRUNCATED = -1;
/** varintAt's result when the varint is longer than 10 bytes */
export const VARINT_MALFORMED = -2;

const EMPTY = new Uint8Array(0);

/** The failure of a cursor read only through varintAt, which never fails. */
export function unreachableWireFailure(): never {
  throw new Error('unreachable: varintAt does not fail');
}

export class WireCursor {
  buf: Uint8Array = EMPTY;
  pos = 0;
  end = 0;
  /** the last varint or fixed64 read: its low and high 32 bits (unsigned: `>>> 0`; signed: `| 0`) */
  lo = 0;
  hi = 0;

  /** `onFail(why, at)` must throw (the cursor reads on from nowhere); `at` is the offset in `buf` where the read failed */
  constructor(private readonly onFail: (why: WireFailure, at: number) => never) {}

  /** The cursor over bytes[start, end). */
  reset(bytes: Uint8Array, start: number, end: number): this {
    this.buf = bytes;
    this.pos = start;
    this.end = end;
    return this;
  }

  /** Lets go of the buffer (a cursor kept between values must not keep a read buffer alive). */
  release(): void {
    this.buf = EMPTY;
    this.pos = this.end = 0;
  }

  fail(why: WireFailure, at: number): never {
    return this.onFail(why, at);
  }

  /**
   * The varint at bytes[p] that ends before `end`: its words in lo/hi (protobuf-java keeps the low 64 bits
   * of 10 bytes), the position after it; VARINT_TRUNCATED or VARINT_MALFORMED otherwise. Reads `bytes`
   * (the cursor's buffer, or any other: no buffer is kept), does not move `pos` and never fails: the
   * positional primitive every read below is made of.
   */
  varintAt(b: Uint8Array, p: number, end: number): number {
    // one and two bytes (tags, lengths below 16 KiB, small numbers) without the loop
    if (p + 1 < end) {
      const x0 = b[p]!;
      if (x0 < 0x80) {
        this.lo = x0;
        this.hi = 0;
        return p + 1;
      }
      const x1 = b[p + 1]!;
      if (x1 < 0x80) {
        this.lo = (x0 & 0x7f) | (x1 << 7);
        this.hi = 0;
        return p + 2;
      }
    }
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (p >= end) return VARINT_TRUNCATED;
      const x = b[p++]!;
      const v = x & 0x7f;
      if (i < 4) lo |= v << (7 * i);
      else if (i === 4) {
        lo |= (v & 0x0f) << 28;
        hi |= v >>> 4;
      } else hi |= v << (7 * i - 32);
      if (x < 0x80) {
        this.lo = lo;
        this.hi = hi;
        return p;
      }
    }
    return VARINT_MALFORMED;
  }

  /** The varint at p within `end` (words in lo/hi), failing as the cursor fails; the position after it. */
  skipVarintAt(p: number, end: number): number {
    const next = this.varintAt(this.buf, p, end);
    if (next < 0) this.fail(next === VARINT_TRUNCATED ? 'truncated' : 'malformed-varint', next === VARINT_TRUNCATED ? end : p);
    return next;
  }

  /**
   * The tag at pos: a field number above 0 and a wire type, within 32 bits (a longer tag, a number 0:
   * 'invalid-tag'); pos after it.
   */
  readTag(): number {
    const at = this.pos;
    this.pos = this.skipVarintAt(at, this.end);
    const tag = this.lo;
    if (this.hi !== 0 || tag <= 0 || tag >>> 3 === 0) this.fail('invalid-tag', at);
    return tag;
  }

  /**
   * The length prefix at p of a length-delimited value (protobuf-java's rule: the low 32 bits of the
   * varint, negative → 'bad-length'): the value's end, with pos at its first byte; 'truncated' when it
   * runs past `end`.
   */
  lengthDelimitedAt(p: number, end: number): number {
    const start = this.skipVarintAt(p, end);
    const n = this.lo | 0;
    if (n < 0) this.fail('bad-length', p);
    if (n > end - start) this.fail('truncated', end);
    this.pos = start;
    return start + n;
  }

  /** Position after the value of wire type wt at p within `end` (0, 1, 2, 5; a group or wire type 6/7: 'bad-wire-type'). */
  skipValueAt(p: number, wt: number, end: number): number {
    switch (wt) {
      case 0:
        return this.skipVarintAt(p, end);
      case 1:
        if (p + 8 > end) this.fail('truncated', end);
        return p + 8;
      case 2:
        return this.lengthDelimitedAt(p, end);
      case 5:
        if (p + 4 > end) this.fail('truncated', end);
        return p + 4;
      default:
        return this.fail('bad-wire-type', p);
    }
  }

  /**
   * Skips the value of the field whose tag was just read, as protobuf-java's CodedInputStream.skipField
   * does: a group to its END_GROUP of the same number (tags inside as protobuf-java reads them, the low
   * 32 bits), at most `maxGroupDepth` groups deep; a field inside `groupDepth` enclosing skipped groups
   * fails ('bad-wire-type') when groupDepth reaches `depthRoom` (the recursion limit left to the caller).
   * An END_GROUP or wire type 6/7: 'bad-wire-type'.
   */
  skipField(tag: number, maxGroupDepth: number, depthRoom: number, groupDepth = 0): void {
    const wt = tag & 7;
    if (wt !== 3) {
      this.pos = this.skipValueAt(this.pos, wt, this.end);
      return;
    }
    if (groupDepth > maxGroupDepth) this.fail('bad-wire-type', this.pos);
    for (;;) {
      const at = this.pos;
      this.pos = this.skipVarintAt(at, this.end);
      const t = this.lo;
      if (t <= 0) this.fail('invalid-tag', at);
      if ((t & 7) === 4) {
        if (t >>> 3 !== tag >>> 3) this.fail('invalid-tag', at);
        return;
      }
      if (t >>> 3 === 0) this.fail('invalid-tag', at);
      if (groupDepth >= depthRoom) this.fail('bad-wire-type', at);
      this.skipField(t, maxGroupDepth, depthRoom, groupDepth + 1);
    }
  }
}
