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
  return { name, size: length, read, ...forwardReadInto(parent, start, length, read) };
}

/**
 * `readInto` of a window [start, start + size) of `parent`, when the parent has one: in range it reads
 * straight into the caller's buffer; out of range it takes `read`'s path, which rejects with the
 * window's own error.
 */
export function forwardReadInto(parent: ByteSource, start: number, size: number, read: ByteSource['read']): Pick<ByteSource, 'readInto'> {
  const parentReadInto = parent.readInto?.bind(parent);
  if (parentReadInto === undefined) return {};
  return {
    readInto(offset, length, target) {
      if (offset < 0 || length < 0 || offset + length > size) return read(offset, length);
      return parentReadInto(start + offset, length, target);
    },
  };
}
