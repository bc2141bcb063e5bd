/**
 * Object-store URLs as Flink writes them in `state.savepoints.dir` / `execution.checkpointing.dir` and in
 * absolute state handles. `s3://`, `s3a://` and `s3p://` (Flink's S3 file systems: Presto's, Hadoop's)
 * all name an object `bucket` / `key` of S3 or an S3-compatible store; they are read alike. The other
 * schemes of object stores Flink writes (GCS, Azure, OSS, HDFS) are recognised so that they get a clear
 * "not read yet" message instead of being taken for local paths. Pure: no client, no platform.
 */
import { wrongInput } from './usage-error';

/** An S3 object or prefix: `key` has no leading '/', and is '' for the bucket's root. */
export interface S3Location {
  readonly scheme: 's3' | 's3a' | 's3p';
  readonly bucket: string;
  readonly key: string;
}

const S3_URL = /^(s3|s3a|s3p):\/\/([^/?#]*)(\/[^?#]*)?$/i;
/** object stores Flink writes to whose URLs this inspector recognises but does not read yet */
const OTHER_STORES = /^(gs|abfss?|wasbs?|oss|hdfs|webhdfs|cosn|obs):\/\//i;

/** `s3://…`, `s3a://…` or `s3p://…` (case-insensitive scheme). */
export function isS3Url(s: string): boolean {
  return /^(s3|s3a|s3p):\/\//i.test(s);
}

/** Any object-store URL Flink may write (S3 or another store): never a local path. */
export function isObjectStoreUrl(s: string): boolean {
  return isS3Url(s) || OTHER_STORES.test(s);
}

/**
 * Parses an S3 URL; a URL that is not one, or whose bucket name S3 would refuse, is a `bad-url` UsageError.
 * A query or fragment is refused rather than dropped: object keys are taken literally.
 */
export function parseS3Url(url: string): S3Location {
  const m = S3_URL.exec(url);
  if (m === null) {
    if (isS3Url(url)) throw wrongInput('bad-url', `expected an S3 URL s3://BUCKET/KEY without ? or #, found ${url}`);
    throw wrongInput('bad-url', `expected an S3 URL (s3://, s3a:// or s3p://), found ${url}`);
  }
  const bucket = m[2]!;
  // S3's rule for bucket names: 3–63 lowercase letters, digits, dots and hyphens (older buckets may hold '_' and capitals)
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,62}$/.test(bucket)) {
    throw wrongInput('bad-url', `expected a bucket name in ${url} (3 to 63 letters, digits, '.', '-' or '_'), found ${bucket === '' ? 'none' : `"${bucket}"`}`);
  }
  return { scheme: m[1]!.toLowerCase() as S3Location['scheme'], bucket, key: (m[3] ?? '').replace(/^\/+/, '') };
}

/** The canonical URL of an S3 object or prefix (always `s3://`). */
export function formatS3Url(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}

/** The UsageError for an object-store URL whose store is not read yet (GCS, Azure, OSS, HDFS, …). */
export function unsupportedStoreError(url: string): ReturnType<typeof wrongInput> | undefined {
  const m = OTHER_STORES.exec(url);
  if (m === null) return undefined;
  return wrongInput('bad-url', `expected a savepoint on local disk, over http(s) or in S3 (s3://, s3a://, s3p://), found a ${m[1]!.toLowerCase()}:// URL: this store is not read directly yet; copy the savepoint locally (or serve it over http(s)) and open the copy`);
}
