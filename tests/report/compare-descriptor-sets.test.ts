/**
 * compareDescriptorSets on the committed schema-change fixtures (old.binpb / new.binpb as protoc
 * wrote them): for every case whose difference is in the schema (not in reader settings or the type
 * kind, which a descriptor set does not carry), the verdict, rule and exact first incompatibility
 * equal the fixture's expected ones for 1.x (directional) and 0.x (exact rule), with the Java
 * classes derived from the sets as the snapshot recorded them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type SerializerSettings } from '../../src/core/compat';
import { compareDescriptorSets, formatReport, REPORT_FORMATS } from '../../src/core/report';
import { requireCommittedCases } from '../helpers/committed-data';

const ROOT = path.resolve(process.cwd(), 'fixtures/schema-changes');
const cases = existsSync(ROOT)
  ? readdirSync(ROOT)
      .filter((d) => existsSync(path.join(ROOT, d, 'expected.json')))
      .sort()
  : [];

interface Expected {
  saved: { root: string; javaClass?: string; kind: string; settings: SerializerSettings };
  new: { root: string; kind: string; javaClass?: string; settings: SerializerSettings };
  directional: { verdict: string; ruleId: string | null; firstIncompatibility: string | null };
  targets: Record<'0.x' | '1.x', { verdict: string; ruleId?: string | null }>;
}

const TOOL = { name: 'test', version: '0' };
const isDefault = (s: SerializerSettings) =>
  s.maxMessageSize === DEFAULT_SETTINGS.maxMessageSize &&
  s.recursionLimit === DEFAULT_SETTINGS.recursionLimit &&
  s.deterministicSerialization === DEFAULT_SETTINGS.deterministicSerialization;
const read = (dir: string, file: string) => ({ name: file, bytes: new Uint8Array(readFileSync(path.join(dir, file))) });

function load(name: string): { dir: string; exp: Expected } {
  const dir = path.join(ROOT, name);
  return { dir, exp: JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected };
}

/** Cases a pair of descriptor sets can express: same kind, default settings on both sides, no Java class given apart from the sets. */
const schemaCases = cases.filter((name) => {
  const { exp } = load(name);
  return exp.saved.kind === exp.new.kind && isDefault(exp.saved.settings) && isDefault(exp.new.settings) && exp.new.javaClass === undefined;
});

requireCommittedCases('schema-change case (fixtures/schema-changes/*/expected.json)', cases);

describe('compareDescriptorSets on the schema-change fixtures', () => {
  it('covers the schema cases (all but the settings and kind cases)', () => {
    expect(schemaCases.length).toBeGreaterThanOrEqual(30);
    expect(cases.filter((c) => !schemaCases.includes(c))).toEqual([
      'max-message-size-decreased',
      'recursion-limit-decreased',
      'settings-raised',
      'type-kind-changed',
    ]);
  });

  for (const name of schemaCases) {
    it(name, () => {
      const { dir, exp } = load(name);
      const roots = [{ savedRoot: exp.saved.root, ...(exp.new.root !== exp.saved.root ? { newRoot: exp.new.root } : {}) }];
      for (const target of ['1.x', '0.x'] as const) {
        const report = compareDescriptorSets({ saved: read(dir, 'old.binpb'), next: read(dir, 'new.binpb'), roots, tool: TOOL, target });
        const state = report.states[0]!;
        expect(report.states).toHaveLength(1);
        // the snapshot recorded the class that the old set's java options derive
        expect(state.savedJavaClass).toBe(exp.saved.javaClass);
        if (target === '1.x') {
          expect(state.verdict).toBe(exp.directional.verdict);
          expect(state.firstIncompatibility?.ruleId ?? null).toBe(exp.directional.ruleId);
          if (exp.directional.firstIncompatibility !== null) expect(state.firstIncompatibility?.message).toBe(exp.directional.firstIncompatibility);
        } else {
          expect(state.verdict).toBe(exp.targets['0.x'].verdict);
          if (exp.targets['0.x'].ruleId !== undefined) expect(state.firstIncompatibility?.ruleId ?? null).toBe(exp.targets['0.x'].ruleId);
        }
        expect(report.verdict).toBe(state.verdict);
      }
    });
  }
});

