/**
 * The app's side of the companion: an object-store URL without the companion is the one line saying how to
 * start it (never a fetch error), also when the page's origin answers but is no companion (a static host);
 * with it, the manifest becomes SavepointFiles whose reads are POSTs of exactly the range asked for, with the
 * token in the Authorization header; a refused absolute handle reads as its refusal; the companion's
 * refusals and the store's errors keep their message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompanionManifest } from '../core/io';
import { openUrlInput } from './open-url-input';

const COMPANION = { origin: 'http://127.0.0.1:4000', token: 'e'.repeat(64) };
const NEEDED =
  "s3:// URLs are read through the local companion, which reads the store with this machine's credentials: run `npx savepoint-inspector serve` and open the URL it prints";

const MANIFEST: CompanionManifest = {
  open: 3,
  name: 's3://b/sp',
  sources: [
    { name: 'sp/_metadata', size: 10 },
    { name: 'sp/state-1', size: 100 },
  ],
  metadata: 0,
  files: [0, 1],
  relative: [['state-1', 1]],
  absolute: [
    [
      's3://elsewhere/shared/x',
      { refused: 'expected the state file s3://elsewhere/shared/x in the store of s3://b/sp, found it elsewhere', name: 's3://elsewhere/shared/x' },
    ],
  ],
  unreadable: [],
  warnings: [],
  notices: ['reading s3://b/sp from …'],
};

afterEach(() => vi.unstubAllGlobals());

describe('openUrlInput: object-store URLs through the companion', () => {
  it('without the companion: the one line saying how to start it, before any request', async () => {
    const fetchFn = vi.fn();
    vi.stubGlobal('fetch', fetchFn);
    await expect(openUrlInput('s3://b/sp')).rejects.toMatchObject({ code: 'bad-url', message: NEEDED });
    await expect(openUrlInput('abfss://c@acct.dfs.core.windows.net/sp')).rejects.toMatchObject({
      code: 'bad-url',
      message: NEEDED.replace('s3://', 'abfss://'),
    });
    expect(fetchFn).not.toHaveBeenCalled();
  });

  it('a page origin that is no companion (a static host answering 404 in HTML): the same line', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('<!doctype html><title>404</title>', { status: 404 }))),
    );
    await expect(openUrlInput('s3://b/sp', COMPANION)).rejects.toMatchObject({ code: 'bad-url', message: NEEDED });
  });

  it('reads through the companion: each read a POST of its range with the token; a refused handle reads as its refusal', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        calls.push({ url, init });
        if (url.endsWith('/api/open')) return Promise.resolve(Response.json(MANIFEST));
        const length = Number(new URL(url).searchParams.get('length'));
        return Promise.resolve(new Response(new Uint8Array(length).fill(7)));
      }),
    );
    const files = await openUrlInput('s3://b/sp', COMPANION);
    expect(calls[0]).toMatchObject({
      url: 'http://127.0.0.1:4000/api/open',
      init: { method: 'POST', body: JSON.stringify({ url: 's3://b/sp' }), credentials: 'omit' },
    });
    expect((calls[0]!.init.headers as Record<string, string>)['authorization']).toBe(`Bearer ${'e'.repeat(64)}`);
    expect(files.metadata.name).toBe('sp/_metadata');
    expect(files.warnings).toEqual([]);
    const state = files.resolveRelative('state-1')!;
    expect([...(await state.read(20, 3))]).toEqual([7, 7, 7]);
    expect(calls[1]!.url).toBe('http://127.0.0.1:4000/api/read?open=3&file=1&offset=20&length=3');
    expect(files.resolveRelative('other')).toBeUndefined();
    const refused = files.resolveAbsolute!('s3://elsewhere/shared/x', 50)!;
    await expect(refused.source.read(0, 1)).rejects.toMatchObject({
      code: 'missing-file',
      detail: 'expected the state file s3://elsewhere/shared/x in the store of s3://b/sp, found it elsewhere',
    });
    await expect(state.read(99, 2)).rejects.toMatchObject({ code: 'truncated' });
  });

  it("a job's checkpoint directory: the checkpoint read is said", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(Response.json({ ...MANIFEST, name: 's3://b/ckpt/job/', chosen: 'chk-2', warnings: ['w'] }))),
    );
    const files = await openUrlInput('s3://b/ckpt/job/', COMPANION);
    expect(files.warnings).toEqual(['read chk-2, the latest completed checkpoint of s3://b/ckpt/job/', 'w']);
  });

  it("the companion's refusal and the store's error keep their message", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(Response.json({ message: 'forbidden: wrong token (each run of savepoint-inspector serve prints a new one)' }, { status: 403 })),
      ),
    );
    await expect(openUrlInput('s3://b/sp', COMPANION)).rejects.toMatchObject({
      code: 'network',
      detail:
        'expected the companion at http://127.0.0.1:4000 to read s3://b/sp, found 403: forbidden: wrong token (each run of savepoint-inspector serve prints a new one); open the URL savepoint-inspector serve printed (with its token) again',
    });
    const stored = {
      name: 'DecodeError',
      code: 'missing-file',
      message: 'm',
      detail: 'expected s3://b/sp (bucket b, key sp; …), found no object with that key or prefix',
      file: 's3://b/sp',
      path: [],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(Response.json({ message: 'm', error: stored }, { status: 422 }))),
    );
    await expect(openUrlInput('s3://b/sp', COMPANION)).rejects.toMatchObject({ code: 'missing-file', detail: stored.detail, file: 's3://b/sp' });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(openUrlInput('s3://b/sp', COMPANION)).rejects.toMatchObject({
      code: 'network',
      detail:
        'expected the companion (savepoint-inspector serve) to answer at http://127.0.0.1:4000, found no answer (Failed to fetch): is it still running? Start it again with `npx savepoint-inspector serve` and open the URL it prints',
    });
  });
});
