import { openHttpSavepointFolder } from '../core/flink';
import { openSavepointInput, type RangeFetch, type SavepointFiles } from '../core/io';
import { openBrowserHttpSource } from './sources';

const browserFetch: RangeFetch = (url, init) => fetch(url, { ...init, cache: 'no-store' });

/**
 * A savepoint given by URL (`?savepoint=<url>`): a folder (`…/sp-1/` or `…/sp-1/_metadata`),
 * whose files are fetched lazily by HTTP range, or a single archive / `_metadata` file. The
 * server must allow CORS for the app's origin and expose Content-Range.
 */
export async function openUrlInput(url: string): Promise<SavepointFiles> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`expected an http(s) URL of a savepoint folder or archive, found “${url}”`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`expected an http(s) URL of a savepoint folder or archive, found a ${parsed.protocol} URL`);
  }
  const path = parsed.pathname;
  if (path.endsWith('/') || path.endsWith('/_metadata')) {
    const base = `${parsed.origin}${path.replace(/\/_metadata$/, '').replace(/\/$/, '')}`;
    return openHttpSavepointFolder(base, browserFetch);
  }
  return openSavepointInput({ kind: 'source', source: await openBrowserHttpSource(url, path.split('/').pop() || url) });
}
