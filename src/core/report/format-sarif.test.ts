/**
 * `--format sarif`: the exact SARIF 2.1.0 log of a hand-built report (an incompatible state with an
 * accepted and a rejected finding and a value warning, a compatible one, a Protobuf state not checked,
 * a state that is not Protobuf), and the log checked against the SARIF 2.1.0 specification's
 * structural requirements for what it uses.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type StateCompatibility } from '../compat';
import { buildReport } from './build-report';
import { formatReport, REPORT_FORMATS } from './format-report';
import { formatSarif } from './format-sarif';
import type { ReportInput } from './report-types';

const TYPE_CHANGED = {
  ruleId: 'FIELD_TYPE_CHANGED',
  accepted: false,
  path: 'example.Event.count (2)',
  message: 'Field 2 (count) of example.Event changes type from INT32 to SINT32',
  params: { number: 2, name: 'count', message: 'example.Event', from: 'INT32', to: 'SINT32' },
} as const;
const ADDED = {
  ruleId: 'FIELD_ADDED',
  accepted: true,
  path: 'example.Event.label (5)',
  message: 'Field 5 (label) is added to example.Event',
  params: { number: 5, name: 'label', message: 'example.Event' },
} as const;

const incompatible: StateCompatibility = {
  verdict: 'incompatible',
  target: '1.x',
  ruleSet: 'directional',
  savedRoot: 'example.Event',
  newRoot: 'example.Event',
  findings: [ADDED, TYPE_CHANGED],
  firstIncompatibility: TYPE_CHANGED,
};
const compatible: StateCompatibility = {
  verdict: 'compatible',
  target: '1.x',
  ruleSet: 'directional',
  savedRoot: 'example.Event',
  newRoot: 'example.Event',
  findings: [ADDED],
};
const SNAPSHOT = 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot';

const REPORT_INPUT: ReportInput = {
  tool: { name: 'savepoint-inspector', version: '9.9.9' },
  inputs: [
    { role: 'savepoint', name: 'my savepoints/sp-1', size: 3, sha256: 'cd'.repeat(32) },
    { role: 'descriptors', name: 'new.binpb', size: 3, sha256: 'ab'.repeat(32) },
  ],
  target: '1.x',
  newSettings: DEFAULT_SETTINGS,
  states: [
    {
      kind: 'protobuf',
      operator: { id: 'aaaa', uid: 'events' },
      state: 'last-event',
      role: 'VALUE_SERIALIZER',
      snapshotClass: SNAPSHOT,
      compatibility: incompatible,
      warnings: [
        {
          ruleId: 'UNKNOWN_NUMBER_BECOMES_FIELD',
          message: '2 saved values carry unknown field 9',
          params: { count: 2, number: 9, message: 'example.Event', name: 'extra' },
          count: 2,
          keys: ['k1', 'k2'],
        },
      ],
    },
    { kind: 'protobuf', operator: { id: 'bbbb' }, state: 'ok', role: 'VALUE_SERIALIZER', snapshotClass: SNAPSHOT, compatibility: compatible, warnings: [] },
    {
      kind: 'other',
      operator: { id: 'cccc' },
      state: 'odd',
      role: 'VALUE_SERIALIZER',
      snapshotClass: 'x.Unknown',
      reason: 'an unknown Protobuf snapshot class x.Unknown',
      uncheckedProtobuf: true,
    },
    {
      kind: 'other',
      operator: { id: 'dddd' },
      state: 'count',
      role: 'VALUE_SERIALIZER',
      snapshotClass: 'x.LongSerializer',
      reason: 'not a Protobuf state: Long',
    },
  ],
};

// located in the new schema (its descriptor set: no source info here); the savepoint state is the logical location
const at = (logical: { name: string; fullyQualifiedName: string; kind: string }) => [
  { physicalLocation: { artifactLocation: { uri: 'new.binpb' } }, logicalLocations: [logical] },
];
const help = (id: string) => `https://unpkg.com/savepoint-inspector@9.9.9/docs/rules.md#${id}`;

/**
 * What the SARIF 2.1.0 specification (OASIS, 2020) requires of the parts this log uses: §3.13 sarifLog
 * (version "2.1.0", runs), §3.14 run (tool), §3.19 toolComponent (name), §3.49 reportingDescriptor (id,
 * unique), §3.27 result (message with text; ruleIndex naming the rule of ruleId; level and kind from
 * their enumerations, level "none" unless kind is "fail"), §3.28 location, §3.4 artifactLocation (uri a
 * URI reference), §3.33 logicalLocation. Returns the violations.
 */
