import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';
import { openHttpRangeSource, type RangeFetch } from './open-http-range-source';

/**
 * A ByteSource over a URL whose size is already known (a state handle records its file's size),
 * so opening it costs no request at all: the first read probes the URL (openHttpRangeSource: one
 * 1-byte Range request), checks that the file holds at least `declaredSize` bytes, and every read
 * after that is one Range request for exactly the bytes asked for. Files never read are never
 * fetched. A failed probe (404, no Range support, network) is remembered and rethrown by every read.
 */
export function openLazyHttpSource(url: string, fetchFn: RangeFetch, declaredSize: number, name = url): ByteSource {
  let opened: Promise<ByteSource> | undefined;
  const open = async (): Promise<ByteSource> => {
    const source = await openHttpRangeSource(url, fetchFn, name);
    if (source.size < declaredSize) {
      throw new DecodeError({
        code: 'truncated',
        file: name,
        offset: source.size,
        detail: `expected ${url} to hold the ${declaredSize} bytes its state handle records, found ${source.size} bytes`,
      });
    }
    return source;
  };
  return {
    name,
    size: declaredSize,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > declaredSize) {
        throw new DecodeError({
          code: 'truncated',
          detail: `expected ${length} bytes at offset ${offset}, found a ${declaredSize}-byte file`,
          file: name,
          offset,
        });
      }
      opened ??= open();
      const source = await opened;
      return length === 0 ? new Uint8Array(0) : source.read(offset, length);
    },
  };
}
