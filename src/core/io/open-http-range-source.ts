import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';

/** A response body read chunk by chunk (a WHATWG ReadableStream's reader). */
export interface RangeFetchBodyReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

/** The part of a fetch Response this needs (the browser's and Node 20's global fetch both fit). */
export interface RangeFetchResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  /** read with getReader when it has one (never more than the range asked for), else through arrayBuffer */
  readonly body?: { cancel(): Promise<void>; getReader?(): RangeFetchBodyReader } | null;
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
 * The platform's fetch is passed in, so this stays platform-free (timeouts and retries are the
 * platform fetch's: see the CLI's createNodeRangeFetch).
 *
 * A range's body is streamed into a buffer of exactly the length asked for: a response that
 * declares (Content-Length), places (Content-Range) or sends other bytes than asked, is
 * content-encoded, ends early or fails mid-transfer is a `network` error naming the URL, the
 * range and what arrived — never more than the range is buffered, whatever the server declares.
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
      throw new DecodeError({
        code: 'network',
        file: name,
        detail: `expected the size of ${url} in a Content-Range or Content-Length header, found neither (for a cross-origin server, add Access-Control-Expose-Headers: Content-Range, Content-Length)`,
      });
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
      const range = `bytes ${offset}–${offset + length - 1}`;
      const res = await request(fetchFn, url, 'GET', { Range: `bytes=${offset}-${offset + length - 1}` }, name, { range, offset });
      if (res.status !== 206) {
        await cancelBody(res);
        throw statusError(url, name, res.status, range, offset);
      }
      return readRangeBody(res, url, name, offset, length);
    },
  };
}

/**
 * The body of a 206 answer for [offset, offset + length): checked against the headers first, then
 * streamed into a buffer of `length` bytes (a server that sends more is cut off at once).
 */
async function readRangeBody(res: RangeFetchResponse, url: string, name: string, offset: number, length: number): Promise<Uint8Array> {
  const range = `bytes ${offset}–${offset + length - 1}`;
  const fail = (found: string, cause?: unknown) =>
    new DecodeError({
      code: 'network',
      file: name,
      offset,
      detail: `expected ${range} of ${url} (${length} bytes), found ${found}`,
      ...(cause === undefined ? {} : { cause }),
    });
  const refuse = async (found: string) => {
    await cancelBody(res);
    return fail(found);
  };
  const encoding = res.headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity')
    throw await refuse(`the range sent with Content-Encoding: ${encoding} (a byte range must be sent as stored)`);
  const placed = parseContentRange(res.headers.get('content-range'));
  if (placed !== undefined && (placed.start !== offset || placed.end !== offset + length - 1)) {
    throw await refuse(`Content-Range: bytes ${placed.start}-${placed.end}: the server answered another range`);
  }
  const declared = res.headers.get('content-length');
  if (declared !== null && /^\s*\d+\s*$/.test(declared) && Number(declared) !== length) throw await refuse(`Content-Length: ${declared.trim()}`);
  const reader = res.body?.getReader?.();
  if (reader === undefined) {
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      throw fail(`the transfer failed (${describeCause(e)})`, e);
    }
    if (bytes.length !== length) throw fail(`${bytes.length} bytes`);
    return bytes;
  }
  const out = new Uint8Array(length);
  let got = 0;
  for (;;) {
    let chunk: { done: boolean; value?: Uint8Array };
    try {
      chunk = await reader.read();
    } catch (e) {
      await reader.cancel().catch(() => undefined);
      throw fail(
        `${e instanceof Error && e.name === 'TimeoutError' ? 'the transfer stopped' : 'the transfer failed'} after ${got} bytes (${describeCause(e)})`,
        e,
      );
    }
    if (chunk.done) break;
    const value = chunk.value ?? new Uint8Array(0);
    if (got + value.length > length) {
      await reader.cancel().catch(() => undefined);
      throw fail(`at least ${got + value.length} bytes: more than the range`);
    }
    out.set(value, got);
    got += value.length;
  }
  if (got < length) throw fail(`the response ended after ${got} bytes`);
  return out;
}

