import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';

/** The part of a fetch Response this needs (the browser's and Node 20's global fetch both fit). */
export interface RangeFetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly body?: { cancel(): Promise<void> } | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}
export type RangeFetch = (url: string, init: { method: 'GET' | 'HEAD'; headers?: Record<string, string> }) => Promise<RangeFetchResponse>;

/** What a failed request may mean, and what a cross-origin server must send for this reader (a browser hides the reason). */
const CORS_HINT =
  "a network error, or a cross-origin request the server does not allow — it must send Access-Control-Allow-Origin (the app's origin, or *) and, for the range reads, Access-Control-Expose-Headers: Content-Range, Content-Length";

/**
 * A ByteSource over a URL read with HTTP Range requests, so a remote savepoint or archive is read
 * as sparsely as a local one. The size comes from a `Range: bytes=0-0` probe (Content-Range), or a
 * HEAD's Content-Length when Content-Range is not exposed. A server that ignores Range (200 with
 * the whole body) or a blocked cross-origin request is a clear DecodeError, never a silent full
 * download: code `network` when the request fails or the server's answer cannot be used (no range
 * support, size headers not exposed, an error status), `missing-file` for 404/410 (a wrong URL).
 * The platform's fetch is passed in, so this stays platform-free.
 */
export async function openHttpRangeSource(url: string, fetchFn: RangeFetch, name = url): Promise<ByteSource> {
  const probe = await request(fetchFn, url, 'GET', { Range: 'bytes=0-0' }, name);
  let size: number | undefined;
  if (probe.status === 206 || probe.status === 416) {
    await probe.body?.cancel().catch(() => undefined);
    size = totalFromContentRange(probe.headers.get('content-range'));
    if (size === undefined) {
      const head = await request(fetchFn, url, 'HEAD', undefined, name);
      const len = head.headers.get('content-length');
      if (head.status >= 200 && head.status < 300 && len !== null && /^\d+$/.test(len)) size = Number(len);
    }
    if (size === undefined) {
      throw new DecodeError({ code: 'network', file: name, detail: `expected the size of ${url} in a Content-Range or Content-Length header, found neither (for a cross-origin server, add Access-Control-Expose-Headers: Content-Range, Content-Length)` });
    }
  } else {
    await probe.body?.cancel().catch(() => undefined);
    throw statusError(url, name, probe.status, 'the range probe');
  }
  const total = size;
  return {
    name,
    size: total,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > total) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${total}-byte file`, file: name, offset });
      }
      if (length === 0) return new Uint8Array(0);
      const res = await request(fetchFn, url, 'GET', { Range: `bytes=${offset}-${offset + length - 1}` }, name);
      if (res.status !== 206) {
        await res.body?.cancel().catch(() => undefined);
        throw statusError(url, name, res.status, `bytes ${offset}–${offset + length - 1}`);
      }
      const start = startFromContentRange(res.headers.get('content-range'));
      const bytes = new Uint8Array(await res.arrayBuffer());
      if ((start !== undefined && start !== offset) || bytes.length !== length) {
        throw new DecodeError({ code: 'truncated', file: name, offset, detail: `expected ${length} bytes from offset ${offset} of ${url}, found ${bytes.length} bytes from offset ${start ?? offset}` });
      }
      return bytes;
    },
  };
}

async function request(fetchFn: RangeFetch, url: string, method: 'GET' | 'HEAD', headers: Record<string, string> | undefined, name: string): Promise<RangeFetchResponse> {
  try {
    return await fetchFn(url, { method, ...(headers ? { headers } : {}) });
  } catch (e) {
    throw new DecodeError({ code: 'network', file: name, detail: `expected to reach ${url}, found the request failed (${e instanceof Error ? e.message : String(e)}): ${CORS_HINT}`, cause: e });
  }
}

function statusError(url: string, name: string, status: number, what: string): DecodeError {
  if (status === 200) {
    return new DecodeError({ code: 'network', file: name, detail: `expected ${url} to answer HTTP Range requests with 206 Partial Content, found 200 OK with the whole file: the server does not support byte ranges (download the file and open it locally)` });
  }
  if (status === 404 || status === 410) {
    return new DecodeError({ code: 'missing-file', file: name, detail: `expected ${url} to exist, found HTTP ${status}` });
  }
  return new DecodeError({ code: 'network', file: name, detail: `expected 206 Partial Content for ${what} of ${url}, found HTTP ${status}` });
}

function totalFromContentRange(v: string | null): number | undefined {
  const m = v === null ? null : /\/\s*(\d+)\s*$/.exec(v);
  return m ? Number(m[1]) : undefined;
}

function startFromContentRange(v: string | null): number | undefined {
  const m = v === null ? null : /^\s*bytes\s+(\d+)-/.exec(v);
  return m ? Number(m[1]) : undefined;
}
