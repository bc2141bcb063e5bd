import { openHttpRangeSource, type ByteSource } from '../../core/io';

/**
 * A ByteSource over a URL using the browser's fetch with HTTP Range requests (see the core's
 * openHttpRangeSource for the probe and its error messages: Range ignored, CORS blocked, 404).
 */
export function openBrowserHttpSource(url: string, name = url): Promise<ByteSource> {
  return openHttpRangeSource(url, (u, init) => fetch(u, { ...init, cache: 'no-store' }), name);
}
