import { bytesSource, readAll, type ByteSource } from './byte-source';
import { normalizeEntryPath } from './normalize-entry-path';
import { openHttpRangeSource, type RangeFetch } from './open-http-range-source';
import { openLazyHttpSource } from './open-lazy-http-source';
import { checkMetadataSize, type SavepointFiles } from './savepoint-files';

export interface HttpFolderInit {
  /** the folder URL (with or without a trailing '/'); `_metadata` is `<baseUrl>/_metadata` */
  baseUrl: string;
  fetchFn: RangeFetch;
  /** `_metadata`, already downloaded (openHttpFolderMetadata) */
  metadata: ByteSource;
  /** size of every file a handle names, by its path relative to the folder (from the handles' recorded sizes) */
  fileSizes: ReadonlyMap<string, number>;
}

/** `https://host/sp-1/` → `https://host/sp-1` (query and fragment are not part of a folder URL). */
export function normalizeFolderUrl(url: string): string {
  return url.replace(/[?#].*$/, '').replace(/\/+$/, '');
}

/** The URL of a file of the folder; each path segment is percent-encoded, and nothing resolves outside the folder. */
export function resolveHttpFolderUrl(baseUrl: string, relativePath: string): string | undefined {
  const norm = normalizeEntryPath(relativePath);
  if (norm.kind === 'rejected') return undefined;
  return `${normalizeFolderUrl(baseUrl)}/${norm.path.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Downloads `<baseUrl>/_metadata` (a 1-byte Range probe for its size, then one Range request for
 * the whole file) and returns it as an in-memory source, so later readers do not fetch it again.
 */
export async function openHttpFolderMetadata(baseUrl: string, fetchFn: RangeFetch): Promise<ByteSource> {
  const url = `${normalizeFolderUrl(baseUrl)}/_metadata`;
  const remote = await openHttpRangeSource(url, fetchFn);
  // read whole: anything above MAX_METADATA_BYTES is refused before downloading
  checkMetadataSize(remote, url);
  return bytesSource(url, await readAll(remote));
}

/**
 * A savepoint folder served over HTTP as SavepointFiles. A folder cannot be listed over HTTP, so the
 * files are the ones the handles name (`fileSizes`); each resolves lazily to `<baseUrl>/<path>`
 * (openLazyHttpSource): opening the folder fetches nothing, and a header-only inspection fetches
 * only the header range of each state file.
 */
export function createHttpFolderFiles(init: HttpFolderInit): SavepointFiles {
  const base = normalizeFolderUrl(init.baseUrl);
  const sources = new Map<string, ByteSource>();
  const sourceOf = (relativePath: string): ByteSource | undefined => {
    const norm = normalizeEntryPath(relativePath);
    if (norm.kind === 'rejected') return undefined;
    const size = init.fileSizes.get(norm.path);
    if (size === undefined) return undefined;
    let source = sources.get(norm.path);
    if (!source) {
      const url = resolveHttpFolderUrl(base, norm.path)!;
      source = openLazyHttpSource(url, init.fetchFn, size, url);
      sources.set(norm.path, source);
    }
    return source;
  };
  const files = [init.metadata, ...[...init.fileSizes.keys()].sort().flatMap((p) => sourceOf(p) ?? [])];
  return {
    name: base,
    metadata: init.metadata,
    files,
    resolveRelative: sourceOf,
    warnings: [],
  };
}
