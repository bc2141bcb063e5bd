/**
 * CRC-32 (zip, gzip; polynomial 0xEDB88320) and CRC-32C (Castagnoli, Snappy framing; 0x82F63B78),
 * table-driven (slicing-by-8). fflate keeps its CRC-32 private, so the core carries these lines itself.
 */
const tables = new Map<number, Uint32Array>();

/** Eight 256-entry tables (slicing-by-8: table k maps a byte k positions further on), one array. */
function tableFor(polynomial: number): Uint32Array {
  let t = tables.get(polynomial);
  if (t) return t;
  t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ polynomial : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) for (let k = 1; k < 8; k++) t[k * 256 + n] = (t[(k - 1) * 256 + n]! >>> 8) ^ t[t[(k - 1) * 256 + n]! & 0xff]!;
  tables.set(polynomial, t);
  return t;
}

/** Eight bytes per step (slicing-by-8, several times the byte-wise loop: the checksums of every RocksDB block read), the rest byte by byte. */
function update(polynomial: number, crc: number, bytes: Uint8Array): number {
  const t = tableFor(polynomial);
  let c = ~crc >>> 0;
  let i = 0;
  const n8 = bytes.length - 8;
  for (; i <= n8; i += 8) {
    const lo = (c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24))) >>> 0;
    c =
      t[1792 + (lo & 0xff)]! ^
      t[1536 + ((lo >>> 8) & 0xff)]! ^
      t[1280 + ((lo >>> 16) & 0xff)]! ^
      t[1024 + (lo >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
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
