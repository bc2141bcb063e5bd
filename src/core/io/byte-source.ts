import { DecodeError } from './decode-error';

/**
 * The one input abstraction of the core: something with a name and a size whose byte ranges can
 * be read. A browser File/Blob, a Node file, an HTTP range reader and test bytes all implement it,
 * so the same decoding code runs everywhere and reads only what it needs.
 */
export interface ByteSource {
  /** Path-like name as the user sees it, e.g. `savepoint-1/_metadata` or `state.zip!/sp/abc`. */
  readonly name: string;
  readonly size: number;
  /** Reads exactly [offset, offset + length); rejects with a DecodeError if out of range. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Optional: the same bytes written into `target` (at least `length` long), returned as
   * `target.subarray(0, length)`, so a reader that reuses its buffers allocates nothing per read.
   * Readers fall back to `read` where a source does not offer it.
   */
  readInto?(offset: number, length: number, target: Uint8Array): Promise<Uint8Array>;
}

export function bytesSource(name: string, bytes: Uint8Array): ByteSource {
  return {
    name,
    size: bytes.length,
    read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > bytes.length) {
        return Promise.reject(
          new DecodeError({
            code: 'truncated',
            detail: `expected ${length} bytes at offset ${offset}, found a ${bytes.length}-byte file`,
            file: name,
            offset,
          }),
        );
      }
      return Promise.resolve(bytes.subarray(offset, offset + length));
    },
  };
}

/** Reads a whole source (use only for small files such as `_metadata` or state headers). */
export async function readAll(source: ByteSource): Promise<Uint8Array> {
  return source.read(0, source.size);
}
