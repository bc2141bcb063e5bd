import { formatAzureUrl } from '../../../core/io';
import type { ObjectBucket } from '../object-store';
import type { AzureAt, AzureStore } from './azure-store';
import { azureWhere } from './describe-azure-failure';

const WORDS = { object: 'blob', key: 'name', pin: 'ETag', missing: 'no such blob (404 BlobNotFound)' } as const;

/** One Azure container (of one account) as the store-independent readers see it (object-store.ts). */
export function azureBucket(store: AzureStore, at: AzureAt): ObjectBucket {
  return {
    name: at.container,
    endpoint: store.endpoint,
    words: WORDS,
    urlOf: (blob) => formatAzureUrl(at, blob),
    where: (blob, credentials) => azureWhere(at, blob, store.endpoint, credentials),
    credentialSource: (blob) => store.credentialSource(at, blob),
    head: async (blob) => {
      const info = await store.head(at, blob);
      return info === undefined ? undefined : { key: info.blob, size: info.size, pin: info.etag };
    },
    readRange: (blob, offset, length, pin) => store.readRange(at, blob, offset, length, pin),
    list: async (prefix, options) => {
      const listed = await store.list(at, prefix, options);
      return { objects: listed.blobs.map((o) => ({ key: o.blob, size: o.size, pin: o.etag })), prefixes: listed.prefixes };
    },
  };
}
