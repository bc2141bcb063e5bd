/**
 * The unsigned base-128 varint (7 bits a byte, least significant first, high bit = more follows) that
 * Protobuf's wire format, Snappy's length preamble and Flink's StringValue share: read in place from a
 * byte array (no reader object, no object per varint: the hot paths call it per field) and written in place.
 */

/** Where the last readVarintAt that found a varint ended (module state: no object per varint). */
export const varintCursor = { next: 0 };

/**
 * The value of the varint at `pos` that ends before `end` within `maxBytes` bytes (10: any 64-bit
 * value; 5: any 32-bit one), its end in varintCursor.next; -1 when it does not. Exact below 2^53
 * (a caller that must reject larger values checks Number.isSafeInteger).
 */
export function readVarintAt(bytes: Uint8Array, pos: number, end = bytes.length, maxBytes = 10): number {
  let value = 0;
  let scale = 1;
  const last = Math.min(end, bytes.length, pos + maxBytes);
  for (let i = pos; i < last; i++) {
    const b = bytes[i]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      varintCursor.next = i + 1;
      return value;
    }
    scale *= 128;
  }
  return -1;
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
