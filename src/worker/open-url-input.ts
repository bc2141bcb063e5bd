import { openHttpSavepointFolder } from '../core/flink';
import { DecodeError, isDecodeError, isObjectStoreUrl, openSavepointInput, wrongInput, type SavepointFiles } from '../core/io';
import { describeCompanionNeeded, openCompanionInput, type CompanionAccess } from './open-companion-input';
import { createBrowserRangeFetch, openBrowserHttpSource } from './sources';

/**
 * A savepoint given by URL (`?savepoint=<url>`): a folder (`…/sp-1/` or `…/sp-1/_metadata`),
 * whose files are fetched lazily by HTTP range, or a single archive / `_metadata` file. The
 * server must allow CORS for the app's origin and expose Content-Range. A URL that is not http(s)
 * is a `bad-url` UsageError; a URL read as a file whose last segment has no extension (`…/sp-1`)
 * and that cannot be opened gets the hint that a folder's URL ends with '/'.
 *
 * An object-store URL (s3://, abfss://, …) is read through the local companion when the app has one (the
 * app `serve` serves: open-companion-input.ts); without it, the UsageError says how to start it.
 */
export async function openUrlInput(url: string, companion?: CompanionAccess): Promise<SavepointFiles> {
  if (isObjectStoreUrl(url.trim())) {
    if (companion === undefined) throw wrongInput('bad-url', describeCompanionNeeded(url.trim()));
    return openCompanionInput(url.trim(), companion);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw wrongInput('bad-url', `expected an http(s) URL of a savepoint folder or archive, found “${url}”`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw wrongInput('bad-url', `expected an http(s) URL of a savepoint folder or archive, found a ${parsed.protocol} URL`);
  }
  const path = parsed.pathname;
  if (path.endsWith('/') || path.endsWith('/_metadata')) {
    const base = `${parsed.origin}${path.replace(/\/_metadata$/, '').replace(/\/$/, '')}`;
    // one bounded fetch per opened input: a server that timed out is not waited for again
    return openHttpSavepointFolder(base, createBrowserRangeFetch());
  }
  const name = path.split('/').pop() || url;
  try {
    return await openSavepointInput({ kind: 'source', source: await openBrowserHttpSource(url, name) });
  } catch (e) {
    throw addFolderHint(e, parsed, name);
  }
}

/** A name without an extension is likely a folder given without its trailing '/': say so next to what failed. */
function addFolderHint(e: unknown, parsed: URL, name: string): unknown {
  if (!isDecodeError(e) || e.code === 'cancelled' || name.includes('.')) return e;
  const folderUrl = `${parsed.origin}${parsed.pathname}/${parsed.search}`;
  return new DecodeError({
    code: e.code,
    detail: `${e.detail}; if it is a savepoint folder, give its URL with a trailing slash: ${folderUrl}`,
    ...(e.file === undefined ? {} : { file: e.file }),
    ...(e.offset === undefined ? {} : { offset: e.offset }),
    path: e.path,
    ...(e.expected === undefined ? {} : { expected: e.expected }),
    ...(e.found === undefined ? {} : { found: e.found }),
    cause: e,
  });
}
