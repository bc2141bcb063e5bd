/**
 * The app's verdict from the serializer snapshots alone (src/core/report/evaluate-snapshot-verdicts.ts, shown before
 * a schema is open) says what `check` says with a schema: for every Kryo-held Protobuf fixture, the same states,
 * each not restorable with the same rule and message, on both target lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LibraryLine } from '../../src/core/compat';
import { evaluateSnapshotVerdicts } from '../../src/core/report';
import { LocalInspector } from '../../src/worker';

const KRYO = path.resolve(process.cwd(), 'fixtures/kryo-savepoints');
const SCHEMA = path.join(KRYO, 'events.binpb');
const CANONICAL = path.resolve(process.cwd(), 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');

async function open(folder: string, withSchema: boolean): Promise<LocalInspector> {
  const files = readdirSync(folder).map((n) => ({ path: `sp/${n}`, blob: new Blob([readFileSync(path.join(folder, n))]) }));
  if (withSchema) files.push({ path: 'events.binpb', blob: new Blob([readFileSync(SCHEMA)]) });
  const inspector = new LocalInspector();
  await inspector.open({ kind: 'files', files });
  return inspector;
}

const FIXTURES = [
  'flink-1.20/hashmap/kryo-registered',
  'flink-1.20/hashmap/kryo-default',
  'flink-2.3/hashmap/kryo-registered',
  'flink-2.3/hashmap/kryo-default',
];

describe('verdicts from the serializer snapshots alone, against check with a schema', () => {
  for (const fixture of FIXTURES) {
    for (const target of ['0.x', '1.x'] as LibraryLine[]) {
      it(`${fixture}, target ${target}`, async () => {
        const folder = path.join(KRYO, fixture, 'savepoint');
        const inspector = await open(folder, false);
        const alone = evaluateSnapshotVerdicts(await inspector.getInspection(), target);
        // what the app shows comes from the worker: the same verdicts for this line, and a migration plan for each operator holding Kryo-held Protobuf state
        const findings = await inspector.getSnapshotFindings();
        expect(findings.verdicts[target]).toEqual(alone);
        const report = await (await open(folder, true)).checkHeaders({ target, newSettings: {} });
        const fromCheck = report.states
          .filter((s) => s.firstIncompatibility?.ruleId === 'KRYO_PROTOBUF_NOT_RESTORABLE')
          .map((s) => [`${s.operator}/${s.state}`, s.verdict, s.firstIncompatibility!.message])
          .sort();
        expect(fromCheck.length).toBeGreaterThan(0);
        expect(alone).not.toBeNull();
        expect(alone!.verdict).toBe('not-restorable');
        expect(alone!.sameOnBothLines).toBe(true);
        expect(alone!.nativeProtobufStates).toBe(0);
        expect(
          alone!.states.map((s) => [`${s.operator.id}/${s.state}`, s.compatibility.verdict, s.compatibility.firstIncompatibility!.message]).sort(),
        ).toEqual(fromCheck);
        const kryoStates = alone!.states.filter((s) => s.heldBy === 'kryo');
        expect(Object.keys(findings.kryoMigrationPlans).sort()).toEqual([...new Set(kryoStates.map((s) => s.operator.id))].sort());
        for (const s of kryoStates) expect(findings.kryoMigrationPlans[s.operator.id]!.states.map((p) => p.state)).toContain(s.state);
      });
    }
  }

  it('gives no verdict for native Protobuf state: that needs the new schema', async () => {
    expect(evaluateSnapshotVerdicts(await (await open(CANONICAL, false)).getInspection(), null)).toBeNull();
  });
});