describe('compare report', () => {
  const { dir } = load('field-renamed');
  const base = { saved: read(dir, 'old.binpb'), next: read(dir, 'new.binpb'), tool: TOOL };

  it('names its subject, the two inputs with their digests, and one entry per root', () => {
    const report = compareDescriptorSets({ ...base, roots: [{ savedRoot: 'fixtures.change.Order' }, { savedRoot: 'fixtures.change.Unrelated' }] });
    expect(report.subject).toBe('descriptor-sets');
    expect(report.inputs.map((f) => [f.role, f.name, f.size])).toEqual([
      ['saved-descriptors', 'old.binpb', base.saved.bytes.length],
      ['descriptors', 'new.binpb', base.next.bytes.length],
    ]);
    expect(report.inputs[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.states.map((s) => [s.state, s.verdict, s.operator, s.role, s.serializer])).toEqual([
      ['fixtures.change.Order', 'incompatible', '', 'schema', 'descriptor set'],
      ['fixtures.change.Unrelated', 'compatible', '', 'schema', 'descriptor set'],
    ]);
    expect(report.summary).toMatchObject({ protobufStates: 2, compatible: 1, incompatible: 1, otherStates: 0, warnings: 0 });
    expect(report.verdict).toBe('incompatible');
  });

  it('takes digests from the caller, and builds the diff only when asked', () => {
    const sha256 = 'ab'.repeat(32);
    const report = compareDescriptorSets({ ...base, saved: { ...base.saved, sha256 }, roots: [{ savedRoot: 'fixtures.change.Order' }], schemaDiff: false });
    expect(report.inputs[0]!.sha256).toBe(sha256);
    expect(report.states[0]!.diff).toBeUndefined();
    expect(compareDescriptorSets({ ...base, roots: [{ savedRoot: 'fixtures.change.Order' }] }).states[0]!.diff?.savedRoot).toBe('fixtures.change.Order');
  });

  it('says which side lacks a root, with the messages of the same simple name', () => {
    expect(() => compareDescriptorSets({ ...base, roots: [{ savedRoot: 'Order' }] })).toThrow(
      'The old descriptor set has no message Order (did you mean fixtures.change.Order?) — at old.binpb [descriptor set]',
    );
    expect(() => compareDescriptorSets({ ...base, roots: [{ savedRoot: 'fixtures.change.Order', newRoot: 'fixtures.change.Nope' }] })).toThrow(
      'The new descriptor set has no message fixtures.change.Nope — at new.binpb [descriptor set]',
    );
  });

  it('tells two inputs of one file name apart in its messages (old image.binpb, new image.binpb)', () => {
    const same = { ...base, saved: { ...base.saved, name: 'image.binpb' }, next: { ...base.next, name: 'image.binpb' } };
    expect(() => compareDescriptorSets({ ...same, roots: [{ savedRoot: 'Order' }] })).toThrow(
      'The old descriptor set has no message Order (did you mean fixtures.change.Order?) — at old image.binpb [descriptor set]',
    );
    expect(() => compareDescriptorSets({ ...same, roots: [{ savedRoot: 'fixtures.change.Order', newRoot: 'fixtures.change.Nope' }] })).toThrow(
      'The new descriptor set has no message fixtures.change.Nope — at new image.binpb [descriptor set]',
    );
    const corrupt = { ...same, next: { name: 'image.binpb', bytes: new Uint8Array([0x0a, 0x05, 0x0a]) } };
    expect(() => compareDescriptorSets({ ...corrupt, roots: [{ savedRoot: 'fixtures.change.Order' }] })).toThrow(/ — at new image\.binpb/);
  });

  it('is titled as a schema comparison in every format', () => {
    const report = compareDescriptorSets({ ...base, roots: [{ savedRoot: 'fixtures.change.Order' }] });
    const text = Object.fromEntries(REPORT_FORMATS.map((f) => [f, formatReport(report, f)]));
    expect(text['text']!.split('\n').slice(0, 2)).toEqual([
      'Schema compatibility: INCOMPATIBLE',
      '1 root message(s): 0 compatible, 1 incompatible, 0 not restorable',
    ]);
    expect(text['text']).toContain('[INCOMPATIBLE] root fixtures.change.Order (schema, descriptor set)');
    expect(text['markdown']).toContain('# Schema compatibility: INCOMPATIBLE');
    expect(text['markdown']).toContain('| root message | verdict | first incompatibility | warnings |');
    expect(text['html']).toContain('<title>Schema compatibility: INCOMPATIBLE</title>');
    expect(text['junit']).toContain('<testsuites name="schema compatibility"');
    expect(text['junit']).toContain('<testsuite name="compare (target 1.x)"');
    expect(text['junit']).toContain('<testcase classname="schema" name="fixtures.change.Order (schema)">');
    expect(text['github']).toMatch(
      /^::error file=new\.binpb,title=root fixtures\.change\.Order%3A INCOMPATIBLE::Field 2 \(note\) of fixtures\.change\.Order is renamed to comment \(FIELD_RENAMED\)/,
    );
    expect(text['github']).toContain('::notice title=Schema compatibility%3A INCOMPATIBLE::1 root message(s)');
    expect(JSON.parse(text['json']!).subject).toBe('descriptor-sets');
  });
});
