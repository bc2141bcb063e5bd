import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { toInspectorFailure } from '../worker';
import { describeFailureKind, describeFailureTitle } from './describe-failure-title';
import { describeFlinkVersionHint } from './flink-version-hint';
import { formatBytes, formatPercent } from './format';
import { loadDemoFiles } from './input/load-demo-files';
import { mergeInputFiles } from './input/merge-input-files';
import { formatHashRoute, parseHashRoute } from './state/use-hash-route';

const file = (path: string) => ({ path, blob: new Blob([path]) });

describe('hash routes', () => {
  it('parse a view with its parameters and format back to the same hash', () => {
    const hash = '#/values?op=6d82&state=_timer_state%2Fevent_timer&entry=3';
    expect(parseHashRoute(hash)).toEqual({ view: 'values', params: { op: '6d82', state: '_timer_state/event_timer', entry: '3' } });
    expect(formatHashRoute('values', { op: '6d82', state: '_timer_state/event_timer', entry: '3' })).toBe(hash);
  });

  it('fall back to the overview for an empty or unknown view, and drop empty parameters', () => {
    expect(parseHashRoute('')).toEqual({ view: 'overview', params: {} });
    expect(parseHashRoute('#/nope?x=1')).toEqual({ view: 'overview', params: { x: '1' } });
    expect(formatHashRoute('compat', { op: undefined, state: '' })).toBe('#/compat');
  });
});

describe('mergeInputFiles', () => {
  const current = { savepointFiles: [file('sp/_metadata'), file('sp/a')], schemaFiles: [file('old.binpb')] };

  it('keeps the savepoint when only a schema is dropped, and the schema when only a savepoint is dropped', () => {
    expect(mergeInputFiles(current, [file('new.protoset')])).toEqual({ savepointFiles: current.savepointFiles, schemaFiles: [file('new.protoset')] });
    expect(mergeInputFiles(current, [file('sp2.tar.gz')])).toEqual({ savepointFiles: [file('sp2.tar.gz')], schemaFiles: current.schemaFiles });
  });

  it('replaces both when a drop brings both', () => {
    expect(mergeInputFiles(current, [file('x/_metadata'), file('s.desc')])).toEqual({ savepointFiles: [file('x/_metadata')], schemaFiles: [file('s.desc')] });
  });
});

describe('formatting', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [4096, '4 KiB'],
    [18068, '18 KiB'],
    [67108864, '64 MiB'],
  ])('formatBytes(%i) = %s', (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });

  it('percentages and Flink version hints', () => {
    expect(formatPercent(2, 5)).toBe('40%');
    expect(formatPercent(1, 3)).toBe('33%');
    expect(formatPercent(1, 0)).toBe('—');
    expect([3, 4, 5, 6, 7, 9].map(describeFlinkVersionHint)).toEqual([
      'Flink 1.15 or older',
      'Flink 1.16 – 1.20',
      'Flink 2.0',
      'Flink 2.1 – 2.3',
      'a Flink release newer than 2.3',
      'unknown Flink release',
    ]);
  });
});

describe('Flink version hint against the committed fixtures', () => {
  it.each([
    ['fixtures/savepoints/flink-1.20/hashmap/canonical/savepoint/_metadata', '1.20'],
    ['fixtures/savepoints/flink-2.3/rocksdb/canonical-compressed/savepoint/_metadata', '2.3'],
    ['fixtures/rocksdb-checkpoints/flink-2.3/zstd/chk-3/_metadata', '2.3'],
  ])('%s (written by Flink %s) is hinted as a range that holds its release', (path, release) => {
    const header = readFileSync(path).subarray(0, 8);
    const version = new DataView(header.buffer, header.byteOffset, 8).getInt32(4);
    const hint = describeFlinkVersionHint(version);
    const range = /^Flink (\d+\.\d+) – (\d+\.\d+)$/.exec(hint);
    expect(range, hint).not.toBeNull();
    const minor = (v: string) => Number(v.split('.')[0]) * 100 + Number(v.split('.')[1]);
    expect(minor(range![1]!)).toBeLessThanOrEqual(minor(release));
    expect(minor(range![2]!)).toBeGreaterThanOrEqual(minor(release));
  });
});

describe('failure titles by who must act', () => {
  it('calls only an internal error a bug of the inspector; input, network and usage errors are titled as such', () => {
    const decode = (code: 'not-recognised' | 'truncated' | 'missing-file') => ({
      kind: 'input' as const,
      name: 'DecodeError' as const,
      code,
      message: 'm',
      detail: 'm',
      path: [],
    });
    expect(describeFailureTitle(decode('not-recognised'))).toBe('This input cannot be used here');
    expect(describeFailureTitle(decode('truncated'))).toBe('The input is cut short: it ends before what it holds is complete');
    expect(describeFailureTitle({ ...decode('truncated'), file: '_metadata' })).toBe(
      'The file _metadata is cut short: it ends before what it holds is complete (copied or downloaded only in part?)',
    );
    expect(describeFailureTitle(decode('missing-file'))).toBe('A file the input needs is missing');
    expect(describeFailureKind(decode('truncated'))).toBe('Your input');
    expect(describeFailureKind({ kind: 'network', name: 'DecodeError', code: 'network', message: 'm', detail: 'm', path: [] })).toBe('Network or server');
    expect(describeFailureKind({ kind: 'internal', name: 'TypeError', message: 'm' })).toBe('Bug in the inspector');
    expect(describeFailureTitle({ kind: 'input', name: 'UsageError', code: 'nothing-open', message: 'm', detail: 'm', path: [] })).toBe('More input is needed');
    expect(describeFailureTitle({ kind: 'input', name: 'UsageError', code: 'bad-url', message: 'm', detail: 'm', path: [] })).toBe(
      'This input cannot be used here',
    );
    expect(describeFailureTitle({ kind: 'network', name: 'DecodeError', code: 'network', message: 'm', detail: 'm', path: [] })).toBe(
      'The savepoint could not be fetched (a network or server setting)',
    );
    expect(describeFailureTitle({ kind: 'internal', name: 'TypeError', message: 'm' })).toBe(
      'Internal error (a bug in the inspector; please report it with the diagnostics)',
    );
  });
});

describe('loading the demo', () => {
  it("a request to the app's own server that fails is a network failure, not a bug", async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    try {
      const failure = toInspectorFailure(await loadDemoFiles().catch((e: unknown) => e));
      expect(failure).toEqual({
        kind: 'network',
        name: 'DecodeError',
        code: 'network',
        message:
          "expected to fetch /demo/manifest.json from the app's server, found the request failed (Failed to fetch): the app is offline or its server stopped — at /demo/manifest.json",
        detail:
          "expected to fetch /demo/manifest.json from the app's server, found the request failed (Failed to fetch): the app is offline or its server stopped",
        file: '/demo/manifest.json',
        path: [],
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
