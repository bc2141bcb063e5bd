/**
 * What the store-independent readers (open-pinned-object-source.ts, open-object-store-input.ts,
 * read-absolute-handles.ts) need of an object store: one bucket (an S3 bucket, an Azure container, a GCS
 * bucket) with five calls and the store's own words for its messages. Each store is a thin adapter from
 * its client to this (s3/s3-bucket.ts, azure/azure-bucket.ts, gcs/gcs-bucket.ts); a new store (WebHDFS)
 * implements ObjectBucket and gets folder / `_metadata` / archive / checkpoint-directory opening,
 * version pinning, worker-thread re-opening and absolute handles for free.
 */

/** One listed or HEADed object. */
export interface StoredObjectInfo {
  /** the object's key (S3, GCS) or blob name (Azure), from the bucket's root */
  readonly key: string;
  readonly size: number;
  /**
   * what pins this version of the object (S3/Azure: the quoted ETag; GCS: the generation): readRange
   * asked with it fails, rather than answering another version, once the object changed
   */
  readonly pin: string;
}

/** The store's own words, so that a message reads as the store's tools would say it. */
export interface StoreWords {
  /** `object` (S3, GCS) or `blob` (Azure) */
  readonly object: string;
  /** what an object is found by: `key` (S3) or `name` (Azure, GCS) */
  readonly key: string;
  /** what pins a version: `ETag` or `generation` */
  readonly pin: string;
  /** what a missing object is found as: `no such object (404 NoSuchKey)` */
  readonly missing: string;
}

export interface ObjectListing {
  readonly objects: readonly StoredObjectInfo[];
  /** the "folders" right below the prefix (with a delimiter), each ending in '/' */
  readonly prefixes: readonly string[];
}

/** One bucket (container) of one store, reached with one client and one credential source. */
export interface ObjectBucket {
  /** the bucket's (container's) name: the folder name of a savepoint at the bucket's root */
  readonly name: string;
  /** where requests go, for messages: `AWS S3 (region eu-west-1)`, `http://127.0.0.1:4443 (STORAGE_EMULATOR_HOST)` */
  readonly endpoint: string;
  readonly words: StoreWords;
  /** the URL of `key` in this bucket (`s3://b/k`, `abfss://c@a.dfs.core.windows.net/k`, `gs://b/k`) */
  urlOf(key: string): string;
  /**
   * What every message about `key` names, without its parentheses: `bucket B, key K; ENDPOINT; credentials
   * from C` (the credentials when given). `of: 'folder'`: the clause for a prefix read as a folder.
   */
  where(key: string, credentials?: string, of?: 'folder'): string;
  /** how the credentials were found (resolved once); none is a one-line DecodeError naming `key` */
  credentialSource(key: string): Promise<string>;
  /** the object's size and pin, or undefined when there is no such object (the bucket exists) */
  head(key: string): Promise<StoredObjectInfo | undefined>;
  /** exactly [offset, offset + length) of the object as it was when `pin` was read; a changed object is an error */
  readRange(key: string, offset: number, length: number, pin: string): Promise<Uint8Array>;
  /** optional (a store without it is read by readRange alone): the same bytes as one streamed answer, for a whole-state scan (RangeStream) */
  streamRange?(key: string, offset: number, length: number, pin: string): RangeStream;
  /** the objects below `prefix` (all of them, or with `delimiter: '/'` one level), at most `maxObjects` */
  list(prefix: string, options?: { delimiter?: string; maxObjects?: number }): Promise<ObjectListing>;
}

/**
 * [offset, offset + length) of one object version as one streamed answer (one request, not one per read), its
 * chunks handed on as the client receives them: nothing is asked for before the first `next`, and the client
 * reads no further ahead than its socket buffers (backpressure). A transfer broken mid-body (a reset, a short
 * answer) is asked for again from where it broke, within the store's attempts; a changed object, a refusal or
 * the last broken attempt is the store's one-line DecodeError, thrown by `next`.
 */
export interface RangeStream {
  /** the next chunk, in order (its bytes are not reused: a chunk may be kept); undefined after the last byte */
  next(): Promise<Uint8Array | undefined>;
  /**
   * optional: the next chunk if it is received already, without waiting (undefined: none is ready, `next` waits);
   * a scan takes a window's chunks this way, one promise per window instead of one per chunk
   */
  take?(): Uint8Array | undefined;
  /** `false` while nobody waits for a chunk: the open connection then does not keep the process alive */
  hold(active: boolean): void;
  /** ends the answer (its connection) where it is; `next` is not called after */
  close(): void;
}

/**
 * One object, as openPinnedObjectSource reads it: its URL, a HEAD, a ranged read pinned to a version,
 * and how its absence is said.
 */
export interface PinnedObject {
  readonly url: string;
  head(): Promise<{ size: number; pin: string } | undefined>;
  readRange(offset: number, length: number, pin: string): Promise<Uint8Array>;
  /** where the store streams (ObjectBucket.streamRange) */
  streamRange?(offset: number, length: number, pin: string): RangeStream;
  /** what follows the URL in the message for a missing object: ` (WHERE; credentials from C), found no such object (…)` */
  missing(): Promise<string>;
}

/** The object `key` of `bucket`, as a PinnedObject. */
export function objectIn(bucket: ObjectBucket, key: string): PinnedObject {
  return {
    url: bucket.urlOf(key),
    head: () => bucket.head(key),
    readRange: (offset, length, pin) => bucket.readRange(key, offset, length, pin),
    ...(bucket.streamRange === undefined
      ? {}
      : { streamRange: (offset: number, length: number, pin: string) => bucket.streamRange!(key, offset, length, pin) }),
    missing: async () => ` (${bucket.where(key, await bucket.credentialSource(key))}), found ${bucket.words.missing}`,
  };
}

/** `LABEL VALUE, LABEL VALUE; ENDPOINT[; credentials from C]`: the "where" clause of every store's messages. */
export function storeWhere(names: readonly (readonly [string, string])[], endpoint: string, credentials?: string): string {
  return `${names.map(([label, value]) => `${label} ${value}`).join(', ')}; ${endpoint}${credentials === undefined ? '' : `; credentials from ${credentials}`}`;
}

/** What a Node network error code means, for every store's failure messages. */
export const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNRESET: 'the connection was reset',
  ECONNREFUSED: 'the connection was refused: nothing listens at that host and port',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now (DNS)',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection was closed',
  ECONNABORTED: 'the connection was aborted',
};
