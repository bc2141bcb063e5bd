import { isAzureUrl, isGcsUrl, isHdfsUrl, isS3Url, parseAzureUrl, parseGcsUrl, parseHdfsUrl, parseS3Url } from '../../core/io';
import { azureBucket } from './azure/azure-bucket';
import { createAzureStore, type AzureStore } from './azure/azure-store';
import { gcsBucket } from './gcs/gcs-bucket';
import { createGcsStore, type GcsStore } from './gcs/gcs-store';
import type { ObjectBucket } from './object-store';
import { s3Bucket } from './s3/s3-bucket';
import { createS3Store, type S3Store } from './s3/s3-store';
import { hdfsBucket } from './webhdfs/hdfs-bucket';
import { createWebHdfsStore, WEBHDFS_ENDPOINT_ENV, type WebHdfsStore } from './webhdfs/webhdfs-store';

/** Where an object-store URL points: its bucket (the client made on first use) and the key in it. */
export interface StoreLocation {
  bucket(): Promise<ObjectBucket>;
  readonly key: string;
}

/** The object-store clients of one command, made on first use and shared by the input and its absolute handles. */
export interface ObjectStores {
  /** the bucket and key an `s3://`, Azure or `gs://` URL names; undefined for any other URL or path */
  locate(url: string): StoreLocation | undefined;
  /**
   * Whether an absolute handle naming `url`, which the input does not hold and no --path-map maps, is read
   * from its store (default: yes). An `hdfs://` handle is read from HDFS only when the input is on HDFS or
   * SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT is set; a local copy otherwise reports it missing, as before.
   */
  readsUnmapped?(url: string): boolean;
}

export function createObjectStores(options: { input?: string } = {}): ObjectStores {
  let s3: Promise<S3Store> | undefined;
  // one WebHDFS client per NameNode
  const hdfs = new Map<string, WebHdfsStore>();
  const hdfsHandles = (options.input !== undefined && isHdfsUrl(options.input)) || (process.env[WEBHDFS_ENDPOINT_ENV] ?? '') !== '';
  let gcs: Promise<GcsStore> | undefined;
  // one client per storage account (absolute handles may name another account than the input)
  const azure = new Map<string, Promise<AzureStore>>();
  return {
    locate(url) {
      if (isAzureUrl(url)) {
        const at = parseAzureUrl(url);
        return {
          key: at.blob,
          bucket: async () => {
            const id = `${at.account}@${at.host.toLowerCase()}`;
            let found = azure.get(id);
            if (found === undefined) azure.set(id, (found = createAzureStore(at.account, at.host)));
            return azureBucket(await found, at);
          },
        };
      }
      if (isHdfsUrl(url)) {
        const at = parseHdfsUrl(url);
        return {
          key: at.path.slice(1),
          bucket: () => {
            const id = `${at.scheme}://${at.authority.toLowerCase()}`;
            let found = hdfs.get(id);
            if (found === undefined) hdfs.set(id, (found = createWebHdfsStore(at)));
            return Promise.resolve(hdfsBucket(found, at));
          },
        };
      }
      if (isS3Url(url)) {
        const { bucket, key } = parseS3Url(url);
        return { key, bucket: async () => s3Bucket(await (s3 ??= createS3Store()), bucket) };
      }
      if (isGcsUrl(url)) {
        const { bucket, key } = parseGcsUrl(url);
        return { key, bucket: async () => gcsBucket(await (gcs ??= createGcsStore()), bucket) };
      }
      return undefined;
    },
    readsUnmapped: (url) => !isHdfsUrl(url) || hdfsHandles,
  };
}
