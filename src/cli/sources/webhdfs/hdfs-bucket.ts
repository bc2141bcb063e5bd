import { formatHdfsUrl, type HdfsLocation } from '../../../core/io';
import { storeWhere, type ObjectBucket } from '../object-store';
import type { WebHdfsStore } from './webhdfs-store';

const WORDS = { object: 'file', key: 'path', pin: 'status (fileId:length:modificationTime)', missing: 'no such file (404 FileNotFoundException)' } as const;

/**
 * One HDFS (one NameNode) as the store-independent readers see it (object-store.ts): a key is the HDFS
 * path without its leading '/', a folder a prefix ending in '/'. Folders are not objects: a HEAD of one is
 * "no such object", so that a folder URL is listed, as a prefix of S3 is.
 */
export function hdfsBucket(store: WebHdfsStore, at: Pick<HdfsLocation, 'scheme' | 'authority'>): ObjectBucket {
  const pathOf = (key: string) => `/${key}`;
  return {
    name: at.authority === '' ? 'hdfs' : at.authority,
    endpoint: store.endpoint,
    words: WORDS,
    urlOf: (key) => formatHdfsUrl(at, pathOf(key)),
    where: (key, credentials) => storeWhere([['path', pathOf(key)]], store.endpoint, credentials),
    credentialSource: () => Promise.resolve(store.credentialSource()),
    head: async (key) => {
      const info = await store.head(pathOf(key).replace(/(.)\/+$/, '$1'));
      return info === undefined || info.directory ? undefined : { key, size: info.size, pin: info.etag };
    },
    readRange: (key, offset, length, pin) => store.readRange(pathOf(key), offset, length, pin),
    list: async (prefix, options) => {
      const listed = await store.list(pathOf(prefix), options);
      return { objects: listed.objects.map((o) => ({ key: o.key.slice(1), size: o.size, pin: o.etag })), prefixes: listed.prefixes.map((p) => p.slice(1)) };
    },
  };
}
