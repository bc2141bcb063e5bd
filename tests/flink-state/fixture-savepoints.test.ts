import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint, scanState } from '../../src/core/flink';
import { countStateEntries } from '../../src/core/flink/scan/count-state-entries';
import { readStateEntries } from '../helpers/read-state-entries';
import { openFolderSavepoint } from '../helpers/open-folder-savepoint';
import { requireCommitted } from '../helpers/committed-data';

const ROOT = path.resolve(process.cwd(), 'fixtures/savepoints/flink-1.20');
const exists = existsSync(path.join(ROOT, 'rocksdb/native/savepoint/_metadata'));
if (!exists) console.warn(`fixture savepoint tests skipped: ${ROOT} is absent`);

const registry = createSnapshotRegistry();
const open = (c: string) => openFolderSavepoint(path.join(ROOT, c, 'savepoint'));

requireCommitted(path.join(ROOT, 'rocksdb/native/savepoint/_metadata'));

describe('committed fixture savepoints (Flink 1.20.5)', () => {
  it('RocksDB native: keyed states read from their SST files count what the canonical savepoint of the same job counts', async () => {
    const ins = await inspectSavepoint(await openSavepoint(open('rocksdb/native')), registry);
    const keyed = ins.operators.flatMap((o) => o.states.filter((s) => s.scope === 'keyed'));
    expect(keyed.length).toBe(12);
    for (const s of keyed) expect(s.status).not.toBe('unreadable');
    expect(ins.operators.filter((o) => o.states.some((s) => s.scope === 'keyed')).every((o) => o.keyedFormat === 'rocksdb-native')).toBe(true);
    const counts = async (c: string) => {
      const r = await countStateEntries(await openSavepoint(open(`rocksdb/${c}`)), registry);
      expect(r.errors).toEqual([]);
      return r.counts.map((x) => `${x.operatorId}|${x.scope}|${x.state}|${x.entries}`).sort();
    };
    expect(await counts('native')).toEqual(await counts('canonical'));
    const op = ins.operators.find((o) => o.states.some((s) => s.name === 'last-event'))!;
    const entries = [];
    for await (const e of readStateEntries(open('rocksdb/native'), registry, { operatorId: op.id, state: 'last-event' })) entries.push(e);
    expect(entries.map((e) => [e.subtask, e.keyGroup])).toEqual(entries.map((e) => [e.subtask, e.keyGroup]).sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!));
  });

  it("RocksDB native: reading one key group at a time (the app's pages) gives exactly the entries of the whole read", async () => {
    const files = open('rocksdb/native');
    const opened = await openSavepoint(files);
    for (const op of opened.metadata.operators.filter((o) => o.subtasks.some((s) => s.managedKeyedState?.kind === 'incremental'))) {
      const whole: string[] = [];
      await scanState(
        opened,
        registry,
        { operatorId: op.id, scopes: ['keyed'] },
        { entry: (e) => void whole.push(`${e.state}|${e.subtask}|${e.keyGroup}|${e.valueRange.length}`) },
        { values: { mode: 'skip' } },
      );
      expect(whole.length).toBeGreaterThan(0);
      const byKeyGroup: string[] = [];
      for (const st of op.subtasks) {
        const h = st.managedKeyedState!;
        for (let kg = h.range.start; kg <= h.range.end; kg++) {
          const result = await scanState(
            opened,
            registry,
            { operatorId: op.id, scopes: ['keyed'], subtasks: [st.index], keyGroups: [kg] },
            { entry: (e) => void byKeyGroup.push(`${e.state}|${e.subtask}|${e.keyGroup}|${e.valueRange.length}`) },
            { values: { mode: 'skip' } },
          );
          expect(result.keyGroupsRead).toBe(result.keyGroupsWithData);
        }
      }
      expect(byKeyGroup.sort()).toEqual(whole.sort());
    }
  });

  it('compressed canonical savepoints count the same entries per state as uncompressed ones', async () => {
    for (const backend of ['hashmap', 'rocksdb']) {
      const counts = async (c: string) => {
        const r = await countStateEntries(await openSavepoint(open(`${backend}/${c}`)), registry);
        expect(r.errors).toEqual([]);
        return r.counts.map((x) => `${x.operatorId}|${x.scope}|${x.state}|${x.entries}`).sort();
      };
      const plain = await counts('canonical');
      expect(plain.some((l) => !l.endsWith('|0'))).toBe(true);
      expect(await counts('canonical-compressed')).toEqual(plain);
    }
  });

  it('hashmap native (heap format, code 12) is recognised as heap', async () => {
    const ins = await inspectSavepoint(await openSavepoint(open('hashmap/native')), registry);
    expect(ins.format).toBe('NATIVE');
    expect(ins.operators.some((o) => o.keyedFormat === 'heap')).toBe(true);
  });
});
