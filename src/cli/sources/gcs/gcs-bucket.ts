import { formatGcsUrl } from '../../../core/io';
import type { ObjectBucket } from '../object-store';
import { gcsWhere } from './describe-gcs-failure';
import type { GcsStore } from './gcs-store';

const WORDS = { object: 'object', key: 'name', pin: 'generation', missing: 'no such object (404)' } as const;

/** One GCS bucket as the store-independent readers see it (object-store.ts): versions pinned by generation. */
export function gcsBucket(store: GcsStore, bucket: string): ObjectBucket {
  return {
    name: bucket,
    endpoint: store.endpoint,
    words: WORDS,
    urlOf: (key) => formatGcsUrl(bucket, key),
    where: (key, credentials) => gcsWhere(bucket, key, store.endpoint, credentials),
    credentialSource: (key) => store.credentialSource(bucket, key),
    head: async (key) => {
      const info = await store.head(bucket, key);
      return info === undefined ? undefined : { key: info.key, size: info.size, pin: info.generation };
    },
    readRange: (key, offset, length, pin) => store.readRange(bucket, key, offset, length, pin),
    list: async (prefix, options) => {
      const listed = await store.list(bucket, prefix, options);
      return { objects: listed.objects.map((o) => ({ key: o.key, size: o.size, pin: o.generation })), prefixes: listed.prefixes };
    },
  };
}
