/**
 * Runs the project's evaluator on every schema-change case under fixtures/schema-changes/<case>/ (saved schema
 * old.binpb, new schema new.binpb, both compiled by protoc --include_imports) and checks it against expected.json:
 * the directional answer, the 0.x exact rule and the 1.x not-restorable answer with its planning aid.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateStateCompatibility, loadDescriptorSet, type LibraryLine, type SerializerSettings } from '../../src/core/compat';
import { FIXTURES_ROOT } from './load-fixture-manifests';
import { requireCommittedCases } from '../helpers/committed-data';

interface Expectation {
  verdict: string;
  ruleId: string | null;
  firstIncompatibility?: string | null;
  acceptedFindings?: string[];
  alsoRejected?: string[];
}
interface ExpectedCase {
  case: string;
  saved: { root: string; javaClass: string; kind: 'generated' | 'dynamic'; snapshotClass: string; libraryLine: LibraryLine; settings: SerializerSettings };
  new: { root: string; kind: 'generated' | 'dynamic'; settings: SerializerSettings };
  directional: Expectation;
  targets: { '0.x': Expectation; '1.x': Expectation & { planningAid: Expectation } };
}

const CASES_ROOT = join(FIXTURES_ROOT, 'schema-changes');
const names = existsSync(CASES_ROOT)
  ? readdirSync(CASES_ROOT)
      .filter((n) => existsSync(join(CASES_ROOT, n, 'expected.json')))
      .sort()
  : [];

function load(dir: string, file: string) {
  return loadDescriptorSet(new Uint8Array(readFileSync(join(dir, file))), file).set;
}

function evaluate(dir: string, exp: ExpectedCase, savedLine: LibraryLine, target: LibraryLine) {
  return evaluateStateCompatibility(
    {
      savedSet: load(dir, 'old.binpb'),
      savedRoot: exp.saved.root,
      savedJavaClass: exp.saved.javaClass,
      savedKind: exp.saved.kind,
      savedSettings: exp.saved.settings,
      snapshotClass: exp.saved.snapshotClass,
      savedLine,
    },
    { newSet: load(dir, 'new.binpb'), newRoot: exp.new.root, newKind: exp.new.kind, newSettings: exp.new.settings, target },
  );
}

function expectDirectional(
  actual: { verdict: string; findings: { ruleId: string; accepted: boolean }[]; firstIncompatibility?: { ruleId: string; message: string } },
  exp: Expectation,
): void {
  expect(actual.verdict).toBe(exp.verdict);
  expect(actual.firstIncompatibility?.ruleId ?? null).toBe(exp.ruleId);
  if (exp.firstIncompatibility) expect(actual.firstIncompatibility?.message).toBe(exp.firstIncompatibility);
  for (const id of exp.acceptedFindings ?? []) expect(actual.findings.filter((f) => f.accepted).map((f) => f.ruleId)).toContain(id);
  for (const id of exp.alsoRejected ?? []) expect(actual.findings.filter((f) => !f.accepted).map((f) => f.ruleId)).toContain(id);
}

requireCommittedCases('schema-change case (fixtures/schema-changes/*/expected.json)', names);

describe('schema-change fixture cases (fixtures/schema-changes)', () => {
  it('has at least one rejected case for every rejecting rule the cases name, and accepted cases', () => {
    const all = names.map((n) => JSON.parse(readFileSync(join(CASES_ROOT, n, 'expected.json'), 'utf8')) as ExpectedCase);
    expect(all.filter((c) => c.directional.verdict === 'compatible').length).toBeGreaterThan(5);
    expect(all.filter((c) => c.directional.verdict === 'incompatible').length).toBeGreaterThan(20);
  });

  for (const name of names) {
    const dir = join(CASES_ROOT, name);
    const exp = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as ExpectedCase;
    describe(name, () => {
      it('directional rules (state written by a 1.x serializer, target 1.x)', () => {
        expectDirectional(evaluate(dir, exp, '1.x', '1.x'), exp.directional);
      });
      it('target 1.x on the saved 0.1.0 snapshot: not-restorable, with the directional planning aid', () => {
        const result = evaluate(dir, exp, exp.saved.libraryLine, '1.x');
        expect(result.verdict).toBe(exp.targets['1.x'].verdict);
        expect(result.firstIncompatibility?.ruleId).toBe(exp.targets['1.x'].ruleId);
        expect(result.planningAid).toBeDefined();
        if (result.planningAid) expectDirectional(result.planningAid, exp.targets['1.x'].planningAid);
      });
      it('target 0.x on the saved 0.1.0 snapshot: the exact rule', () => {
        const result = evaluate(dir, exp, exp.saved.libraryLine, '0.x');
        expect(result.verdict).toBe(exp.targets['0.x'].verdict);
        expect(result.firstIncompatibility?.ruleId ?? null).toBe(exp.targets['0.x'].ruleId);
      });
    });
  }
});
