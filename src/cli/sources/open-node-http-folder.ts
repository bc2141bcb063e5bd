import { openHttpSavepointFolder } from '../../core/flink';
import type { SavepointFiles } from '../../core/io';

/** A folder URL: ends with '/' or names `_metadata` itself (then its folder is the savepoint). */
export function isHttpFolderUrl(url: string): boolean {
  const path = url.replace(/[?#].*$/, '');
  return path.endsWith('/') || /\/_metadata$/.test(path);
}

/** Opens a savepoint folder served over HTTP with Node 20's global fetch (state files fetched lazily by range). */
export function openNodeHttpFolder(url: string): Promise<SavepointFiles> {
  const base = url.replace(/[?#].*$/, '').replace(/\/_metadata$/, '');
  return openHttpSavepointFolder(base, (u, init) => fetch(u, init));
}
