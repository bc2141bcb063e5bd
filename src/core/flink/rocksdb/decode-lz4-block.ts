/**
 * Decodes one raw LZ4 block (the LZ4 block format: sequences of token, literals, 2-byte offset and
 * match length; no frame) into exactly `size` bytes, every read and copy bounds-checked.
 *
 * Written by hand: the only pure-JS LZ4 packages (lz4js 0.2.0, last released 2017; lz4 0.6.5, a
 * Node stream binding) either copy without bounds checks, so a corrupt block would come out as
 * silently wrong bytes, or are not platform-free. The block format is one page
 * (lz4/doc/lz4_Block_format.md), and RocksDB's LZ4 and LZ4HC blocks both use it.
 */
export function decodeLz4Block(src: Uint8Array, size: number): Uint8Array | string {
  const dst = new Uint8Array(size);
  let s = 0;
  let d = 0;
  const end = src.length;
  while (s < end) {
    const token = src[s++]!;
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (s >= end) return 'a literal length running past the end of the block';
        b = src[s++]!;
        literals += b;
      } while (b === 255);
    }
    if (s + literals > end) return `${literals} literals at block offset ${s - 1} running past the end of the block`;
    if (d + literals > size) return `more than the declared ${size} decompressed bytes`;
    dst.set(src.subarray(s, s + literals), d);
    s += literals;
    d += literals;
    if (s === end) break; // the last sequence has literals only
    if (s + 2 > end) return 'a match offset running past the end of the block';
    const offset = src[s]! | (src[s + 1]! << 8);
    s += 2;
    if (offset === 0 || offset > d) return `a match offset ${offset} before the start of the output (at output byte ${d})`;
    let match = token & 15;
    if (match === 15) {
      let b: number;
      do {
        if (s >= end) return 'a match length running past the end of the block';
        b = src[s++]!;
        match += b;
      } while (b === 255);
    }
    match += 4;
    if (d + match > size) return `more than the declared ${size} decompressed bytes`;
    for (let i = d - offset, n = i + match; i < n;) dst[d++] = dst[i++]!;
  }
  if (d !== size) return `${d} decompressed bytes where the block declares ${size}`;
  return dst;
}
