/**
 * Object-store URLs as Flink writes them in `state.savepoints.dir` / `execution.checkpointing.dir` and in
 * absolute state handles. `s3://`, `s3a://` and `s3p://` (Flink's S3 file systems: Presto's, Hadoop's)
 * all name an object `bucket` / `key` of S3 or an S3-compatible store; they are read alike. Azure's
 * `abfs://` / `abfss://` (ADLS Gen2, `<container>@<account>.dfs.core.windows.net`) and `wasb://` /
 * `wasbs://` (Blob, `<container>@<account>.blob.core.windows.net`) name a blob `container` / `blob` of a
 * storage `account`; both are read through the Blob endpoint. `gs://` names an object `bucket` / `key` of
 * Google Cloud Storage. HDFS's `hdfs://` (the NameNode's RPC address) and `webhdfs://` / `swebhdfs://` (its
 * HTTP address) name a `path` of a file system, read through WebHDFS. The other schemes of object stores
 * Flink writes (OSS, …) are recognised so that they get a clear "not read yet" message instead of being
 * taken for local paths. Pure: no client, no platform.
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
const OTHER_STORES = /^(oss|cosn|obs):\/\//i;

/** `s3://…`, `s3a://…` or `s3p://…` (case-insensitive scheme). */
export function isS3Url(s: string): boolean {
  return /^(s3|s3a|s3p):\/\//i.test(s);
}

