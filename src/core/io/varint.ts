/**
 * The unsigned base-128 varint (7 bits a byte, least significant first, high bit = more follows) that
 * Protobuf's wire format, Snappy's length preamble, Flink's StringValue, Kryo, Avro's block counts and
 * RocksDB share: read in place from a byte array (no reader object, no object per varint: the hot paths
 * call it per field) and written in place. readVarintAt is the core's varint reader outside Protobuf (whose
 * WireCursor reads varints as two 32-bit words): each format's reader (ByteReader, RocksDbCursor, the Kryo
 * frame, …) reads through it and words its own failure.
 */

/** Where the last readVarintAt that found a varint ended (module state: no object per varint). */
export const varintCursor = { next: 0 };

/** A read's result when the varint runs past `end` (or the bytes). */
export const VARINT_TRUNCATED = -1;
/** A read's result when the varint is longer than it may be (`maxBytes`). */
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