function sarifViolations(log: unknown): string[] {
  const out: string[] = [];
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(log)) return ['the log is not an object'];
  if (log['version'] !== '2.1.0') out.push('version is not "2.1.0"');
  if (!Array.isArray(log['runs'])) return [...out, 'runs is not an array'];
  for (const [r, run] of (log['runs'] as unknown[]).entries()) {
    if (!isObject(run) || !isObject(run['tool']) || !isObject(run['tool']['driver'])) {
      out.push(`runs[${r}].tool.driver missing`);
      continue;
    }
    const driver = run['tool']['driver'];
    if (typeof driver['name'] !== 'string' || driver['name'] === '') out.push(`runs[${r}].tool.driver.name missing`);
    const rules = (driver['rules'] ?? []) as unknown[];
    const ids = rules.map((rule) => (isObject(rule) ? rule['id'] : undefined));
    if (ids.some((id) => typeof id !== 'string')) out.push(`runs[${r}]: a rule without an id`);
    if (new Set(ids).size !== ids.length) out.push(`runs[${r}]: rule ids not unique`);
    for (const [i, rule] of rules.entries())
      if (
        isObject(rule) &&
        rule['shortDescription'] !== undefined &&
        !(isObject(rule['shortDescription']) && typeof rule['shortDescription']['text'] === 'string')
      )
        out.push(`rules[${i}].shortDescription has no text`);
    for (const [i, result] of ((run['results'] ?? []) as unknown[]).entries()) {
      const where = `runs[${r}].results[${i}]`;
      if (!isObject(result)) {
        out.push(`${where} is not an object`);
        continue;
      }
      if (!isObject(result['message']) || typeof result['message']['text'] !== 'string') out.push(`${where}.message.text missing`);
      const index = result['ruleIndex'];
      if (index !== undefined && (typeof index !== 'number' || ids[index] !== result['ruleId']))
        out.push(`${where}.ruleIndex does not name rule ${String(result['ruleId'])}`);
      const level = result['level'] ?? 'warning';
      const kind = result['kind'] ?? 'fail';
      if (!['none', 'note', 'warning', 'error'].includes(level as string)) out.push(`${where}.level ${String(level)}`);
      if (!['notApplicable', 'pass', 'fail', 'review', 'open', 'informational'].includes(kind as string)) out.push(`${where}.kind ${String(kind)}`);
      if (kind !== 'fail' && level !== 'none') out.push(`${where}: kind ${String(kind)} with level ${String(level)}`);
      for (const location of (result['locations'] ?? []) as unknown[]) {
        if (!isObject(location)) continue;
        const physical = location['physicalLocation'];
        if (physical !== undefined) {
          const uri = isObject(physical) && isObject(physical['artifactLocation']) ? physical['artifactLocation']['uri'] : undefined;
          // a URI reference (RFC 3986): no space, no backslash, no character outside the URI set unescaped
          if (typeof uri !== 'string' || !/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/.test(uri) || /%(?![0-9A-Fa-f]{2})/.test(uri))
            out.push(`${where}: artifactLocation.uri ${String(uri)} is not a URI reference`);
        }
        for (const logical of (location['logicalLocations'] ?? []) as unknown[])
          if (!isObject(logical) || typeof logical['fullyQualifiedName'] !== 'string') out.push(`${where}: a logical location without fullyQualifiedName`);
      }
    }
  }
  return out;
}

