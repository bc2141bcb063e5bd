/**
 * CRC-32 (zip, gzip; polynomial 0xEDB88320) and CRC-32C (Castagnoli, Snappy framing; 0x82F63B78),
 * table-driven. fflate keeps its CRC-32 private, so the core carries these ~30 lines itself.
 */
const tables = new Map<number, Uint32Array>();

function tableFor(polynomial: number): Uint32Array {
  let t = tables.get(polynomial);
  if (t) return t;
  t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ polynomial : c >>> 1;
    t[n] = c >>> 0;
  }
  tables.set(polynomial, t);
  return t;
}

function update(polynomial: number, crc: number, bytes: Uint8Array): number {
  const t = tableFor(polynomial);
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** CRC-32 of bytes; pass the previous result as `crc` to continue over several chunks. */
export function computeCrc32(bytes: Uint8Array, crc = 0): number {
  return update(0xedb88320, crc, bytes);
}

/** CRC-32C of bytes; pass the previous result as `crc` to continue. */
export function computeCrc32c(bytes: Uint8Array, crc = 0): number {
  return update(0x82f63b78, crc, bytes);
}

/** The Snappy framing format's masked CRC-32C: rotate right by 15, add 0xA282EAD8. */
export function computeMaskedCrc32c(bytes: Uint8Array): number {
  const c = computeCrc32c(bytes);
  return ((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) >>> 0;
}