/** Any object-store URL Flink may write (S3 or another store): never a local path. */
export function isObjectStoreUrl(s: string): boolean {
  return isS3Url(s) || isAzureUrl(s) || isGcsUrl(s) || isHdfsUrl(s) || OTHER_STORES.test(s);
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

/** The UsageError for an object-store URL whose store is not read yet (OSS, HDFS, …). */
export function unsupportedStoreError(url: string): ReturnType<typeof wrongInput> | undefined {
  const m = OTHER_STORES.exec(url);
  if (m === null) return undefined;
  return wrongInput(
    'bad-url',
    `expected a savepoint on local disk, over http(s), in S3 (s3://, s3a://, s3p://), in Azure, in GCS or in HDFS, found a ${m[1]!.toLowerCase()}:// URL: only S3, Azure (abfs://, abfss://, wasb://, wasbs://), GCS (gs://) and HDFS (hdfs://, webhdfs://, through WebHDFS) are read directly; this store is not read directly yet; copy the savepoint locally (or serve it over http(s)) and open the copy`,
  );
}

/** An Azure blob or prefix: `blob` has no leading '/', and is '' for the container's root. */
export interface AzureLocation {
  readonly scheme: 'abfs' | 'abfss' | 'wasb' | 'wasbs';
  readonly container: string;
  /** the storage account: the first label of `host` */
  readonly account: string;
  /** as written: `<account>.dfs.core.windows.net`, `<account>.blob.core.windows.net` (or a sovereign cloud's suffix) */
  readonly host: string;
  readonly blob: string;
}

const AZURE_URL = /^(abfss?|wasbs?):\/\/([^/?#@]*)@([^/?#]*)(\/[^?#]*)?$/i;

/** `abfs://`, `abfss://`, `wasb://` or `wasbs://` (case-insensitive scheme). */
export function isAzureUrl(s: string): boolean {
  return /^(abfss?|wasbs?):\/\//i.test(s);
}

/**
 * Parses an Azure URL `abfss://<container>@<account>.dfs.core.windows.net/<path>` (or abfs, wasb, wasbs;
 * `.blob.` or `.dfs.` hosts alike); one without a container, or whose account or container name Azure
 * would refuse, is a `bad-url` UsageError. A query or fragment is refused rather than dropped.
 */
export function parseAzureUrl(url: string): AzureLocation {
  const m = AZURE_URL.exec(url);
  if (m === null) {
    if (isAzureUrl(url))
      throw wrongInput(
        'bad-url',
        `expected an Azure URL abfss://CONTAINER@ACCOUNT.dfs.core.windows.net/PATH (or wasbs://CONTAINER@ACCOUNT.blob.core.windows.net/PATH) without ? or #, found ${url}`,
      );
    throw wrongInput('bad-url', `expected an Azure URL (abfs://, abfss://, wasb:// or wasbs://), found ${url}`);
  }
  const container = m[2]!;
  const host = m[3]!;
  // Azure's rules: containers 3–63 lowercase letters, digits and single hyphens; accounts 3–24 lowercase letters and digits
  if (!/^(?=.{3,63}$)[a-z0-9]+(-[a-z0-9]+)*$/.test(container) && container !== '$root') {
    throw wrongInput(
      'bad-url',
      `expected a container name in ${url} (3 to 63 lowercase letters, digits and '-'), found ${container === '' ? 'none' : `"${container}"`}`,
    );
  }
  const account = host.split('.')[0]!;
  if (!/^[a-z0-9]{3,24}$/.test(account)) {
    throw wrongInput(
      'bad-url',
      `expected a storage account in ${url} (CONTAINER@ACCOUNT.dfs.core.windows.net, the account 3 to 24 lowercase letters and digits), found ${host === '' ? 'none' : `"${host}"`}`,
    );
  }
  return { scheme: m[1]!.toLowerCase() as AzureLocation['scheme'], container, account, host, blob: (m[4] ?? '').replace(/^\/+/, '') };
}

/** The URL of a blob or prefix in the scheme and host the location was written with. */
export function formatAzureUrl(at: Pick<AzureLocation, 'scheme' | 'container' | 'host'>, blob: string): string {
  return `${at.scheme}://${at.container}@${at.host}/${blob}`;
}

/** An HDFS file or folder: `path` is absolute ('/' for the root), as HDFS names it. */
export interface HdfsLocation {
  readonly scheme: 'hdfs' | 'webhdfs' | 'swebhdfs';
  /** `host[:port]` as written; '' for `hdfs:///path` (the cluster's default file system) */
  readonly authority: string;
  readonly path: string;
}

const HDFS_URL = /^(hdfs|webhdfs|swebhdfs):\/\/([^/?#]*)(\/[^?#]*)?$/i;

/** `hdfs://`, `webhdfs://` or `swebhdfs://` (case-insensitive scheme); also `hdfs:/path`, as Flink writes some handles. */
export function isHdfsUrl(s: string): boolean {
  return /^(hdfs|webhdfs|swebhdfs):\//i.test(s);
}

/**
 * Parses `hdfs://NAMENODE[:PORT]/PATH`, `hdfs:///PATH`, `hdfs:/PATH` or `webhdfs://HOST:PORT/PATH` (`swebhdfs://`
 * over TLS); a query or fragment, or a webhdfs:// URL without a host, is a `bad-url` UsageError. Paths are
 * taken literally (percent-escapes are not decoded), with repeated '/' collapsed as HDFS does.
 */
export function parseHdfsUrl(url: string): HdfsLocation {
  const normal = /^hdfs:\/(?!\/)/i.test(url) ? `hdfs://${url.slice('hdfs:'.length)}` : url;
  const m = HDFS_URL.exec(normal);
  if (m === null) {
    if (isHdfsUrl(url)) throw wrongInput('bad-url', `expected an HDFS URL hdfs://NAMENODE:PORT/PATH or webhdfs://HOST:PORT/PATH without ? or #, found ${url}`);
    throw wrongInput('bad-url', `expected an HDFS URL (hdfs://, webhdfs:// or swebhdfs://), found ${url}`);
  }
  const scheme = m[1]!.toLowerCase() as HdfsLocation['scheme'];
  const authority = m[2]!;
  if (scheme !== 'hdfs' && authority === '')
    throw wrongInput('bad-url', `expected the NameNode's HTTP address in ${url} (${scheme}://HOST:PORT/PATH), found none`);
  if (authority !== '' && !/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(:\d{1,5})?$/.test(authority))
    throw wrongInput('bad-url', `expected HOST or HOST:PORT in ${url}, found "${authority}"`);
  return { scheme, authority, path: `/${(m[3] ?? '').replace(/\/{2,}/g, '/').replace(/^\/+/, '')}` };
}

/** The URL of an HDFS path in the scheme and authority the location was written with. */
export function formatHdfsUrl(at: Pick<HdfsLocation, 'scheme' | 'authority'>, path: string): string {
  return `${at.scheme}://${at.authority}${path.startsWith('/') ? path : `/${path}`}`;
}

/** A Google Cloud Storage object or prefix: `key` has no leading '/', and is '' for the bucket's root. */
export interface GcsLocation {
  readonly bucket: string;
  readonly key: string;
}

const GCS_URL = /^gs:\/\/([^/?#]*)(\/[^?#]*)?$/i;

/** `gs://…` (case-insensitive scheme). */
export function isGcsUrl(s: string): boolean {
  return /^gs:\/\//i.test(s);
}

/**
 * Parses a `gs://BUCKET/OBJECT` URL; one whose bucket name GCS would refuse is a `bad-url` UsageError. A
 * query or fragment is refused rather than dropped: object names are taken literally.
 */
export function parseGcsUrl(url: string): GcsLocation {
  const m = GCS_URL.exec(url);
  if (m === null) {
    if (isGcsUrl(url)) throw wrongInput('bad-url', `expected a GCS URL gs://BUCKET/OBJECT without ? or #, found ${url}`);
    throw wrongInput('bad-url', `expected a GCS URL (gs://), found ${url}`);
  }
  const bucket = m[1]!;
  // GCS's rule for bucket names: 3–63 lowercase letters, digits, '-', '_' and '.' (up to 222 with dots), starting and ending with a letter or digit
  if (!/^[a-z0-9](?:[a-z0-9._-]{1,220}[a-z0-9])$/.test(bucket)) {
    throw wrongInput(
      'bad-url',
      `expected a bucket name in ${url} (3 to 63 lowercase letters, digits, '-', '_' or '.'), found ${bucket === '' ? 'none' : `"${bucket}"`}`,
    );
  }
  return { bucket, key: (m[2] ?? '').replace(/^\/+/, '') };
}

/** The URL of a GCS object or prefix. */
export function formatGcsUrl(bucket: string, key: string): string {
  return `gs://${bucket}/${key}`;
}
