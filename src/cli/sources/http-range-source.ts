import { openHttpRangeSource, type ByteSource } from '../../core/io';

/** A ByteSource over an http(s) URL with Range requests, using Node 20's global fetch. */
export function openNodeHttpSource(url: string, name = url): Promise<ByteSource> {
  return openHttpRangeSource(url, (u, init) => fetch(u, init), name);
}
