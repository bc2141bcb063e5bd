/**
 * Opens a savepoint folder served over HTTP (object storage, a static server) by its URL: downloads
 * `_metadata` once, then lists the files its handles name with their recorded sizes, so that every
 * state file resolves lazily to `<url>/<name>` and is fetched only in the byte ranges read.
 * A header-only inspection of a remote savepoint therefore downloads `_metadata` plus the state
 * headers. The platform's fetch is passed in (browser fetch, Node 20 fetch).
 */
import { createHttpFolderFiles, openHttpFolderMetadata, readAll, type RangeFetch, type SavepointFiles } from '../../io';
import { listStateFileSizes } from './list-state-file-sizes';
import { readCheckpointMetadata } from '../metadata/read-checkpoint-metadata';

export async function openHttpSavepointFolder(baseUrl: string, fetchFn: RangeFetch): Promise<SavepointFiles> {
  const metadata = await openHttpFolderMetadata(baseUrl, fetchFn);
  const parsed = readCheckpointMetadata(await readAll(metadata), metadata.name);
  return createHttpFolderFiles({ baseUrl, fetchFn, metadata, fileSizes: listStateFileSizes(parsed) });
}
