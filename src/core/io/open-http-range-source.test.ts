import { describe, expect, it } from 'vitest';
import { classifyError, isDecodeError, openHttpRangeSource, type RangeFetch } from './index';
import { type RangeFetchResponse } from './open-http-range-source';

const body = Uint8Array.from({ length: 50 }, (_, i) => i);

/** A server double: `expose` lists the response headers a cross-origin page may read. */
function server(expose: string[]): { fetch: RangeFetch; calls: string[] } {
  const calls: string[] = [];
  const fetch: RangeFetch = async (_url, init) => {
    calls.push(`${init.method} ${init.headers?.Range ?? ''}`.trim());
    const all: Record<string, string> = { 'content-length': String(body.length) };
    let bytes = body;
    let status = 200;
    const m = init.headers?.Range ? /bytes=(\d+)-(\d+)/.exec(init.headers.Range) : null;
    if (m) {
      bytes = body.subarray(Number(m[1]), Number(m[2]) + 1);
      status = 206;
      all['content-range'] = `bytes ${m[1]}-${m[2]}/${body.length}`;
      all['content-length'] = String(bytes.length);
    }
    const res: RangeFetchResponse = {
      status,
      headers: { get: (n: string) => (expose.includes(n.toLowerCase()) ? (all[n.toLowerCase()] ?? null) : null) },
      arrayBuffer: async () => bytes.slice().buffer,
    };
    return res;
  };
  return { fetch, calls };
}

describe('openHttpRangeSource', () => {
  it('takes the size from Content-Range and reads exact ranges', async () => {
    const s = server(['content-range', 'content-length']);
    const src = await openHttpRangeSource('https://h/sp.zip', s.fetch);
    expect(src.size).toBe(50);
    expect([...(await src.read(10, 3))]).toEqual([10, 11, 12]);
    expect(s.calls).toEqual(['GET bytes=0-0', 'GET bytes=10-12']);
  });

  it('falls back to HEAD Content-Length when Content-Range is not exposed (CORS)', async () => {
    const s = server(['content-length']);
    const src = await openHttpRangeSource('https://h/sp.zip', s.fetch);
    expect(src.size).toBe(50);
    expect(s.calls).toEqual(['GET bytes=0-0', 'HEAD']);
  });

  it('says which headers to expose when neither size header is readable', async () => {
    await expect(openHttpRangeSource('https://h/sp.zip', server([]).fetch)).rejects.toThrow(
      'expected the size of https://h/sp.zip in a Content-Range or Content-Length header, found neither (for a cross-origin server, add Access-Control-Expose-Headers: Content-Range, Content-Length) — at https://h/sp.zip',
    );
  });

  it('a fetch that throws (CORS or network) is a network error naming the headers a cross-origin server must send', async () => {
    const failing: RangeFetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const e = await openHttpRangeSource('https://h/sp.zip', failing, 'sp.zip').catch((x: unknown) => x);
    expect(classifyError(e)).toBe('network');
    expect(isDecodeError(e) && [e.code, e.message]).toEqual([
      'network',
      "expected to reach https://h/sp.zip, found the request failed (Failed to fetch): a network error, or a cross-origin request the server does not allow — it must send Access-Control-Allow-Origin (the app's origin, or *) and, for the range reads, Access-Control-Expose-Headers: Content-Range, Content-Length — at sp.zip",
    ]);
  });

  it('tells a wrong URL (404: input) from a server that cannot serve ranges or fails (network)', async () => {
    const answering = (status: number): RangeFetch => async () => ({ status, headers: { get: () => null }, arrayBuffer: async () => new ArrayBuffer(0) });
    const outcome = async (status: number) => {
      const e = await openHttpRangeSource('https://h/sp.zip', answering(status), 'sp.zip').catch((x: unknown) => x);
      return isDecodeError(e) && [classifyError(e), e.code, e.message];
    };
    expect(await outcome(404)).toEqual(['input', 'missing-file', 'expected https://h/sp.zip to exist, found HTTP 404 — at sp.zip']);
    expect(await outcome(200)).toEqual([
      'network',
      'network',
      'expected https://h/sp.zip to answer HTTP Range requests with 206 Partial Content, found 200 OK with the whole file: the server does not support byte ranges (download the file and open it locally) — at sp.zip',
    ]);
    expect(await outcome(503)).toEqual(['network', 'network', 'expected 206 Partial Content for the range probe of https://h/sp.zip, found HTTP 503 — at sp.zip']);
    const hidden = await openHttpRangeSource('https://h/sp.zip', server([]).fetch).catch((x: unknown) => x);
    expect(isDecodeError(hidden) && [classifyError(hidden), hidden.code]).toEqual(['network', 'network']);
  });
});
