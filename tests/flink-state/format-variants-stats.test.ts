/**
 * The committed fixtures hold the same data in several formats (canonical, canonical with Snappy,
 * HashMap native), so whole-state statistics must agree across them. A heap MapState stores each
 * key's whole map as one value, yet every user key's entry needs its own value bytes; with Snappy,
 * offsets restart in every block, so frames must never be matched across streams.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkSavepoint } from '../../src/core/report';
import { describe, expect, it } from 'vitest';
import { createSnapshotRegistry, inspectSavepoint, openSavepoint } from '../../src/core/flink';
import { readStateEntries } from '../helpers/read-state-entries';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';
import { openNodeInput } from '../../src/cli/sources';
import { scanSavepointUnits } from '../../src/cli/scan/scan-savepoint-units';
import { createSavepointRegistry } from '../../src/core/compat';

const root = (v: string, f: string, backend = 'hashmap') => path.resolve(process.cwd(), `fixtures/savepoints/${v}/${backend}/${f}/savepoint`);

async function keyedStats(dir: string, scopes: readonly string[] = ['keyed']) {
  const files = await openNodeInput(dir);
  const opened = await openSavepoint(files);
  const units = opened.metadata.operators.flatMap((o) => o.subtasks.map((s) => ({ operatorId: o.id, subtask: s.index })));
  const r = await scanSavepointUnits(opened, createSavepointRegistry(), units);
  expect(r.errors).toEqual([]);
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  const kinds = new Map<string, string>(
    (await inspectSavepoint(opened, registry)).operators.flatMap((o) => o.states.map((s) => [`${o.id}/${s.scope}/${s.name}`, s.kind] as const)),
  );
  return Object.fromEntries(
    r.states
      .filter((s) => scopes.includes(s.scope))
      .map((s) => {
        const id = `${s.operatorId}/${s.scope}/${s.state}`;
        // a list's framing differs between the formats (delimiters vs a count), so only its elements compare
        const bytes = kinds.get(id) === 'LIST' ? {} : { valueBytes: s.valueBytes };
        return [id, { entries: s.entries, ...bytes, values: s.protobuf?.values, payload: s.protobuf?.totalPayloadBytes, unknown: s.protobuf?.unknownFields }];
      }),
  );
}

describe('RocksDB native state is read from its SST files', () => {
  for (const v of ['flink-1.20', 'flink-2.3']) {
    it(`${v}: stats of the RocksDB native savepoint equal the RocksDB canonical one's for every keyed state, none left not read`, async () => {
      const native = await keyedStats(root(v, 'native', 'rocksdb'));
      const canonical = await keyedStats(root(v, 'canonical', 'rocksdb'));
      expect(Object.keys(native).length).toBeGreaterThan(5);
      expect(native).toEqual(canonical);
      const files = await openNodeInput(root(v, 'native', 'rocksdb'));
      const opened = await openSavepoint(files);
      const units = opened.metadata.operators.flatMap((o) => o.subtasks.map((s) => ({ operatorId: o.id, subtask: s.index })));
      expect((await scanSavepointUnits(opened, createSavepointRegistry(), units)).states.filter((s) => s.notRead !== undefined)).toEqual([]);
    });
  }
});

describe('heap MapState entries: one value range per user key', () => {
  for (const v of ['flink-1.20', 'flink-2.3']) {
    it(`${v}: stats of the native savepoint equal the canonical one's for every keyed state`, async () => {
      const native = await keyedStats(root(v, 'native'));
      const canonical = await keyedStats(root(v, 'canonical'));
      expect(Object.keys(native).length).toBeGreaterThan(3);
      expect(native).toEqual(canonical);
    });
  }

  it('the user keys of one map have disjoint ranges, each holding exactly its value', async () => {
    const files = await openNodeInput(root('flink-1.20', 'native'));
    const registry = createSnapshotRegistry();
    registerProtobufSnapshotReaders(registry);
    const byKey = new Map<string, { offset: number; length: number }[]>();
    let n = 0;
    for await (const e of readStateEntries(files, registry, { operatorId: 'int-keyed', state: 'events-by-name' })) {
      n++;
      const k = `${e.file}|${JSON.stringify(e.key)}`;
      byKey.set(k, [...(byKey.get(k) ?? []), e.valueRange!]);
    }
    expect(n).toBe(24);
    for (const ranges of byKey.values()) {
      const sorted = [...ranges].sort((a, b) => a.offset - b.offset);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.offset).toBeGreaterThanOrEqual(sorted[i - 1]!.offset + sorted[i - 1]!.length);
    }
    expect([...byKey.values()].some((r) => r.length > 1)).toBe(true);
  });
});

describe('Snappy-compressed savepoints: the same statistics as uncompressed ones', () => {
  for (const v of ['flink-1.20', 'flink-2.3']) {
    for (const backend of ['hashmap', 'rocksdb']) {
      it(`${v} ${backend}: every keyed, operator and broadcast state`, async () => {
        const scopes = ['keyed', 'operator', 'broadcast'];
        const compressed = await keyedStats(root(v, 'canonical-compressed', backend), scopes);
        expect(Object.keys(compressed).length).toBeGreaterThan(5);
        expect(compressed).toEqual(await keyedStats(root(v, 'canonical', backend), scopes));
      });
    }
  }
});

describe('check with values: the same value warnings for the native heap savepoint as for the canonical one', () => {
  const schema = path.resolve(process.cwd(), 'src/ui/demo-schema/events-changed.binpb');
  const summarize = async (dir: string) => {
    const report = await checkSavepoint({
      files: await openNodeInput(dir),
      descriptorSet: { name: 'events-changed.binpb', bytes: new Uint8Array(readFileSync(schema)) },
      tool: { name: 'test', version: '0' },
      target: '1.x',
    });
    return Object.fromEntries(
      report.states
        .filter((s) => s.valuesScanned !== undefined)
        .map((s) => [
          `${s.operatorUid ?? s.operator}/${s.state}`,
          { values: s.valuesScanned, warnings: s.warnings.map((w) => [w.ruleId, w.count, w.keys.length]) },
        ]),
    );
  };
  for (const v of ['flink-1.20', 'flink-2.3']) {
    it(`${v}: values scanned and warning counts per state`, async () => {
      const native = await summarize(root(v, 'native'));
      expect(Object.values(native).some((s) => s.warnings.some(([rule]) => rule === 'UNKNOWN_NUMBER_BECOMES_FIELD'))).toBe(true);
      expect(native).toEqual(await summarize(root(v, 'canonical')));
    });
  }
});
