import { describe, expect, it } from 'vitest';
import { computeBlockChecksum, computeXxh3, computeXxh32, computeXxh64 } from './compute-block-checksum';

// reference values from libxxhash 0.8.1 (XXH3_64bits, XXH64 and XXH32 with seed 0) over bytes (i * 7 + 3) & 255
const VECTORS: [number, bigint, bigint, number][] = [
  [0, 0x2d06800538d394c2n, 0xef46db3751d8e999n, 0x2cc5d05],
  [1, 0x13e608bc156defedn, 0x1f25c8d0bc1f4bb6n, 0x21ae663a],
  [3, 0xa9088dda485b481cn, 0x31d2363f52e564c9n, 0xcd3d2242],
  [4, 0x6d9253b16c8b1ed3n, 0x9bb64b7d66ee9fdan, 0x725479f2],
  [8, 0x60539db630471163n, 0xdab99d95c6f90092n, 0x29b5025a],
  [9, 0xfeff668361d723a8n, 0x170bb6bf975b4c02n, 0xd8286c54],
  [16, 0xb8c859b0f030b585n, 0x434850232b787be2n, 0x8845547d],
  [17, 0x714a04408e79b80fn, 0x1efa7025f1b97a7an, 0x450e5f84],
  [100, 0xb5937857f0d78c9fn, 0xa61f8d4c170fe531n, 0x73091a4d],
  [128, 0x67425a03650261bfn, 0x46fbcfbf0150793fn, 0x4a61f5b0],
  [129, 0xc664bf3311c6abc4n, 0x3eb5d118151c8303n, 0x8491ee68],
  [200, 0x746cd0025327bf5bn, 0xa6cb3c09bc829b24n, 0x2870dbaa],
  [240, 0x64556dc6b462a6cfn, 0x42562f61ef11b5aen, 0x63424396],
  [241, 0x8beadd3a8874fe17n, 0x7cf94f8eba111b5n, 0x607a9c5f],
  [1000, 0x6c4f14bd97bd9e82n, 0x5f235fa033f1a3fbn, 0xc85a5152],
  [1025, 0x806c2072ed713576n, 0x6385e21250a735can, 0xecafbf6d],
  [5000, 0x799aaddd7339581dn, 0x9a8d831c04aa8b1dn, 0x5a67584b],
];

const data = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) & 255);

describe('computeBlockChecksum', () => {
  it.each(VECTORS)('xxHash family over %i bytes equals libxxhash', (n, xxh3, xxh64, xxh32) => {
    expect(computeXxh3(data(n))).toBe(xxh3);
    expect(computeXxh64(data(n))).toBe(xxh64);
    expect(computeXxh32(data(n))).toBe(xxh32);
  });

  it('RocksDB XXH3: the low 32 bits of XXH3 of all but the last byte, mixed with the last byte', () => {
    const b = data(101);
    const expected = (Number(0xb5937857f0d78c9fn & 0xffffffffn) ^ Math.imul(b[100]!, 0x6b9083d9)) >>> 0;
    expect(computeBlockChecksum(4, b)).toBe(expected);
    expect(computeBlockChecksum(3, data(100))).toBe(0x170fe531);
  });
});
