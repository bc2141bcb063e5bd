/**
 * The committed schema-change fixtures (fixtures/schema-changes/<case>/: old/new .proto, their
 * protoc-written descriptor sets and expected.json) evaluated by the compat module: directional
 * verdict, rule id and exact first-incompatibility message, and the verdict for each target line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateStateCompatibility, loadDescriptorSet, type LibraryLine, type SerializerSettings, type TypeKind } from '../../src/core/compat';
import { requireCommittedCases } from '../helpers/committed-data';

const ROOT = path.resolve(process.cwd(), 'fixtures/schema-changes');
const cases = existsSync(ROOT) ? readdirSync(ROOT).filter((d) => existsSync(path.join(ROOT, d, 'expected.json'))) : [];

interface Side {
  descriptorSet: string;
  root: string;
  javaClass?: string;
  kind: TypeKind;
  snapshotClass?: string;
  libraryLine?: LibraryLine;
  settings: SerializerSettings;
}
interface Expected {
  saved: Side;
  new: Side;
  directional: { verdict: string; ruleId: string | null; firstIncompatibility: string | null; alsoRejected?: string[]; acceptedFindings?: string[] };
  targets: Record<LibraryLine, { verdict: string; ruleId?: string | null }>;
}

requireCommittedCases('schema-change case (fixtures/schema-changes/*/expected.json)', cases);

describe('fixtures/schema-changes evaluated by compat', () => {
  for (const name of cases) {
    it(name, () => {
      const dir = path.join(ROOT, name);
      const exp = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
      const load = (file: string) => loadDescriptorSet(new Uint8Array(readFileSync(path.join(dir, file))), file).set;
      const run = (savedLine: LibraryLine, target: LibraryLine) =>
        evaluateStateCompatibility(
          {
            savedSet: load(exp.saved.descriptorSet),
            savedRoot: exp.saved.root,
            ...(exp.saved.javaClass ? { savedJavaClass: exp.saved.javaClass } : {}),
            savedKind: exp.saved.kind,
            savedSettings: exp.saved.settings,
            snapshotClass: exp.saved.snapshotClass ?? 'unknown',
            savedLine,
          },
          {
            newSet: load(exp.new.descriptorSet),
            newRoot: exp.new.root,
            newKind: exp.new.kind,
            ...(exp.new.javaClass ? { newJavaClass: exp.new.javaClass } : {}),
            newSettings: exp.new.settings,
            target,
          },
        );
      const directional = run('1.x', '1.x');
      expect(directional.verdict).toBe(exp.directional.verdict);
      expect(directional.firstIncompatibility?.ruleId ?? null).toBe(exp.directional.ruleId);
      if (exp.directional.firstIncompatibility !== null) expect(directional.firstIncompatibility?.message).toBe(exp.directional.firstIncompatibility);
      const rejected = directional.findings.filter((f) => !f.accepted).map((f) => f.ruleId);
      for (const id of exp.directional.alsoRejected ?? []) expect(rejected).toContain(id);
      const accepted = directional.findings.filter((f) => f.accepted).map((f) => f.ruleId);
      for (const id of exp.directional.acceptedFindings ?? []) expect(accepted).toContain(id);
      const savedLine = exp.saved.libraryLine ?? '1.x';
      for (const target of ['0.x', '1.x'] as const) {
        const t = exp.targets[target];
        if (!t) continue;
        const r = run(savedLine, target);
        expect(r.verdict, `target ${target}`).toBe(t.verdict);
        if (t.ruleId !== undefined) expect(r.firstIncompatibility?.ruleId ?? null, `target ${target}`).toBe(t.ruleId);
      }
    });
  }
});
