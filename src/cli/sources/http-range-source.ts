import { openHttpRangeSource, type ByteSource, type RangeFetch } from '../../core/io';
import { createNodeRangeFetch } from './node-range-fetch';

/** A ByteSource over an http(s) URL with Range requests, through the CLI's bounded fetch (node-range-fetch.ts). */
export function openNodeHttpSource(url: string, name = url, fetchFn: RangeFetch = createNodeRangeFetch()): Promise<ByteSource> {
  return openHttpRangeSource(url, fetchFn, name);
}
