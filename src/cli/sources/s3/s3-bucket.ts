import { formatS3Url } from '../../../core/io';
import type { ObjectBucket } from '../object-store';
import { s3Where } from './describe-s3-failure';
import type { S3Store } from './s3-store';

const WORDS = { object: 'object', key: 'key', pin: 'ETag', missing: 'no such object (404 NoSuchKey)' } as const;

/** One S3 bucket as the store-independent readers see it (object-store.ts). */
export function s3Bucket(store: S3Store, bucket: string): ObjectBucket {
  return {
    name: bucket,
    endpoint: store.endpoint,
    words: WORDS,
    urlOf: (key) => formatS3Url(bucket, key),
    // a prefix read as a folder is named by its bucket alone
    where: (key, credentials, of) => s3Where(bucket, of === 'folder' ? undefined : key, store.endpoint, credentials),
    credentialSource: (key) => store.credentialSource(bucket, key),
    head: async (key) => {
      const info = await store.head(bucket, key);
      return info === undefined ? undefined : { key: info.key, size: info.size, pin: info.etag };
    },
    readRange: (key, offset, length, pin) => store.readRange(bucket, key, offset, length, pin),
    streamRange: (key, offset, length, pin) => store.streamRange(bucket, key, offset, length, pin),
    list: async (prefix, options) => {
      const listed = await store.list(bucket, prefix, options);
      return { objects: listed.objects.map((o) => ({ key: o.key, size: o.size, pin: o.etag })), prefixes: listed.prefixes };
    },
  };
}
