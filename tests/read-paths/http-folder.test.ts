/**
 * Remote savepoint folders: a generated savepoint served by a loopback server that counts the
 * bytes it sends. A header-only inspection must download exactly `_metadata` plus the header range
 * of each state file (and the 1-byte size probes), and give the same result as the local folder.
 */
import { cpSync, mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, type SnapshotRegistry } from '../../src/core/flink';
import { readStateEntries } from '../helpers/read-state-entries';
import { createHttpFolderFiles, bytesSource } from '../../src/core/io';
import { resolveHttpFolderUrl } from '../../src/core/io/open-http-folder';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { generateBenchSavepoint, type BenchSavepointManifest } from '../../bench/generate/generate-bench-savepoint';
import { serveFolder, type ServedFolder } from '../helpers/serve-folder';

let root: string;
let manifest: BenchSavepointManifest;
let served: ServedFolder;

function registry(): SnapshotRegistry {
  const r = createSnapshotRegistry();
  registerProtobufSnapshotReaders(r);
  return r;
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'perf-http-folder-'));
  manifest = generateBenchSavepoint({ dir: path.join(root, 'sp'), targetBytes: 4 * 1024 * 1024, parallelism: 4 });
  served = await serveFolder(root);
});

afterAll(async () => {
  await served?.close();
  rmSync(root, { recursive: true, force: true });
});

function reset(): void {
  served.stats.requests = 0;
  served.stats.bytes = 0;
  served.stats.paths.length = 0;
}

