/**
 * Every rule renders its message from a finding's params: the evaluator runs on every case of
 * fixtures/schema-changes (directional, 0.x exact rule, not-restorable with its planning aid, downgrade,
 * the diff's unreached declarations, and value warnings over values made to hit every value rule), and each
 * finding's and warning's message, rendered anew from its rule id and params, must be the recorded one
 * (__snapshots__/finding-messages.txt, recorded from the evaluator before findings carried params).
 * Each finding's params are exactly its template's placeholders, and every rule of the registry occurs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clone } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema, type FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import {
  buildSchemaDiff,
  DEFAULT_SETTINGS,
  evaluateStateCompatibility,
  loadDescriptorSet,
  type Finding,
  type LibraryLine,
  type SerializerSettings,
  type TypeKind,
  type ValueWarning,
} from '../../src/core/compat';
import { evaluateValueWarnings } from '../../src/core/compat/rules/evaluate-value-warnings';
import { RULES } from '../../src/core/compat/rules/index';
import { type NewSide, type SavedSide } from '../../src/core/compat/types';
import { type ScannedValue } from '../../src/core/compat/value-scan-types';
import { formatRuleMessage } from '../../src/core/compat/rules';
import { requireCommittedCases } from '../helpers/committed-data';

const CASES_ROOT = join(process.cwd(), 'fixtures/schema-changes');
const names = existsSync(CASES_ROOT)
  ? readdirSync(CASES_ROOT)
      .filter((n) => existsSync(join(CASES_ROOT, n, 'expected.json')))
      .sort()
  : [];

interface Side {
  root: string;
  javaClass?: string;
  kind: TypeKind;
  snapshotClass?: string;
  settings: SerializerSettings;
}

type Produced = { scenario: string; item: Finding | ValueWarning };

function evaluateCase(name: string): Produced[] {
  const dir = join(CASES_ROOT, name);
  const exp = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { saved: Side; new: Side };
  const load = (file: string) => loadDescriptorSet(new Uint8Array(readFileSync(join(dir, file))), file).set;
  const savedSet = load('old.binpb');
  const newSet = load('new.binpb');
  const savedSide = (savedLine: LibraryLine): SavedSide => ({
    savedSet,
    savedRoot: exp.saved.root,
    ...(exp.saved.javaClass ? { savedJavaClass: exp.saved.javaClass } : {}),
    savedKind: exp.saved.kind,
    savedSettings: exp.saved.settings,
    snapshotClass: exp.saved.snapshotClass ?? 'unknown',
    savedLine,
  });
  const newSide = (target: LibraryLine): NewSide => ({
    newSet,
    newRoot: exp.new.root,
    newKind: exp.new.kind,
    ...(exp.new.javaClass ? { newJavaClass: exp.new.javaClass } : {}),
    newSettings: exp.new.settings,
    target,
  });
  const run = (savedLine: LibraryLine, target: LibraryLine) => evaluateStateCompatibility(savedSide(savedLine), newSide(target));
  const out: Produced[] = [];
  const add = (scenario: string, items: readonly (Finding | ValueWarning)[]) => out.push(...items.map((item) => ({ scenario, item })));
  const directional = run('1.x', '1.x');
  add('directional', directional.findings);
  add('exact', run('0.x', '0.x').findings);
  const notRestorable = run('0.x', '1.x');
  add('not-restorable', notRestorable.findings);
  add('planning-aid', notRestorable.planningAid?.findings ?? []);
  add('downgrade', run('1.x', '0.x').findings);
  if (name === 'unchanged') {
    // what no case of the folder changes: the aliasing setting, and a default value (proto2 files only, as the same schema here)
    const aliasing = (on: boolean) => ({ ...exp.saved.settings, largePayloadAliasing: on });
    add(
      'aliasing-changed',
      evaluateStateCompatibility({ ...savedSide('1.x'), savedSettings: aliasing(true) }, { ...newSide('1.x'), newSettings: aliasing(false) }).findings,
    );
    add(
      'default-changed',
      evaluateStateCompatibility({ ...savedSide('1.x'), savedSet: withDefault(savedSet, '7') }, { ...newSide('1.x'), newSet: withDefault(newSet, '8') })
        .findings,
    );
  }
  if (name === 'unchanged') {
    // a new set without the state's root: the state's own finding, no schema walk
    add('root-missing', evaluateStateCompatibility(savedSide('1.x'), { ...newSide('1.x'), newRoot: `${exp.new.root}Missing` }).findings);
  }
  const schema = directional.schema;
  if (schema) {
    add(
      'unreached',
      buildSchemaDiff(schema).unreached.flatMap((d) => d.findings),
    );
    add('values', evaluateValueWarnings(valuesHittingEveryRule(schema.reached), schema, { ...DEFAULT_SETTINGS, maxMessageSize: 4096, recursionLimit: 2 }));
  }
  return out;
}

/** The set as proto2, its first message's first field with a default value. */
function withDefault(set: FileDescriptorSet, value: string): FileDescriptorSet {
  const copy = clone(FileDescriptorSetSchema, set);
  const file = copy.file.find((f) => f.messageType.length > 0)!;
  file.syntax = 'proto2';
  file.messageType[0]!.field[0]!.defaultValue = value;
  return copy;
}

