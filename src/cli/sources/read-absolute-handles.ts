/**
 * Absolute state handles read where they point. A checkpoint names its files by the URI they were
 * written to (`s3://bucket/flink/checkpoints/<job>/shared/<uuid>`, `file:/…`); openSavepoint resolves a
 * handle first by base name next to `_metadata`, then through SavepointFiles.resolveAbsolute. This adds,
 * to that resolveAbsolute:
 *
 * - `--path-map FROM=TO` (core/io path-map.ts): a handle whose path starts with FROM is read at TO + the
 *   rest, from S3 (`s3://…`), Azure (`abfss://…`, `wasbs://…`), HDFS (`hdfs://…`, `webhdfs://…`) or a local file (`file:///…`, `/…`),
 *   before anything else;
 * - a handle naming an `s3://` (`s3a://`, `s3p://`) or Azure (`abfs://`, `abfss://`, `wasb://`, `wasbs://`)
 *   URI that the input itself does not hold is read from the store it names.
 *
 * Each such file is a lazy source: opening costs nothing, and files never read are never fetched. Its
 * size is the largest the handles naming it record (a file's size, a merged file's segment end); the
 * first read asks the object's (or file's) real size (an S3 HEAD, which pins its ETag) and refuses a
 * range beyond it.
 */
import { applyPathMap, DecodeError, isAzureUrl, isHdfsUrl, isS3Url, localPathOf, parseAzureUrl, parseHdfsUrl, parseS3Url, type ByteSource, type HdfsLocation, type PathMapping, type SavepointFiles } from '../../core/io';
import type { AzureStore } from './azure/azure-store';
import { azureWhere } from './azure/describe-azure-failure';
import { openAzureObjectSource } from './azure/open-azure-object-source';
import { openNodeFileSource } from './node-file-source';
import { openS3ObjectSource } from './s3/open-s3-object-source';
import type { S3Store } from './s3/s3-store';
import { openHdfsFileSource } from './webhdfs/open-webhdfs-input';
import type { WebHdfsStore } from './webhdfs/webhdfs-store';

/** The object-store clients of one command, made on first use: S3's, and Azure's per storage account. */
export interface ObjectStores {
  s3(): Promise<S3Store>;
  azure(account: string, host: string): Promise<AzureStore>;
  /** the WebHDFS client of a NameNode (hdfs://, webhdfs://, swebhdfs://) */
  hdfs(at: Pick<HdfsLocation, 'scheme' | 'authority'>): WebHdfsStore;
  /**
   * whether an hdfs:// handle the input does not hold is read from HDFS (the input is on HDFS, or
   * SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT is set); otherwise a local copy says the file is missing, as before.
   * A --path-map target on HDFS is always read.
   */
  hdfsHandles?: boolean;
}

export function readAbsoluteHandles(files: SavepointFiles, pathMap: readonly PathMapping[], stores: ObjectStores): SavepointFiles {
  const opened = new Map<string, { source: GrowingSource; path: string }>();
  const inner = files.resolveAbsolute?.bind(files);
  const resolveAbsolute = (path: string, recordedSize?: number): { source: ByteSource; path: string } | undefined => {
    const mapped = applyPathMap(path, pathMap);
    if (mapped === undefined) {
      const here = inner?.(path, recordedSize);
      if (here !== undefined || !(isS3Url(path) || isAzureUrl(path) || (isHdfsUrl(path) && stores.hdfsHandles === true))) return here;
    }
    const target = mapped ?? path;
    let found = opened.get(target);
    if (found === undefined) {
      const source = openTarget(target, stores);
      if (source === undefined) return inner?.(path, recordedSize);
      found = { source, path: target };
      opened.set(target, found);
    }
    found.source.grow(recordedSize ?? 0);
    return found;
  };
  return { ...files, resolveRelative: files.resolveRelative.bind(files), resolveAbsolute };
}

/** A lazy source whose size is the largest any handle records for it (handles are resolved before they are read). */
interface GrowingSource extends ByteSource {
  grow(size: number): void;
}

function openTarget(target: string, stores: ObjectStores): GrowingSource | undefined {
  let open: () => Promise<ByteSource>;
  if (isAzureUrl(target)) {
    const at = parseAzureUrl(target);
    open = async () => {
      const store = await stores.azure(at.account, at.host);
      const info = await store.head(at, at.blob);
      if (info === undefined) {
        throw new DecodeError({ code: 'missing-file', file: target, detail: `expected the state file ${target} (${azureWhere(at, at.blob, store.endpoint, await store.credentialSource(at, at.blob))}), found no such blob (404 BlobNotFound)` });
      }
      return openAzureObjectSource(store, at, at.blob, { known: info, name: target });
    };
  } else if (isHdfsUrl(target)) {
    const at = parseHdfsUrl(target);
    open = async () => {
      const store = stores.hdfs(at);
      const info = await store.head(at.path);
      if (info === undefined || info.directory) {
        throw new DecodeError({ code: 'missing-file', file: target, detail: `expected the state file ${target} (${store.endpoint}; ${store.credentialSource()}), found ${info === undefined ? 'no such file (404 FileNotFoundException)' : 'a folder'}` });
      }
      return openHdfsFileSource(store, at.path, { known: info, name: target });
    };
  } else if (isS3Url(target)) {
    const { bucket, key } = parseS3Url(target);
    open = async () => {
      const store = await stores.s3();
      const info = await store.head(bucket, key);
      if (info === undefined) {
        throw new DecodeError({ code: 'missing-file', file: target, detail: `expected the state file ${target} (bucket ${bucket}, key ${key}; ${store.endpoint}; credentials from ${await store.credentialSource(bucket, key)}), found no such object (404 NoSuchKey)` });
      }
      return openS3ObjectSource(store, bucket, key, { known: info, name: target });
    };
  } else {
    const local = localPathOf(target);
    if (local === undefined) return undefined;
    open = () =>
      openNodeFileSource(local, target).catch((e: unknown) => {
        const code = (e as { code?: unknown }).code;
        throw new DecodeError({ code: 'missing-file', file: target, detail: `expected the state file ${local} (mapped by --path-map), found ${code === 'ENOENT' ? 'no such file' : String((e as Error).message)}`, cause: e });
      });
  }
  let size = 0;
  let source: Promise<ByteSource> | undefined;
  return {
    name: target,
    get size() {
      return size;
    },
    grow(n) {
      size = Math.max(size, n);
    },
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: target, offset });
      }
      const real = await (source ??= open());
      if (offset + length > real.size) {
        throw new DecodeError({ code: 'truncated', file: target, offset: real.size, detail: `expected ${target} to hold the ${size} bytes its state handle records, found ${real.size} bytes` });
      }
      return real.read(offset, length);
    },
  };
}