describe('HTTP savepoint folder', () => {
  it('a header-only inspection downloads only _metadata and the state headers', async () => {
    const local = await inspectSavepoint(await openSavepoint(await openNodeInput(path.join(root, 'sp'))), registry());
    reset();
    const files = await openNodeInput(`${served.base}/sp/`);
    const remote = await inspectSavepoint(await openSavepoint(files), registry());
    expect(remote.errors).toEqual([]);
    const summarize = (i: typeof local) =>
      i.operators.map((o) => ({
        id: o.id,
        stateSize: o.stateSize,
        keyedFormat: o.keyedFormat,
        states: o.states.map((s) => ({
          name: s.name,
          scope: s.scope,
          kind: s.kind,
          subtasks: s.subtasks,
          status: s.status,
          value: s.valueSerializer?.typeLabel,
          key: s.keySerializer?.typeLabel,
        })),
      }));
    expect(summarize(remote)).toEqual(summarize(local));
    expect(summarize(remote)[0]!.states.map((s) => [s.name, s.value, s.key, s.subtasks.length])).toEqual([
      ['events', 'Protobuf bench.Event', 'String', 4],
      ['last-event', 'Protobuf bench.Event', 'String', 4],
    ]);
    expect(remote.totalSize).toBe(manifest.totalBytes);
    // per state file: a 1-byte size probe + the header (the header ends at the first key-group offset)
    const { readCheckpointMetadata } = await import('../../src/core/flink');
    const { readFileSync } = await import('node:fs');
    const md = readCheckpointMetadata(new Uint8Array(readFileSync(path.join(root, 'sp', '_metadata'))));
    const headerBytes = md.operators[0]!.subtasks.map((s) =>
      s.managedKeyedState?.kind === 'key-groups' ? Math.min(...s.managedKeyedState.offsets.filter((o) => o > 0)) : NaN,
    );
    expect(headerBytes.every((n) => n > 1000 && n < 4000)).toBe(true);
    const expected = 1 + manifest.metadataBytes + headerBytes.reduce((s, n) => s + 1 + n, 0);
    expect(served.stats.bytes).toBe(expected);
    expect(served.stats.bytes / manifest.totalBytes).toBeLessThan(0.005);
    expect(served.stats.requests).toBe(2 + 2 * manifest.files.length);
  });

  it('reads entries over HTTP exactly as from the local folder, fetching only the key groups read', async () => {
    const opts = { operatorId: 'bench-events', state: 'events', limit: 20 };
    const local: unknown[] = [];
    for await (const e of readStateEntries(await openNodeInput(path.join(root, 'sp')), registry(), opts)) local.push(e);
    reset();
    const remote: unknown[] = [];
    for await (const e of readStateEntries(await openNodeInput(`${served.base}/sp`), registry(), opts)) remote.push(e);
    expect(remote).toHaveLength(20);
    expect(remote.map((e) => ({ ...(e as object), file: '' }))).toEqual(local.map((e) => ({ ...(e as object), file: '' })));
    expect(served.stats.bytes).toBeLessThan(manifest.totalBytes / 10);
  });

  it('a URL naming _metadata opens its folder; a folder URL without a trailing slash too', async () => {
    for (const url of [`${served.base}/sp/_metadata`, `${served.base}/sp`]) {
      const files = await openNodeInput(url);
      expect(files.name).toBe(`${served.base}/sp`);
      expect(files.metadata.name).toBe(`${served.base}/sp/_metadata`);
      expect(files.files.length).toBe(1 + manifest.files.length);
    }
  });

  it('a state file missing on the server is reported by URL when read, and the rest is inspected', async () => {
    const copy = path.join(root, 'sp-missing');
    cpSync(path.join(root, 'sp'), copy, { recursive: true });
    const gone = manifest.files[1]!.name;
    rmSync(path.join(copy, gone));
    const inspection = await inspectSavepoint(await openSavepoint(await openNodeInput(`${served.base}/sp-missing/`)), registry());
    expect(inspection.errors.map((e) => e.message)).toEqual([
      `expected ${served.base}/sp-missing/${gone} to exist, found HTTP 404 — at ${served.base}/sp-missing/${gone} [operator ${manifest.operatorId.slice(0, 8)}… / subtask 1 / managed keyed state]`,
    ]);
    expect(inspection.operators[0]!.states.map((s) => [s.name, s.subtasks])).toEqual([
      ['events', [0, 2, 3]],
      ['last-event', [0, 2, 3]],
    ]);
  });

  it('a state file shorter than its handle records is a truncation error naming both sizes', async () => {
    const copy = path.join(root, 'sp-short');
    cpSync(path.join(root, 'sp'), copy, { recursive: true });
    const f = manifest.files[0]!;
    truncateSync(path.join(copy, f.name), 100);
    const inspection = await inspectSavepoint(await openSavepoint(await openNodeInput(`${served.base}/sp-short/`)), registry());
    expect(inspection.errors.map((e) => e.message)).toEqual([
      `expected ${served.base}/sp-short/${f.name} to hold the ${f.size} bytes its state handle records, found 100 bytes — at ${served.base}/sp-short/${f.name}, offset 100 (0x64) [operator ${manifest.operatorId.slice(0, 8)}… / subtask 0 / managed keyed state]`,
    ]);
  });

  it('never resolves a handle path outside the folder, and encodes path segments', () => {
    expect(resolveHttpFolderUrl('https://h/sp/', '../secret')).toBeUndefined();
    expect(resolveHttpFolderUrl('https://h/sp', '/etc/passwd')).toBeUndefined();
    expect(resolveHttpFolderUrl('https://h/sp/', 'a b/c#d')).toBe('https://h/sp/a%20b/c%23d');
    const files = createHttpFolderFiles({
      baseUrl: 'https://h/sp/',
      fetchFn: () => Promise.reject(new Error('no request expected')),
      metadata: bytesSource('https://h/sp/_metadata', new Uint8Array(0)),
      fileSizes: new Map([['x', 10]]),
    });
    expect(files.resolveRelative('../x')).toBeUndefined();
    expect(files.resolveRelative('y')).toBeUndefined();
    expect(files.resolveRelative('./x')?.name).toBe('https://h/sp/x');
    expect(files.resolveRelative('x')?.size).toBe(10);
  });
});