describe('SARIF 2.1.0 (check --format sarif)', () => {
  const report = buildReport(REPORT_INPUT);
  const text = formatSarif(report);

  it('is a format of check and compare', () => {
    expect(REPORT_FORMATS).toContain('sarif');
    expect(formatReport(report, 'sarif')).toBe(text);
  });

  it('writes one result per rejected finding and value warning, one per other state, each with its rule and location', () => {
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'savepoint-inspector',
              version: '9.9.9',
              rules: [
                {
                  id: 'FIELD_TYPE_CHANGED',
                  shortDescription: { text: "a retained field's type changes (including int32→int64, int32→sint32, string↔bytes)" },
                  helpUri: help('FIELD_TYPE_CHANGED'),
                },
                {
                  id: 'UNKNOWN_NUMBER_BECOMES_FIELD',
                  shortDescription: { text: 'saved values carry an unknown field whose number the new schema declares (added field)' },
                  helpUri: help('UNKNOWN_NUMBER_BECOMES_FIELD'),
                },
                { id: 'STATE_COMPATIBLE', shortDescription: { text: 'the state restores with the new schema' }, helpUri: help('STATE_COMPATIBLE') },
                {
                  id: 'STATE_NOT_CHECKED',
                  shortDescription: { text: 'a Protobuf state whose serializer nothing here could read: its compatibility was not checked, which fails check' },
                  helpUri: help('STATE_NOT_CHECKED'),
                },
                {
                  id: 'STATE_NOT_PROTOBUF',
                  shortDescription: { text: 'not a Protobuf state: out of the compatibility check' },
                  helpUri: help('STATE_NOT_PROTOBUF'),
                },
              ],
            },
          },
          invocations: [{ executionSuccessful: true }],
          properties: {
            target: '1.x',
            verdict: 'incompatible',
            summary: { protobufStates: 3, compatible: 1, incompatible: 1, notRestorable: 0, unknown: 1, otherStates: 1, warnings: 1, valuesNotRead: 1 },
          },
          results: [
            {
              ruleId: 'FIELD_TYPE_CHANGED',
              ruleIndex: 0,
              kind: 'fail',
              level: 'error',
              message: {
                text: 'events (aaaa) / last-event (VALUE_SERIALIZER): INCOMPATIBLE: Field 2 (count) of example.Event changes type from INT32 to SINT32',
              },
              locations: at({
                name: 'example.Event.count (2)',
                fullyQualifiedName: 'events/last-event/VALUE_SERIALIZER/example.Event.count (2)',
                kind: 'member',
              }),
            },
            {
              ruleId: 'UNKNOWN_NUMBER_BECOMES_FIELD',
              ruleIndex: 1,
              kind: 'fail',
              level: 'warning',
              message: { text: 'events (aaaa) / last-event (VALUE_SERIALIZER): 2 saved values carry unknown field 9 Keys: k1, k2' },
              locations: at({ name: 'last-event', fullyQualifiedName: 'events/last-event/VALUE_SERIALIZER', kind: 'variable' }),
            },
            {
              ruleId: 'STATE_COMPATIBLE',
              ruleIndex: 2,
              kind: 'pass',
              level: 'none',
              message: { text: 'bbbb / ok (VALUE_SERIALIZER): compatible' },
              locations: at({ name: 'ok', fullyQualifiedName: 'bbbb/ok/VALUE_SERIALIZER', kind: 'variable' }),
            },
            {
              ruleId: 'STATE_NOT_CHECKED',
              ruleIndex: 3,
              kind: 'fail',
              level: 'error',
              message: { text: 'cccc / odd (VALUE_SERIALIZER): unknown: an unknown Protobuf snapshot class x.Unknown' },
              locations: at({ name: 'odd', fullyQualifiedName: 'cccc/odd/VALUE_SERIALIZER', kind: 'variable' }),
            },
            {
              ruleId: 'STATE_NOT_PROTOBUF',
              ruleIndex: 4,
              kind: 'notApplicable',
              level: 'none',
              message: { text: 'dddd / count (VALUE_SERIALIZER): not a Protobuf state: Long' },
              locations: at({ name: 'count', fullyQualifiedName: 'dddd/count/VALUE_SERIALIZER', kind: 'variable' }),
            },
          ],
        },
      ],
    });
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });

  it('meets the SARIF 2.1.0 structural requirements, and the check sees a broken log', () => {
    expect(sarifViolations(JSON.parse(text))).toEqual([]);
    const broken = JSON.parse(text) as {
      version: string;
      runs: { results: { ruleIndex: number; kind: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    broken.version = '2.0.0';
    broken.runs[0]!.results[0]!.ruleIndex = 2;
    broken.runs[0]!.results[2]!.kind = 'fail-ish';
    broken.runs[0]!.results[3]!.locations[0]!.physicalLocation.artifactLocation.uri = 'my savepoints/sp-1';
    expect(sarifViolations(broken)).toEqual([
      'version is not "2.1.0"',
      'runs[0].results[0].ruleIndex does not name rule FIELD_TYPE_CHANGED',
      'runs[0].results[2].kind fail-ish',
      'runs[0].results[3]: artifactLocation.uri my savepoints/sp-1 is not a URI reference',
    ]);
  });

  it('a compare report: the root messages, located in the new descriptor set', () => {
    const compare = buildReport({
      ...REPORT_INPUT,
      subject: 'descriptor-sets',
      inputs: [REPORT_INPUT.inputs[1]!],
      states: [{ kind: 'protobuf', operator: { id: '' }, state: 'example.Event', role: 'root', snapshotClass: '', compatibility: incompatible, warnings: [] }],
    });
    const log = JSON.parse(formatSarif(compare)) as { runs: { results: unknown[] }[] };
    expect(log.runs[0]!.results).toEqual([
      {
        ruleId: 'FIELD_TYPE_CHANGED',
        ruleIndex: 0,
        kind: 'fail',
        level: 'error',
        message: { text: 'root example.Event (root): INCOMPATIBLE: Field 2 (count) of example.Event changes type from INT32 to SINT32' },
        locations: [
          {
            physicalLocation: { artifactLocation: { uri: 'new.binpb' } },
            logicalLocations: [{ name: 'example.Event.count (2)', fullyQualifiedName: 'example.Event/example.Event.count (2)', kind: 'member' }],
          },
        ],
      },
    ]);
    expect(sarifViolations(log)).toEqual([]);
  });
});