/**
 * One saved value over 4 KiB and deeper than 2 that carries, in every reached message, an unknown field
 * for each number the new message adds and for its first retained one (in each wire type), one above
 * 536,870,911 in the root, and every saved field as a known bytes field: with lowered limits, it hits
 * every value rule the schema change allows.
 */
function valuesHittingEveryRule(reached: NonNullable<ReturnType<typeof evaluateStateCompatibility>['schema']>['reached']): ScannedValue[] {
  const value: ScannedValue = { key: 'k1', payloadSize: 5000, depth: 3, unknownFields: [], knownFields: [] };
  for (const [i, pair] of reached.entries()) {
    if (pair.saved.kind !== 'message' || pair.next.kind !== 'message') continue;
    const message = pair.saved.fullName;
    const saved = new Set(pair.saved.proto.field.map((f) => f.number));
    const numbers = pair.next.proto.field.map((f) => f.number).filter((n) => !saved.has(n));
    const retained = pair.next.proto.field.find((f) => saved.has(f.number));
    if (retained) numbers.push(retained.number);
    for (const number of numbers) for (const wireType of [0, 1, 2, 5]) value.unknownFields.push({ message, number, wireType });
    if (i === 0) value.unknownFields.push({ message, number: 600_000_000, wireType: 0 });
    for (const f of pair.saved.proto.field) value.knownFields.push({ message, number: f.number, wireType: 2, bytes: true });
  }
  return [value, { key: 'k2', payloadSize: 10, depth: 0, unknownFields: [], knownFields: [] }];
}

function describeItem(name: string, { scenario, item }: Produced, message: string): string {
  const where = 'path' in item ? `${item.path}${item.unreached ? ' (unreached)' : ''}` : `${item.count} value(s)`;
  return `${name} ${scenario} [${item.ruleId}] ${where}: ${message}`;
}

/** `{name}` placeholders of a template, sorted. */
function placeholders(template: string): string[] {
  return [...template.matchAll(/\{([a-zA-Z]+)\}/g)]
    .map((m) => m[1]!)
    .filter((n, i, all) => all.indexOf(n) === i)
    .sort();
}

requireCommittedCases('schema-change case (fixtures/schema-changes/*/expected.json)', names);

describe('finding and warning messages render from params (fixtures/schema-changes)', () => {
  const produced = names.map((name) => ({ name, items: evaluateCase(name) }));

  it('renders each message from its rule id and params exactly as the evaluator worded it before', async () => {
    const lines = produced.flatMap(({ name, items }) => items.map((p) => describeItem(name, p, formatRuleMessage(p.item.ruleId, p.item.params))));
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot('./__snapshots__/finding-messages.txt');
  });

  it("gives each finding and warning exactly its template's placeholders as params, and its message rendered from them", () => {
    for (const { name, items } of produced) {
      for (const { scenario, item } of items) {
        const template = RULES.find((r) => r.id === item.ruleId)!.template;
        expect(Object.keys(item.params).sort(), `${name} ${scenario} ${item.ruleId}`).toEqual(placeholders(template));
        expect(item.message).toBe(formatRuleMessage(item.ruleId, item.params));
      }
    }
  });

  it('covers every rule of the registry', () => {
    const seen = new Set(produced.flatMap(({ items }) => items.map((p) => p.item.ruleId)));
    // the Kryo and peer-serde rules decide on the saved serializer, not on a schema change: check-kryo-protobuf.test.ts and peer-serde-protobuf.test.ts render them;
    // JOB_JAR_DESCRIPTOR_CONFLICT on what a job jar embeds, not on a pair of schemas: tests/job-jar/two-runtimes-job-jar.test.ts renders it
    const serializerRules = ['KRYO_PROTOBUF_NOT_RESTORABLE', 'KRYO_PLAIN_PROTOBUF_HAZARD', 'PEER_SERDE_STATE_NOT_SUPPORTED', 'JOB_JAR_DESCRIPTOR_CONFLICT'];
    expect(RULES.map((r) => r.id).filter((id) => !seen.has(id) && !serializerRules.includes(id))).toEqual([]);
  });
});
