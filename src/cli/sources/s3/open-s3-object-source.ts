import { DecodeError, formatS3Url, type ByteSource } from '../../../core/io';
import type { S3Store } from './s3-store';

/**
 * A ByteSource over one S3 object: every read is one ranged GET for exactly the bytes asked for, made
 * with `If-Match` on the object's ETag, so an object overwritten between two reads is an error (never a
 * mixed read). Reads may run in parallel; nothing is buffered beyond the range asked for.
 *
 * `known` gives the size and ETag when a listing or a HEAD already told them; without it (a file an
 * absolute handle names, whose size the handle records), the first read asks HEAD, checks that the object
 * holds at least `declaredSize` bytes and pins its ETag; a failed HEAD is remembered and rethrown.
 */
export function openS3ObjectSource(store: S3Store, bucket: string, key: string, init: { known?: { size: number; etag: string }; declaredSize?: number; name?: string; cacheWhole?: boolean }): ByteSource {
  const url = formatS3Url(bucket, key);
  const name = init.name ?? url;
  const size = init.known?.size ?? init.declaredSize ?? 0;
  let whole: Promise<Uint8Array> | undefined;
  let etag: Promise<string> | undefined = init.known === undefined ? undefined : Promise.resolve(init.known.etag);
  const pin = (): Promise<string> => {
    etag ??= (async () => {
      const info = await store.head(bucket, key);
      if (info === undefined) {
        throw new DecodeError({ code: 'missing-file', file: name, detail: `expected ${url} (bucket ${bucket}, key ${key}; ${store.endpoint}; credentials from ${await store.credentialSource(bucket, key)}), found no such object (404 NoSuchKey)` });
      }
      if (info.size < size) {
        throw new DecodeError({ code: 'truncated', file: name, offset: info.size, detail: `expected ${url} to hold the ${size} bytes its state handle records, found ${info.size} bytes` });
      }
      return info.etag;
    })();
    return etag;
  };
  return {
    name,
    size,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: name, offset });
      }
      const tag = await pin();
      if (length === 0) return new Uint8Array(0);
      // `_metadata` is read whole several times (opening, the check, the headers): one GET
      if (init.cacheWhole === true && offset === 0 && length === size) return (whole ??= store.readRange(bucket, key, 0, size, tag).catch((e: unknown) => { whole = undefined; throw e; }));
      try {
        return await store.readRange(bucket, key, offset, length, tag);
      } catch (e) {
        // the store's failure names the URL; a source of another display name (an archive entry, a mapped path) keeps its own
        throw e instanceof DecodeError && name !== url ? new DecodeError({ code: e.code, detail: e.detail, file: name, offset, cause: e }) : e;
      }
    },
  };
}
