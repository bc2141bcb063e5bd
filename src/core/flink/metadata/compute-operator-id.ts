/**
 * Operator id from a user uid: Guava `Hashing.murmur3_128(0)` over the uid's UTF-8
 * bytes, the 16 hash bytes in Guava's `asBytes()` order (h1 little-endian, then h2 little-endian),
 * printed as 32 lower-case hex characters — the id Flink stores in `_metadata`.
 */

const MASK64 = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

export function computeOperatorId(uid: string): string {
  const [h1, h2] = computeMurmur3x64128(encodeJavaUtf8(uid), 0);
  return toLittleEndianHex(h1) + toLittleEndianHex(h2);
}

/** MurmurHash3 x64 128-bit (Austin Appleby's, as in Guava) → [h1, h2] as unsigned 64-bit bigints. */
export function computeMurmur3x64128(data: Uint8Array, seed = 0): [bigint, bigint] {
  let h1 = BigInt(seed >>> 0);
  let h2 = h1;
  const blocks = Math.floor(data.length / 16);
  for (let i = 0; i < blocks; i++) {
    const k1 = readLittleEndian64(data, i * 16, 8);
    const k2 = readLittleEndian64(data, i * 16 + 8, 8);
    h1 ^= mixK1(k1);
    h1 = rotl64(h1, 27);
    h1 = (h1 + h2) & MASK64;
    h1 = (h1 * 5n + 0x52dce729n) & MASK64;
    h2 ^= mixK2(k2);
    h2 = rotl64(h2, 31);
    h2 = (h2 + h1) & MASK64;
    h2 = (h2 * 5n + 0x38495ab5n) & MASK64;
  }
  const tail = blocks * 16;
  const rest = data.length - tail;
  if (rest > 8) h2 ^= mixK2(readLittleEndian64(data, tail + 8, rest - 8));
  if (rest > 0) h1 ^= mixK1(readLittleEndian64(data, tail, Math.min(rest, 8)));
  const len = BigInt(data.length);
  h1 ^= len;
  h2 ^= len;
  h1 = (h1 + h2) & MASK64;
  h2 = (h2 + h1) & MASK64;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = (h1 + h2) & MASK64;
  h2 = (h2 + h1) & MASK64;
  return [h1, h2];
}

function mixK1(k: bigint): bigint {
  return (rotl64((k * C1) & MASK64, 31) * C2) & MASK64;
}
function mixK2(k: bigint): bigint {
  return (rotl64((k * C2) & MASK64, 33) * C1) & MASK64;
}
function rotl64(x: bigint, r: number): bigint {
  const b = BigInt(r);
  return ((x << b) | (x >> (64n - b))) & MASK64;
}
function fmix64(k: bigint): bigint {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & MASK64;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & MASK64;
  k ^= k >> 33n;
  return k;
}
function readLittleEndian64(data: Uint8Array, at: number, n: number): bigint {
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(data[at + i]!);
  return v;
}
function toLittleEndianHex(v: bigint): string {
  let s = '';
  for (let i = 0; i < 8; i++)
    s += Number((v >> BigInt(8 * i)) & 0xffn)
      .toString(16)
      .padStart(2, '0');
  return s;
}

/** UTF-8 as Java's `String.getBytes(UTF_8)`: unpaired surrogates become `?` (0x3F). */
export function encodeJavaUtf8(s: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) out.push(0x3f);
    else if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Uint8Array.from(out);
}
