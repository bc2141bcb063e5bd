/**
 * The unsigned base-128 varint (7 bits a byte, least significant first, high bit = more follows) that
 * Protobuf's wire format, Snappy's length preamble, Flink's StringValue, Kryo, Avro's block counts and
 * RocksDB share: read in place from a byte array (no reader object, no object per varint: the hot paths
 * call it per field) and written in place. The two loops here are the core's only varint readers: each
 * reader of a format (ByteReader, RocksDbCursor, the Protobuf WireCursor, …) reads through them and words
 * its own failure.
 */

/** Where the last read that found a varint ended, and (readVarint64At) its low and high 32 bits: module state, no object per varint. */
export const varintCursor = { next: 0, lo: 0, hi: 0 };

/** A read's result when the varint runs past `end` (or the bytes). */
export const VARINT_TRUNCATED = -1;
/** A read's result when the varint is longer than it may be (`maxBytes`; readVarint64At: 10 bytes). */
export const VARINT_TOO_LONG = -2;

/**
 * The value of the varint at `pos` that ends before `end` within `maxBytes` bytes (10: any 64-bit
 * value; 5: any 32-bit one), its end in varintCursor.next; VARINT_TRUNCATED when it runs past `end`,
 * VARINT_TOO_LONG when its first `maxBytes` bytes all say more follows — unless `lastWhole` (Kryo's
 * readVarInt and readUtf8Length): then the last of them ends it, whatever its high bit. Exact below
 * 2^53 (a caller that must reject larger values checks Number.isSafeInteger).
 */
export function readVarintAt(bytes: Uint8Array, pos: number, end = bytes.length, maxBytes = 10, lastWhole = false): number {
  let value = 0;
  let scale = 1;
  const cap = pos + maxBytes;
  const last = Math.min(end, bytes.length, cap);
  for (let i = pos; i < last; i++) {
    const b = bytes[i]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      varintCursor.next = i + 1;
      return value;
    }
    scale *= 128;
  }
  if (last < cap) return VARINT_TRUNCATED;
  if (!lastWhole) return VARINT_TOO_LONG;
  varintCursor.next = cap;
  return value;
}

/**
 * The varint at `p` that ends before `end`, as two 32-bit words in varintCursor.lo/hi (unsigned: `>>> 0`;
 * signed: `| 0`; of 10 bytes the low 64 bits, as protobuf-java keeps them): the position after it, or
 * VARINT_TRUNCATED / VARINT_TOO_LONG (more than 10 bytes). No bigint, no object: the Protobuf WireCursor's
 * varints and RocksDB's 64-bit ones.
 */
export function readVarint64At(b: Uint8Array, p: number, end: number): number {
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
      varintCursor.lo = lo;
      varintCursor.hi = hi;
      return p;
    }
  }
  return VARINT_TOO_LONG;
}

/** How many bytes writeVarintAt takes for `value` (a non-negative safe integer). */
export function measureVarint(value: number): number {
  let size = 1;
  for (let v = value; v >= 0x80; v = Math.floor(v / 0x80)) size++;
  return size;
}

/** Writes `value` (a non-negative safe integer) at `at` and returns where it ends. */
export function writeVarintAt(out: Uint8Array, at: number, value: number): number {
  let v = value;
  while (v >= 0x80) {
    out[at++] = (v % 0x80) | 0x80;
    v = Math.floor(v / 0x80);
  }
  out[at++] = v;
  return at;
}