async function cancelBody(res: RangeFetchResponse): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}

/**
 * Why a request failed, worded for who must act: a redirect loop, a refused or unresolvable host (a platform
 * that says so: Node names the system error), or — when the platform hides the reason, as a browser does for
 * a blocked cross-origin request — both possibilities with the headers a cross-origin server must send.
 */
function describeFailure(e: unknown): string {
  const cause = describeCause(e);
  if (/redirect count exceeded/i.test(cause)) return `the server redirects in a loop (${cause}): open the URL the redirects should end at`;
  const code = e instanceof Error && e.cause instanceof Error ? (e.cause as Error & { code?: unknown }).code : undefined;
  const system: Record<string, string> = {
    ECONNREFUSED: 'the connection was refused: nothing listens at that host and port',
    ENOTFOUND: 'the host name does not resolve',
    EAI_AGAIN: 'the host name could not be resolved now (DNS)',
    ECONNRESET: 'the server closed the connection',
    EHOSTUNREACH: 'the host cannot be reached',
    ENETUNREACH: 'the network cannot be reached',
    CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
    DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
  };
  if (typeof code === 'string' && system[code] !== undefined) return `the request failed (${cause}): ${system[code]}`;
  return `the request failed (${cause}): ${CORS_HINT}`;
}

function describeCause(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  // undici puts the socket's own reason (other side closed, invalid chunk, …) in `cause`
  const cause = e instanceof Error && e.cause instanceof Error && e.cause.message !== message ? `: ${e.cause.message}` : '';
  return `${message}${cause}`;
}

async function request(
  fetchFn: RangeFetch,
  url: string,
  method: 'GET' | 'HEAD',
  headers: Record<string, string> | undefined,
  name: string,
  read?: { range: string; offset: number },
): Promise<RangeFetchResponse> {
  try {
    return await fetchFn(url, { method, ...(headers ? { headers } : {}) });
  } catch (e) {
    const what = read ? `${read.range} of ${url}` : `to reach ${url}`;
    // a fetch that gave up waiting (AbortSignal.timeout's TimeoutError, the CLI's timeouts) says what it waited for
    const found = e instanceof Error && e.name === 'TimeoutError' ? `no answer in time (${e.message})` : describeFailure(e);
    throw new DecodeError({ code: 'network', file: name, ...(read ? { offset: read.offset } : {}), detail: `expected ${what}, found ${found}`, cause: e });
  }
}

function statusError(url: string, name: string, status: number, what: string, offset?: number): DecodeError {
  const at = offset === undefined ? {} : { offset };
  if (status === 200) {
    const asked = offset === undefined ? '' : ` (asked for ${what})`;
    return new DecodeError({
      code: 'network',
      file: name,
      ...at,
      detail: `expected ${url} to answer HTTP Range requests with 206 Partial Content, found 200 OK with the whole file${asked}: the server does not support byte ranges (download the file and open it locally)`,
    });
  }
  if (status === 404 || status === 410) {
    return new DecodeError({ code: 'missing-file', file: name, ...at, detail: `expected ${url} to exist, found HTTP ${status}` });
  }
  return new DecodeError({ code: 'network', file: name, ...at, detail: `expected 206 Partial Content for ${what} of ${url}, found HTTP ${status}` });
}

function totalFromContentRange(v: string | null): number | undefined {
  const m = v === null ? null : /\/\s*(\d+)\s*$/.exec(v);
  return m ? Number(m[1]) : undefined;
}

function parseContentRange(v: string | null): { start: number; end: number } | undefined {
  const m = v === null ? null : /^\s*bytes\s+(\d+)-(\d+)/.exec(v);
  return m ? { start: Number(m[1]), end: Number(m[2]) } : undefined;
}
