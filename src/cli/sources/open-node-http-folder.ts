import { openHttpSavepointFolder } from '../../core/flink';
import type { RangeFetch, SavepointFiles } from '../../core/io';
import { createNodeRangeFetch } from './node-range-fetch';

/** A folder URL: ends with '/' or names `_metadata` itself (then its folder is the savepoint). */
export function isHttpFolderUrl(url: string): boolean {
  const path = url.replace(/[?#].*$/, '');
  return path.endsWith('/') || /\/_metadata$/.test(path);
}

/** Opens a savepoint folder served over HTTP through the CLI's bounded fetch (state files fetched lazily by range). */
export function openNodeHttpFolder(url: string, fetchFn: RangeFetch = createNodeRangeFetch()): Promise<SavepointFiles> {
  const base = url.replace(/[?#].*$/, '').replace(/\/_metadata$/, '');
  return openHttpSavepointFolder(base, fetchFn);
}
