/**
 * Little-endian field access for the archive formats (zip, gzip, Snappy framing). The core's
 * ByteReader is big-endian (Java DataInput); these helpers read from a byte array at a position the
 * caller has already bounds-checked (they are used on fixed-size records after a length check).
 */
export function readU16LE(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

export function readU24LE(bytes: Uint8Array, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
}

export function readU32LE(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

/** u64 as a JS number; returns undefined when above Number.MAX_SAFE_INTEGER (caller reports). */
export function readU64LE(bytes: Uint8Array, at: number): number | undefined {
  const lo = readU32LE(bytes, at);
  const hi = readU32LE(bytes, at + 4);
  if (hi > 0x1fffff) return undefined;
  return hi * 0x1_0000_0000 + lo;
}

export function writeU24LE(out: Uint8Array, at: number, v: number): void {
  out[at] = v & 0xff;
  out[at + 1] = (v >>> 8) & 0xff;
  out[at + 2] = (v >>> 16) & 0xff;
}

export function writeU32LE(out: Uint8Array, at: number, v: number): void {
  out[at] = v & 0xff;
  out[at + 1] = (v >>> 8) & 0xff;
  out[at + 2] = (v >>> 16) & 0xff;
  out[at + 3] = (v >>> 24) & 0xff;
}
