import { DecodeError, formatAzureUrl, type ByteSource } from '../../../core/io';
import { azureWhere } from './describe-azure-failure';
import type { AzureAt, AzureStore } from './azure-store';

/**
 * A ByteSource over one Azure blob: every read is one ranged GET for exactly the bytes asked for, made
 * with `If-Match` on the blob's ETag, so a blob overwritten between two reads is an error (never a mixed
 * read). Reads may run in parallel; nothing is buffered beyond the range asked for.
 *
 * `known` gives the size and ETag when a listing or a HEAD already told them; without it, the first read
 * asks HEAD, checks that the blob holds at least `declaredSize` bytes and pins its ETag.
 */
export function openAzureObjectSource(store: AzureStore, at: AzureAt, blob: string, init: { known?: { size: number; etag: string }; declaredSize?: number; name?: string; cacheWhole?: boolean }): ByteSource {
  const url = formatAzureUrl(at, blob);
  const name = init.name ?? url;
  const size = init.known?.size ?? init.declaredSize ?? 0;
  let whole: Promise<Uint8Array> | undefined;
  let etag: Promise<string> | undefined = init.known === undefined ? undefined : Promise.resolve(init.known.etag);
  const pin = (): Promise<string> => {
    etag ??= (async () => {
      const info = await store.head(at, blob);
      if (info === undefined) {
        throw new DecodeError({ code: 'missing-file', file: name, detail: `expected ${url} (${azureWhere(at, blob, store.endpoint, await store.credentialSource(at, blob))}), found no such blob (404 BlobNotFound)` });
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
      if (init.cacheWhole === true && offset === 0 && length === size) return (whole ??= store.readRange(at, blob, 0, size, tag).catch((e: unknown) => { whole = undefined; throw e; }));
      try {
        return await store.readRange(at, blob, offset, length, tag);
      } catch (e) {
        // the store's failure names the URL; a source of another display name (an archive entry, a mapped path) keeps its own
        throw e instanceof DecodeError && name !== url ? new DecodeError({ code: e.code, detail: e.detail, file: name, offset, cause: e }) : e;
      }
    },
  };
}
