// snappyjs 0.7.0 ships no type declarations; its decompressor class, which decompresses into a buffer given to it.
declare module 'snappyjs/snappy_decompressor.js' {
  export class SnappyDecompressor {
    constructor(compressed: Uint8Array);
    /** the declared uncompressed length, -1 when the varint is bad */
    readUncompressedLength(): number;
    /** false on a bad bitstream; writes past the end of `out` are dropped */
    uncompressToBuffer(out: Uint8Array): boolean;
  }
}
