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

  it('a redirect loop and a refused connection are named as such, without the cross-origin hint', async () => {
    const failingWith =
      (cause: Error): RangeFetch =>
      () =>
        Promise.reject(new TypeError('fetch failed', { cause }));
    const loop = (await openHttpRangeSource('http://h/sp.zip', failingWith(new Error('redirect count exceeded')), 'sp.zip').catch((x: unknown) => x)) as Error;
    expect(loop.message).toBe(
      'expected to reach http://h/sp.zip, found the server redirects in a loop (fetch failed: redirect count exceeded): open the URL the redirects should end at — at sp.zip',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const e = (await openHttpRangeSource('http://127.0.0.1:9/sp.zip', failingWith(refused), 'sp.zip').catch((x: unknown) => x)) as Error;
    expect(e.message).toBe(
      'expected to reach http://127.0.0.1:9/sp.zip, found the request failed (fetch failed: connect ECONNREFUSED 127.0.0.1:9): the connection was refused: nothing listens at that host and port — at sp.zip',
    );
  });

  it('tells a wrong URL (404: input) from a server that cannot serve ranges or fails (network)', async () => {
    const answering =
      (status: number): RangeFetch =>
      async () => ({ status, headers: { get: () => null }, arrayBuffer: async () => new ArrayBuffer(0) });
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
    expect(await outcome(503)).toEqual([
      'network',
      'network',
      'expected 206 Partial Content for the range probe of https://h/sp.zip, found HTTP 503 — at sp.zip',
    ]);
    const hidden = await openHttpRangeSource('https://h/sp.zip', server([]).fetch).catch((x: unknown) => x);
    expect(isDecodeError(hidden) && [classifyError(hidden), hidden.code]).toEqual(['network', 'network']);
  });

  it('a range body is streamed into exactly its length: other lengths, ranges, encodings and failed transfers are network errors naming URL and range', async () => {
    const reply =
      (headers: Record<string, string>, chunks: (Uint8Array | Error)[]): RangeFetch =>
      async (_url, init) => {
        if (init.headers?.Range === 'bytes=0-0')
          return {
            status: 206,
            headers: { get: (n) => (n === 'content-range' ? 'bytes 0-0/50' : null) },
            body: { cancel: async () => undefined },
            arrayBuffer: async () => new ArrayBuffer(1),
          };
        let i = 0;
        let cancelled = false;
        return {
          status: 206,
          headers: { get: (n: string) => headers[n] ?? null },
          body: {
            cancel: async () => void (cancelled = true),
            getReader: () => ({
              read: async () => {
                if (cancelled || i >= chunks.length) return { done: true };
                const c = chunks[i++]!;
                if (c instanceof Error) throw c;
                return { done: false, value: c };
              },
              cancel: async () => void (cancelled = true),
            }),
          },
          arrayBuffer: () => Promise.reject(new Error('a streamed body is not read whole')),
        };
      };
    const readWith = async (headers: Record<string, string>, chunks: (Uint8Array | Error)[]) => {
      const src = await openHttpRangeSource('https://h/sp.zip', reply(headers, chunks), 'sp.zip');
      return src.read(10, 4).catch((x: unknown) => x);
    };
    const message = (e: unknown) => (isDecodeError(e) ? `${e.code}: ${e.message}` : e);
    const four = Uint8Array.of(1, 2, 3, 4);
    expect([...((await readWith({ 'content-length': '4' }, [four.subarray(0, 1), four.subarray(1)])) as Uint8Array)]).toEqual([1, 2, 3, 4]);
    expect(message(await readWith({}, [four, Uint8Array.of(5)]))).toBe(
      'network: expected bytes 10–13 of https://h/sp.zip (4 bytes), found at least 5 bytes: more than the range — at sp.zip, offset 10 (0xa)',
    );
    expect(message(await readWith({}, [four.subarray(0, 3)]))).toBe(
      'network: expected bytes 10–13 of https://h/sp.zip (4 bytes), found the response ended after 3 bytes — at sp.zip, offset 10 (0xa)',
    );
    expect(message(await readWith({}, [four.subarray(0, 2), new TypeError('terminated', { cause: new Error('other side closed') })]))).toBe(
      'network: expected bytes 10–13 of https://h/sp.zip (4 bytes), found the transfer failed after 2 bytes (terminated: other side closed) — at sp.zip, offset 10 (0xa)',
    );
    expect(message(await readWith({ 'content-length': '10000000000' }, []))).toBe(
      'network: expected bytes 10–13 of https://h/sp.zip (4 bytes), found Content-Length: 10000000000 — at sp.zip, offset 10 (0xa)',
    );
    expect(message(await readWith({ 'content-range': 'bytes 0-3/50' }, [four]))).toBe(
      'network: expected bytes 10–13 of https://h/sp.zip (4 bytes), found Content-Range: bytes 0-3: the server answered another range — at sp.zip, offset 10 (0xa)',
    );
    expect(message(await readWith({ 'content-encoding': 'gzip' }, [four]))).toBe(
      'network: expected bytes 10–13 of https://h/sp.zip (4 bytes), found the range sent with Content-Encoding: gzip (a byte range must be sent as stored) — at sp.zip, offset 10 (0xa)',
    );
  });

  it('a fetch that gave up waiting (TimeoutError) says what it waited for, without the CORS hint', async () => {
    const timeout = Object.assign(new Error('no response headers within 10 s'), { name: 'TimeoutError' });
    const e = await openHttpRangeSource('https://h/sp.zip', () => Promise.reject(timeout), 'sp.zip').catch((x: unknown) => x);
    expect(isDecodeError(e) && [e.code, e.message]).toEqual([
      'network',
      'expected to reach https://h/sp.zip, found no answer in time (no response headers within 10 s) — at sp.zip',
    ]);
  });
});
