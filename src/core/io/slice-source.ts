import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';

/**
 * A ByteSource over [start, start + length) of another source, with its own name. Reads go
 * straight to the parent (no copy, no caching): a STORED zip entry or a tar member reads only the
 * bytes asked for.
 */
export function sliceSource(parent: ByteSource, start: number, length: number, name: string): ByteSource {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(length) || start < 0 || length < 0 || start + length > parent.size) {
    throw new DecodeError({
      code: 'truncated',
      detail: `expected ${name} (${length} bytes at offset ${start}) inside the ${parent.size}-byte ${parent.name}, found it runs past the end`,
      file: parent.name,
      offset: start,
    });
  }
  const read = (offset: number, len: number): Promise<Uint8Array> => {
    if (offset < 0 || len < 0 || offset + len > length) {
      return Promise.reject(
        new DecodeError({
          code: 'truncated',
          detail: `expected ${len} bytes at offset ${offset}, found a ${length}-byte file`,
          file: name,
          offset,
        }),
      );
    }
    return parent.read(start + offset, len);
  };
  const parentReadInto = parent.readInto?.bind(parent);
  return {
    name,
    size: length,
    read,
    ...(parentReadInto === undefined
      ? {}
      : {
          readInto(offset: number, len: number, target: Uint8Array): Promise<Uint8Array> {
            // out of range: read's path, which rejects with this slice's error
            if (offset < 0 || len < 0 || offset + len > length) return read(offset, len);
            return parentReadInto(start + offset, len, target);
          },
        }),
  };
}
