// snappyjs 0.7.0 ships no type declarations; this covers the two functions the core uses.
declare module 'snappyjs' {
  /** Decompresses a raw Snappy block; throws Error when the declared length exceeds maxLength. */
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
  /** Compresses into a raw Snappy block. */
  export function compress(uncompressed: Uint8Array): Uint8Array;
}
