/**
 * A cursor over one Protobuf payload that reproduces protobuf-java's CodedInputStream limits as
 * the serializer configures it: the payload is a stream bounded to N
 * bytes of which only `available` may be present, `sizeLimit` is maxMessageSize, sub-messages push
 * limits. Failures throw ProtobufParseError with protobuf-java's text and a payload offset. Varints are
 * read with the one wire reader's loop (wire-cursor.ts).
 */
import { MAX_DECODER_DEPTH } from './protobuf-constants';
import { JAVA_PARSE_MESSAGES as M, ProtobufParseError } from './protobuf-errors';
import { unreachableWireFailure, VARINT_MALFORMED, WireCursor } from './wire-cursor';

/** The words of the varint just read (the positional reads of the one wire reader; this cursor never fails). */
const words = new WireCursor(unreachableWireFailure);

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

export class WireInput {
  pos = 0;
  /** current pushed limit (absolute position); Infinity at top level as in a stream decoder */
  limit = Number.POSITIVE_INFINITY;
  lastTag = 0;
  /** offset of the last tag read */
  tagStart = 0;
  depth = 0;
  maxDepth = 0;
  /** high 32 bits of the last readVarint64 (low bits are its return value, unsigned) */
  hi = 0;

  constructor(
    readonly buf: Uint8Array,
    /** declared payload length N */
    readonly frameLength: number,
    readonly sizeLimit: number,
    readonly recursionLimit: number,
  ) {}

  /** bytes actually present (≤ frameLength) */
  get available(): number {
    return this.buf.length < this.frameLength ? this.buf.length : this.frameLength;
  }

  /** Throws the error protobuf-java reports when `n` bytes at pos cannot be read. */
  fail(n: number): never {
    const want = this.pos + n;
    if (want > this.sizeLimit && (want > this.limit || want > this.frameLength)) {
      throw new ProtobufParseError(M.sizeLimit, this.pos);
    }
    if (want > this.limit || want > this.frameLength) throw new ProtobufParseError(M.truncated, this.pos);
    const missing = this.frameLength - this.available;
    throw new ProtobufParseError(`Truncated Protobuf payload; missing ${missing} bytes`, this.available);
  }

  need(n: number): void {
    const want = this.pos + n;
    if (want > this.limit || want > this.buf.length || want > this.frameLength) this.fail(n);
  }

  isAtEnd(): boolean {
    if (this.pos >= this.limit || this.pos >= this.frameLength || this.pos >= this.sizeLimit) return true;
    if (this.pos >= this.buf.length) this.fail(1);
    return false;
  }

  /** CodedInputStream.readTag: 0 at the end, invalid tag (zero) for field number 0. */
  readTag(): number {
    this.tagStart = this.pos;
    if (this.isAtEnd()) {
      this.lastTag = 0;
      return 0;
    }
    const tag = this.readVarint32();
    this.lastTag = tag;
    if (tag >>> 3 === 0) throw new ProtobufParseError(M.invalidTag, this.tagStart);
    return tag;
  }

  /** readRawVarint32: up to 10 bytes, the low 32 bits as a signed int. */
  readVarint32(): number {
    this.readRawVarint();
    return words.lo | 0;
  }

  /**
   * readRawVarint64: returns the low 32 bits (unsigned) and leaves the high 32 bits in `hi`.
   */
  readVarint64(): number {
    this.readRawVarint();
    this.hi = words.hi >>> 0;
    return words.lo >>> 0;
  }

  /** The varint at pos with the one wire reader (its words in `words`), failing as protobuf-java does. */
  private readRawVarint(): void {
    const start = this.pos;
    const buf = this.buf;
    let end = this.limit < this.frameLength ? this.limit : this.frameLength;
    if (buf.length < end) end = buf.length;
    const next = words.varintAt(buf, start, end);
    if (next === VARINT_MALFORMED) throw new ProtobufParseError(M.malformedVarint, start);
    if (next < 0) {
      // the first byte not there
      this.pos = start > end ? start : end;
      this.fail(1);
    }
    this.pos = next;
  }

  readFixed32(): number {
    this.need(4);
    const b = this.buf;
    const p = this.pos;
    this.pos += 4;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }

  /** low 32 bits returned, high in `hi` */
  readFixed64(): number {
    const lo = this.readFixed32();
    this.hi = this.readFixed32();
    return lo;
  }

  /** Length prefix of a LEN field; negative → protobuf-java's negative-size error. */
  readLength(): number {
    const at = this.pos;
    const n = this.readVarint32();
    if (n < 0) throw new ProtobufParseError(M.negativeSize, at);
    return n;
  }

  /** The next n bytes as a view (no copy), with protobuf-java's size/limit checks. */
  readBytes(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }

  /** pushLimit: returns the old limit. */
  pushLimit(length: number): number {
    const newLimit = this.pos + length;
    if (newLimit > this.limit) throw new ProtobufParseError(M.truncated, this.pos);
    const old = this.limit;
    this.limit = newLimit;
    return old;
  }

  popLimit(old: number): void {
    this.limit = old;
  }

  /** Depth check done before entering a message, group or map entry (root is depth 0). */
  enter(at: number): void {
    if (this.depth >= this.recursionLimit) throw new ProtobufParseError(M.recursionLimit, at);
    if (this.depth >= MAX_DECODER_DEPTH) {
      throw new ProtobufParseError(`expected at most ${MAX_DECODER_DEPTH} nesting levels (this reader's cap), found more`, at, 'limit-exceeded');
    }
    this.depth++;
    if (this.depth > this.maxDepth) this.maxDepth = this.depth;
  }

  leave(): void {
    this.depth--;
  }

  checkLastTagWas(expected: number): void {
    if (this.lastTag !== expected) throw new ProtobufParseError(M.invalidEndTag, this.tagStart);
  }
}

/** Combines low/high 32-bit halves into an unsigned or signed 64-bit bigint. */
export function toBigInt64(lo: number, hi: number, signed: boolean): bigint {
  const v = (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
  return signed ? BigInt.asIntN(64, v) : v;
}
