/**
 * The values table of LocalInspector against an independent full read: every readable state of a
 * savepoint folder, read page by page and one row at a time (from the row's key group), equals the
 * core's readStateEntries with the full decoder, and the entry count equals the stats scan.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { createSnapshotRegistry, type StateEntry } from '../../src/core/flink';
import { readStateEntries } from './read-state-entries';
import { openSavepointInput } from '../../src/core/io';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { LocalInspector } from '../../src/worker/local-inspector';
import type { InputFile } from '../../src/worker/inspector';
import { toInputFiles } from '../../src/worker/sources';
import { summarizeDecodedValue } from '../../src/worker/summarize-decoded-value';

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? listFiles(path.join(dir, n)) : [path.join(dir, n)]));
}

export function inputFiles(dir: string): InputFile[] {
  return listFiles(dir).map((f) => ({ path: `sp/${path.relative(dir, f).split(path.sep).join('/')}`, blob: new Blob([readFileSync(f)]) }));
}

async function readReference(dir: string, operatorId: string, state: string): Promise<StateEntry[]> {
  const input = await openSavepointInput({ kind: 'files', name: 'sp', files: toInputFiles(inputFiles(dir)) });
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const out: StateEntry[] = [];
  for await (const e of readStateEntries(input, registry, { operatorId, state })) out.push(e);
  return out;
}

export async function expectPagesMatchFullRead(dir: string): Promise<number> {
  const inspector = new LocalInspector();
  await inspector.open({ kind: 'files', files: inputFiles(dir) });
  const inspection = await inspector.getInspection();
  let checked = 0;
  for (const op of inspection.operators) {
    for (const s of op.states) {
      if (s.status === 'unreadable') continue;
      const query = { operatorId: op.id, state: s.name };
      const reference = await readReference(dir, op.id, s.name);
      const stats = await inspector.getStateStats(query);
      // the table lists every subtask's copy of a broadcast state; the statistics count one copy
      expect(stats.rows, `${op.id}/${s.name}`).toBe(reference.length);
      const all = await inspector.listEntries({ ...query, offset: 0, limit: reference.length + 10 });
      expect(
        all.rows.map((r) => [r.subtask, r.keyGroup, r.key, r.namespace, r.userKey, r.value, r.size]),
        `${op.id}/${s.name}`,
      ).toEqual(
        reference.map((e) => [
          e.subtask,
          e.keyGroup,
          e.key && summarizeDecodedValue(e.key),
          e.namespace && summarizeDecodedValue(e.namespace),
          e.userKey && summarizeDecodedValue(e.userKey),
          summarizeDecodedValue(e.value),
          e.valueRange.length,
        ]),
      );
      for (let i = 0; i < reference.length; i++) {
        const one = await inspector.listEntries({ ...query, offset: i, limit: 1 });
        expect(one.rows, `${op.id}/${s.name} row ${i}`).toEqual([all.rows[i]]);
      }
      checked += reference.length;
    }
  }
  return checked;
}
