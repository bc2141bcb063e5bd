/**
 * Each command opens the savepoint once (one SavepointSession) and passes it on: `_metadata` is read once
 * by `export`, by `dump` (also when it lists the operator's states for a wrong name), by
 * `inspect --handles`, and by `check` (the report's SHA-256 of `_metadata` from that one read, with and without
 * the value scan). The input the command opens is wrapped so every read of `_metadata` is counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ByteSource, SavepointFiles } from '../../src/core/io';
import { runCli } from '../../src/cli/run-cli';
import { requireCommitted } from '../helpers/committed-data';
import { recordSavepointReads } from '../helpers/record-savepoint-reads';

const reads = vi.hoisted(() => ({ metadataBytes: 0, metadataSize: 0, stateReads: [] as [string, number, number][] }));

/** The input with the bytes read of its `_metadata` counted (read and readInto). */
function countMetadataReads(files: SavepointFiles): SavepointFiles {
  const source: ByteSource = files.metadata;
  const readInto = source.readInto?.bind(source);
  reads.metadataSize = source.size;
  const metadata: ByteSource = {
    name: source.name,
    size: source.size,
    read: (offset, length) =>
      source.read(offset, length).then((bytes) => {
        reads.metadataBytes += bytes.length;
        return bytes;
      }),
    ...(readInto === undefined
      ? {}
      : {
          readInto: (offset: number, length: number, target: Uint8Array) =>
            readInto(offset, length, target).then((result) => {
              reads.metadataBytes += length;
              return result;
            }),
        }),
  };
  return recordSavepointReads({ ...files, metadata }, reads.stateReads);
}

vi.mock('../../src/cli/sources', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/cli/sources')>();
  return { ...actual, openNodeInput: async (...args: Parameters<typeof actual.openNodeInput>) => countMetadataReads(await actual.openNodeInput(...args)) };
});

const SAVEPOINT = requireCommitted(path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'));
const SCHEMA = requireCommitted(path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb'));

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('_metadata is read once per command', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'metadata-read-once-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => {
    reads.metadataBytes = 0;
    reads.metadataSize = 0;
    reads.stateReads = [];
  });

  it('export', async () => {
    const r = await run(
      'export',
      SAVEPOINT,
      '--operator',
      'int-keyed',
      '--state',
      'last-event',
      '--format',
      'jsonl',
      '--output',
      path.join(dir, 'last-event.jsonl'),
      '--quiet',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(reads.metadataSize).toBeGreaterThan(0);
    expect(reads.metadataBytes).toBe(reads.metadataSize);
    // the inspection, then the export's scan: one session, each stream header read once (SavepointSession.headers)
    expect(reads.stateReads.length).toBeGreaterThan(0);
    expect(new Set(reads.stateReads.map((r) => JSON.stringify(r))).size).toBe(reads.stateReads.length);
  });

  it('dump, and dump of a state the operator does not have (its states listed)', async () => {
    const ok = await run('dump', SAVEPOINT, '--operator', 'int-keyed', '--state', 'last-event', '--limit', '1');
    expect(ok.code).toBe(0);
    expect(reads.metadataBytes).toBe(reads.metadataSize);
    reads.metadataBytes = 0;
    reads.stateReads = [];
    const wrong = await run('dump', SAVEPOINT, '--operator', 'int-keyed', '--state', 'no-such-state');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('its states:');
    expect(reads.metadataBytes).toBe(reads.metadataSize);
    // the scan's stream headers and the inspection that lists the states: one session, each header read once (SavepointSession.headers)
    expect(reads.stateReads.length).toBeGreaterThan(0);
    expect(new Set(reads.stateReads.map((r) => JSON.stringify(r))).size).toBe(reads.stateReads.length);
  });

  it('inspect --handles', async () => {
    const r = await run('inspect', SAVEPOINT, '--format', 'json', '--handles');
    expect(r.code).toBe(0);
    expect(reads.metadataBytes).toBe(reads.metadataSize);
  });

  it('check, with and without the value scan (the report names _metadata by its SHA-256)', async () => {
    for (const values of [[], ['--no-values']]) {
      reads.metadataBytes = 0;
      const r = await run('check', SAVEPOINT, '--descriptors', SCHEMA, '--format', 'json', '--target', '1.x', ...values);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout).inputs[0]).toMatchObject({ role: 'savepoint', size: reads.metadataSize, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(reads.metadataBytes).toBe(reads.metadataSize);
    }
  });
});
