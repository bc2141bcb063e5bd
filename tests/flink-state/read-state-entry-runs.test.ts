/**
 * readStateEntries is readStateEntryRuns flattened: on the committed fixtures (canonical keyed
 * runs per key-group block, heap and operator entries one per run) both give the same entries, and
 * a limit stops at exactly that many entries wherever it falls inside a run.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, readStateEntries, readStateEntryRuns, type StateEntry } from '../../src/core/flink';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';

const ROOT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3');
const exists = existsSync(path.join(ROOT, 'hashmap/canonical/savepoint/_metadata'));
const registry = createSnapshotRegistry();
registerProtobufSnapshotReaders(registry);
const open = (c: string) => openFolderSavepoint(path.join(ROOT, c, 'savepoint'));
const describeEntry = (e: StateEntry) => `${e.subtask}|${e.keyGroup}|${e.state}|${e.valueRange.offset}|${JSON.stringify(e.key, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`;

describe.skipIf(!exists)('readStateEntryRuns', () => {
  for (const c of ['hashmap/canonical', 'hashmap/native', 'rocksdb/canonical-compressed']) {
    it(`${c}: the runs flattened are readStateEntries, and every limit stops at exactly that many entries`, async () => {
      const ins = await inspectSavepoint(open(c), registry);
      let multiEntryRuns = 0;
      for (const op of ins.operators) {
        for (const s of op.states.filter((x) => x.status === 'ok')) {
          const options = { operatorId: op.id, state: s.name };
          const all: string[] = [];
          for await (const e of readStateEntries(open(c), registry, options)) all.push(describeEntry(e));
          const flat: string[] = [];
          for await (const run of readStateEntryRuns(open(c), registry, options)) {
            const before = flat.length;
            for (const e of run) flat.push(describeEntry(e));
            if (flat.length - before > 1) multiEntryRuns++;
          }
          expect(flat).toEqual(all);
          for (const limit of [1, 2, 3, Math.max(1, all.length - 1), all.length + 1]) {
            const got: string[] = [];
            for await (const e of readStateEntries(open(c), registry, { ...options, limit })) got.push(describeEntry(e));
            expect(got, `${op.id}/${s.name} limit ${limit}`).toEqual(all.slice(0, limit));
          }
        }
      }
      // canonical keyed states come in runs of several entries (heap and operator entries: one per run)
      if (c !== 'hashmap/native') expect(multiEntryRuns).toBeGreaterThan(0);
    });
  }
});
