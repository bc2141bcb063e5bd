/**
 * The block checksums of RocksDB's block-based tables (table/format.cc ComputeBuiltinChecksum), over
 * a block's bytes and its compression type byte: masked CRC32C (1), XXH32 (2), the low 32 bits of
 * XXH64 (3), and XXH3 (4: the low 32 bits of XXH3-64 of all bytes but the last, mixed with the last
 * byte times 0x6b9083d9).
 *
 * The xxHash family is written here by hand (from the xxHash specification, seed 0): no maintained
 * pure-JS package computes XXH3-64 (xxhash-wasm and js-xxhash stop at XXH64; xxh3-ts offers only
 * XXH3-128 on Node Buffers), and the core must run in the browser without WebAssembly start-up.
 */
import { computeMaskedCrc32c } from '../../io';

export const CHECKSUM_NAMES: Record<number, string> = { 0: 'no', 1: 'CRC32C', 2: 'xxHash', 3: 'xxHash64', 4: 'XXH3' };

export function computeBlockChecksum(type: number, bytes: Uint8Array): number {
  switch (type) {
    case 1:
      return computeMaskedCrc32c(bytes);
    case 2:
      return computeXxh32(bytes);
    case 3:
      return Number(computeXxh64(bytes) & M32);
    case 4: {
      if (bytes.length === 0) return 0;
      const v = Number(computeXxh3(bytes.subarray(0, bytes.length - 1)) & M32);
      return (v ^ Math.imul(bytes[bytes.length - 1]!, 0x6b9083d9)) >>> 0;
    }
    default:
      throw new Error(`checksum type ${type} has no function`);
  }
}

const M32 = 0xffffffffn;
const M64 = 0xffffffffffffffffn;

// ---- XXH32 ----
const P32_1 = 0x9e3779b1;
const P32_2 = 0x85ebca77;
const P32_3 = 0xc2b2ae3d;
const P32_4 = 0x27d4eb2f;
const P32_5 = 0x165667b1;

function rotl32(x: number, r: number): number {
  return ((x << r) | (x >>> (32 - r))) >>> 0;
}

function u32le(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
}

