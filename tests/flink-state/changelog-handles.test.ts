/**
 * Changelog keyed handles (code 14) wrapping the keyed handles of a fixture savepoint: the materialized
 * part is an ordinary keyed handle, read as such; the changes recorded after it are not applied, and the
 * states say so instead of vanishing.
 */
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { bytesSource, type SavepointFiles } from '../../src/core/io';
import { createSnapshotRegistry, inspectSavepoint, readCheckpointMetadata, writeCheckpointMetadata, type OperatorState } from '../../src/core/flink';
import type { KeyedStateHandle } from '../../src/core/flink/metadata/metadata-types';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';

const HEAP_NATIVE = path.resolve(__dirname, '../../fixtures/savepoints/flink-1.20/hashmap/native/savepoint');
const OP = '6d821971c3bfd7ae2c972e89d7414f7c';

/** The fixture with every managed keyed handle wrapped into a changelog handle (materialized: the original; then `changes`). */
async function wrapInChangelog(changes: (range: { start: number; end: number }) => KeyedStateHandle[]): Promise<SavepointFiles> {
  const files = openFolderSavepoint(HEAP_NATIVE);
  const bytes = await files.metadata.read(0, files.metadata.size);
  const metadata = readCheckpointMetadata(bytes);
  const wrap = (op: OperatorState): OperatorState => ({
    ...op,
    subtasks: op.subtasks.map((s) => {
      const h = s.managedKeyedState;
      if (h === null) return s;
      const after = changes(h.range);
      return { ...s, managedKeyedState: { kind: 'changelog', code: 14, range: h.range, description: '', nested: [h, ...after], materializedCount: 1, materializationId: 1n, checkpointId: 2n, checkpointedSize: 0n, handleId: 'changelog' } };
    }),
  });
  const rewritten = writeCheckpointMetadata({ version: metadata.version, checkpointId: metadata.checkpointId, operators: metadata.operators.map(wrap), trailer: bytes.subarray(metadata.properties!.trailerOffset!) });
  return { ...files, metadata: bytesSource('_metadata', rewritten) };
}

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(argv, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

async function inspectKeyed(files: SavepointFiles) {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const inspection = await inspectSavepoint(files, registry, { countEntries: true });
  const op = inspection.operators.find((o) => o.id === OP)!;
  return { inspection, op, keyed: op.states.filter((s) => s.scope === 'keyed').map((s) => [s.name, s.status, s.entries, s.incomplete ?? null]) };
}

describe('changelog keyed handles (code 14)', () => {
  it('reads the materialized part (a heap key-groups handle) and marks its states incomplete while changes follow it', async () => {
    const changeFile = (range: { start: number; end: number }): KeyedStateHandle[] => [
      { kind: 'changelog', code: 13, range, description: '', nested: [], files: [{ offset: 0, handle: { kind: 'relative-file', relativePath: 'changes', size: 64 } }], stateSize: 64n, checkpointedSize: 64n, handleId: 'c', storageIdentifier: 'filesystem' },
    ];
    const { inspection, op, keyed } = await inspectKeyed(await wrapInChangelog(changeFile));
    expect(op.keyedFormat).toBe('changelog');
    const why = (subtask: number) => `changelog state backend: subtask ${subtask}'s 1 change file recorded after the materialized snapshot is not applied here`;
    expect(keyed).toEqual([
      ['event-history', 'ok', 5, why(0)],
      ['last-event', 'ok', 5, why(0)],
      ['events-by-name', 'ok', 24, why(0)],
      ['_timer_state/processing_user-timers', 'ok', 0, why(0)],
      ['_timer_state/event_user-timers', 'ok', 0, why(0)],
    ]);
    expect(inspection.errors).toEqual([]);
    // never silent: what was read is not the whole state
    expect(op.states.filter((s) => s.scope === 'keyed').map((s) => s.decoded)).toEqual(['partly', 'partly', 'partly', 'partly', 'partly']);
  });

  it('dump prints the materialized entries and warns that they are not the whole state', async () => {
    const files = await wrapInChangelog((range) => [{ kind: 'changelog', code: 13, range, description: '', nested: [], files: [], stateSize: 0n, checkpointedSize: 0n, handleId: 'c', storageIdentifier: 'filesystem' }]);
    // a change handle that lists no change file: nothing pending, no warning
    const dir = mkdtempSync(path.join(tmpdir(), 'spi-changelog-'));
    for (const name of readdirSync(HEAP_NATIVE)) if (name !== '_metadata') copyFileSync(path.join(HEAP_NATIVE, name), path.join(dir, name));
    writeFileSync(path.join(dir, '_metadata'), await files.metadata.read(0, files.metadata.size));
    const clean = await cli(['dump', dir, '--operator', OP, '--state', 'last-event', '--json']);
    expect([clean.code, clean.err, (JSON.parse(clean.out) as { entries: unknown[] }).entries.length]).toEqual([0, '', 5]);
    const pending = await wrapInChangelog((range) => [{ kind: 'changelog', code: 13, range, description: '', nested: [], files: [{ offset: 0, handle: { kind: 'relative-file', relativePath: 'changes', size: 1 } }], stateSize: 1n, checkpointedSize: 1n, handleId: 'c', storageIdentifier: 'filesystem' }]);
    writeFileSync(path.join(dir, '_metadata'), await pending.metadata.read(0, pending.metadata.size));
    const warned = await cli(['dump', dir, '--operator', OP, '--state', 'last-event', '--json']);
    expect([warned.code, (JSON.parse(warned.out) as { entries: unknown[] }).entries.length]).toEqual([0, 5]);
    expect(warned.err).toBe(
      "savepoint-inspector dump: warning: not the whole state: changelog state backend: subtask 0's 1 change file recorded after the materialized snapshot is not applied here\n" +
        "savepoint-inspector dump: warning: not the whole state: changelog state backend: subtask 1's 1 change file recorded after the materialized snapshot is not applied here\n",
    );
  });

  it('reads a changelog handle with nothing after its materialized part as fully as the part itself', async () => {
    const { inspection, op, keyed } = await inspectKeyed(await wrapInChangelog(() => []));
    expect(inspection.summary).toEqual({ states: 17, decodedFully: 17, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 });
    expect(op.keyedFormat).toBe('changelog');
    expect(keyed.map(([name, status, entries, incomplete]) => [name, status, entries, incomplete])).toEqual([
      ['event-history', 'ok', 5, null],
      ['last-event', 'ok', 5, null],
      ['events-by-name', 'ok', 24, null],
      ['_timer_state/processing_user-timers', 'ok', 0, null],
      ['_timer_state/event_user-timers', 'ok', 0, null],
    ]);
  });
});