export function computeXxh32(b: Uint8Array): number {
  const len = b.length;
  let p = 0;
  let h: number;
  if (len >= 16) {
    let v1 = (P32_1 + P32_2) >>> 0;
    let v2 = P32_2;
    let v3 = 0;
    let v4 = (0 - P32_1) >>> 0;
    const round = (acc: number, input: number) => Math.imul(rotl32((acc + Math.imul(input, P32_2)) >>> 0, 13), P32_1) >>> 0;
    for (; p + 16 <= len; p += 16) {
      v1 = round(v1, u32le(b, p));
      v2 = round(v2, u32le(b, p + 4));
      v3 = round(v3, u32le(b, p + 8));
      v4 = round(v4, u32le(b, p + 12));
    }
    h = (rotl32(v1, 1) + rotl32(v2, 7) + rotl32(v3, 12) + rotl32(v4, 18)) >>> 0;
  } else {
    h = P32_5;
  }
  h = (h + len) >>> 0;
  for (; p + 4 <= len; p += 4) h = Math.imul(rotl32((h + Math.imul(u32le(b, p), P32_3)) >>> 0, 17), P32_4) >>> 0;
  for (; p < len; p++) h = Math.imul(rotl32((h + Math.imul(b[p]!, P32_5)) >>> 0, 11), P32_1) >>> 0;
  h = Math.imul(h ^ (h >>> 15), P32_2) >>> 0;
  h = Math.imul(h ^ (h >>> 13), P32_3) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

// ---- XXH64 ----
const P64_1 = 11400714785074694791n;
const P64_2 = 14029467366897019727n;
const P64_3 = 1609587929392839161n;
const P64_4 = 9650029242287828579n;
const P64_5 = 2870177450012600261n;

function rotl64(x: bigint, r: bigint): bigint {
  return ((x << r) | (x >> (64n - r))) & M64;
}

function u64le(b: Uint8Array, p: number): bigint {
  return BigInt(u32le(b, p)) | (BigInt(u32le(b, p + 4)) << 32n);
}

function round64(acc: bigint, input: bigint): bigint {
  return (rotl64((acc + input * P64_2) & M64, 31n) * P64_1) & M64;
}

function avalanche64(h: bigint): bigint {
  h = ((h ^ (h >> 33n)) * P64_2) & M64;
  h = ((h ^ (h >> 29n)) * P64_3) & M64;
  return h ^ (h >> 32n);
}

export function computeXxh64(b: Uint8Array): bigint {
  const len = b.length;
  let p = 0;
  let h: bigint;
  if (len >= 32) {
    let v1 = (P64_1 + P64_2) & M64;
    let v2 = P64_2;
    let v3 = 0n;
    let v4 = (M64 + 1n - P64_1) & M64;
    for (; p + 32 <= len; p += 32) {
      v1 = round64(v1, u64le(b, p));
      v2 = round64(v2, u64le(b, p + 8));
      v3 = round64(v3, u64le(b, p + 16));
      v4 = round64(v4, u64le(b, p + 24));
    }
    h = (rotl64(v1, 1n) + rotl64(v2, 7n) + rotl64(v3, 12n) + rotl64(v4, 18n)) & M64;
    for (const v of [v1, v2, v3, v4]) h = ((h ^ round64(0n, v)) * P64_1 + P64_4) & M64;
  } else {
    h = P64_5;
  }
  h = (h + BigInt(len)) & M64;
  for (; p + 8 <= len; p += 8) h = (rotl64(h ^ round64(0n, u64le(b, p)), 27n) * P64_1 + P64_4) & M64;
  if (p + 4 <= len) {
    h = (rotl64(h ^ ((BigInt(u32le(b, p)) * P64_1) & M64), 23n) * P64_2 + P64_3) & M64;
    p += 4;
  }
  for (; p < len; p++) h = (rotl64(h ^ ((BigInt(b[p]!) * P64_5) & M64), 11n) * P64_1) & M64;
  return avalanche64(h);
}

// ---- XXH3-64, seed 0, default secret ----
const SECRET = Uint8Array.from([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c, 0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40,
  0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, 0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21, 0xb8, 0x08, 0x46, 0x74,
  0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53,
  0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8, 0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f,
  0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, 0xea, 0xc5,
  0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb, 0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26,
  0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16,
  0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]);
const SECRET_SIZE = 192;
const SECRET_SIZE_MIN = 136;
const PRIME_MX1 = 0x165667919e3779f9n;
const PRIME_MX2 = 0x9fb21c651e98df25n;
const STRIPE = 64;
const CONSUME = 8;

function mul128Fold64(a: bigint, b: bigint): bigint {
  const p = a * b;
  return (p & M64) ^ (p >> 64n);
}

function avalanche3(h: bigint): bigint {
  h ^= h >> 37n;
  h = (h * PRIME_MX1) & M64;
  return h ^ (h >> 32n);
}

function bswap64(x: bigint): bigint {
  let r = 0n;
  for (let i = 0; i < 8; i++) {
    r = (r << 8n) | (x & 0xffn);
    x >>= 8n;
  }
  return r;
}

function mix16(b: Uint8Array, p: number, s: number): bigint {
  return mul128Fold64(u64le(b, p) ^ u64le(SECRET, s), u64le(b, p + 8) ^ u64le(SECRET, s + 8));
}

export function computeXxh3(b: Uint8Array): bigint {
  const len = b.length;
  const L = BigInt(len);
  if (len <= 16) {
    if (len > 8) {
      const lo = u64le(SECRET, 24) ^ u64le(SECRET, 32) ^ u64le(b, 0);
      const hi = u64le(SECRET, 40) ^ u64le(SECRET, 48) ^ u64le(b, len - 8);
      return avalanche3((L + bswap64(lo) + hi + mul128Fold64(lo, hi)) & M64);
    }
    if (len >= 4) {
      const input64 = BigInt(u32le(b, len - 4)) | (BigInt(u32le(b, 0)) << 32n);
      let acc = u64le(SECRET, 8) ^ u64le(SECRET, 16) ^ input64;
      acc ^= rotl64(acc, 49n) ^ rotl64(acc, 24n);
      acc = (acc * PRIME_MX2) & M64;
      acc ^= ((acc >> 35n) + L) & M64;
      acc = (acc * PRIME_MX2) & M64;
      return acc ^ (acc >> 28n);
    }
    if (len > 0) {
      const combined = ((b[0]! << 16) | (b[len >> 1]! << 24) | b[len - 1]! | (len << 8)) >>> 0;
      const bitflip = BigInt((u32le(SECRET, 0) ^ u32le(SECRET, 4)) >>> 0);
      return avalanche64(BigInt(combined) ^ bitflip);
    }
    return avalanche64(u64le(SECRET, 56) ^ u64le(SECRET, 64));
  }
  if (len <= 128) {
    let acc = (L * P64_1) & M64;
    let accEnd = 0n;
    const pairs = len > 96 ? 4 : len > 64 ? 3 : len > 32 ? 2 : 1;
    for (let i = 0; i < pairs; i++) {
      acc += mix16(b, 16 * i, 32 * i);
      accEnd += mix16(b, len - 16 * (i + 1), 32 * i + 16);
    }
    return avalanche3((acc + accEnd) & M64);
  }
  if (len <= 240) {
    let acc = (L * P64_1) & M64;
    for (let i = 0; i < 8; i++) acc += mix16(b, 16 * i, 16 * i);
    acc = avalanche3(acc & M64);
    const rounds = Math.floor(len / 16);
    for (let i = 8; i < rounds; i++) acc += mix16(b, 16 * i, 16 * (i - 8) + 3);
    acc += mix16(b, len - 16, SECRET_SIZE_MIN - 17);
    return avalanche3(acc & M64);
  }
  return hashLong(b);
}

function accumulate512(acc: bigint[], b: Uint8Array, p: number, s: number): void {
  for (let i = 0; i < 8; i++) {
    const v = u64le(b, p + 8 * i);
    const k = v ^ u64le(SECRET, s + 8 * i);
    acc[i ^ 1] = (acc[i ^ 1]! + v) & M64;
    acc[i] = (acc[i]! + (k & M32) * (k >> 32n)) & M64;
  }
}

function hashLong(b: Uint8Array): bigint {
  const len = b.length;
  const stripesPerBlock = (SECRET_SIZE - STRIPE) / CONSUME;
  const blockLen = STRIPE * stripesPerBlock;
  const blocks = Math.floor((len - 1) / blockLen);
  const acc = [BigInt(P32_3), P64_1, P64_2, P64_3, P64_4, BigInt(P32_2), P64_5, BigInt(P32_1)];
  for (let n = 0; n < blocks; n++) {
    for (let s = 0; s < stripesPerBlock; s++) accumulate512(acc, b, n * blockLen + s * STRIPE, s * CONSUME);
    const sp = SECRET_SIZE - STRIPE;
    for (let i = 0; i < 8; i++) {
      let a = acc[i]!;
      a ^= a >> 47n;
      a ^= u64le(SECRET, sp + 8 * i);
      acc[i] = (a * BigInt(P32_1)) & M64;
    }
  }
  const stripes = Math.floor((len - 1 - blockLen * blocks) / STRIPE);
  for (let s = 0; s < stripes; s++) accumulate512(acc, b, blocks * blockLen + s * STRIPE, s * CONSUME);
  accumulate512(acc, b, len - STRIPE, SECRET_SIZE - STRIPE - 7);
  let result = (BigInt(len) * P64_1) & M64;
  for (let i = 0; i < 4; i++) result += mul128Fold64(acc[2 * i]! ^ u64le(SECRET, 11 + 16 * i), acc[2 * i + 1]! ^ u64le(SECRET, 11 + 16 * i + 8));
  return avalanche3(result & M64);
}
