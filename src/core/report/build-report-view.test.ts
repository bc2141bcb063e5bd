import { describe, expect, it } from 'vitest';
import { describeNewDeclaration } from '../compat';
import { buildReportView } from './build-report-view';
import { collectValueAlerts } from './collect-value-alerts';
import type { CompatibilityReport, ReportState } from './report-types';

const becomesParams = (count: number) => ({ count, number: 100, message: 'fixtures.events.Event', name: 'legacy_score' });
const becomes = (count: number) =>
  `${count} saved value(s) carry unknown field 100 in fixtures.events.Event, which the new schema declares as legacy_score: the new parser reads the retained bytes as that field`;

function state(name: string, extra: Partial<ReportState> = {}): ReportState {
  return {
    operator: 'op1',
    state: name,
    role: 'VALUE_SERIALIZER',
    serializer: 'x',
    verdict: 'compatible',
    firstIncompatibility: null,
    findings: [],
    warnings: [],
    diff: {
      savedRoot: 'fixtures.events.Event',
      newRoot: 'fixtures.events.Event',
      otherFindings: [],
      unreached: [],
      declarations: [
        {
          kind: 'message',
          savedName: 'fixtures.events.Event',
          newName: 'fixtures.events.Event',
          reached: true,
          affectsVerdict: true,
          status: 'changed',
          findings: [],
          rows: [
            { kind: 'field', key: '100', new: { number: '100', name: 'legacy_score', type: 'INT64', label: 'singular' } },
            { kind: 'field', key: '7', new: { number: '7', name: 'tags', type: 'STRING', label: 'repeated' } },
          ],
        },
      ],
    },
    ...extra,
  };
}

function report(states: ReportState[]): CompatibilityReport {
  return {
    schemaVersion: 1,
    tool: { name: 't', version: '0' },
    inputs: [],
    target: '1.x',
    newSettings: { maxMessageSize: 1, recursionLimit: 1, deterministicSerialization: false, largePayloadAliasing: true } as CompatibilityReport['newSettings'],
    verdict: 'compatible',
    summary: { protobufStates: states.length, compatible: 0, incompatible: 0, notRestorable: 0, unknown: 0, otherStates: 0, warnings: 0 },
    states,
  };
}

describe('collectValueAlerts', () => {
  it('groups UNKNOWN_NUMBER_BECOMES_FIELD over states with the new field type from the diff, and limits per limit', () => {
    const limitParams = { count: 1, limit: 'maxMessageSize', value: 10, largest: 300 };
    const limit = '1 saved value(s) exceed the new maxMessageSize of 10 (largest: 300): the new reader fails on them';
    const r = report([
      state('a', {
        operatorUid: 'my-op',
        warnings: [{ ruleId: 'UNKNOWN_NUMBER_BECOMES_FIELD', message: becomes(3), params: becomesParams(3), count: 3, keys: ['k1', 'k2', 'k3'] }],
      }),
      state('b', {
        warnings: [
          { ruleId: 'UNKNOWN_NUMBER_BECOMES_FIELD', message: becomes(2), params: becomesParams(2), count: 2, keys: ['k9'] },
          { ruleId: 'VALUE_EXCEEDS_NEW_LIMIT', message: limit, params: limitParams, count: 1, keys: ['k9'] },
        ],
      }),
    ]);
    const alerts = collectValueAlerts(r);
    expect(alerts.becomesField).toEqual([
      {
        kind: 'becomes-field',
        message: 'fixtures.events.Event',
        number: 100,
        newName: 'legacy_score',
        newType: 'INT64',
        total: 5,
        states: [
          { operator: 'op1', operatorLabel: 'my-op', state: 'a', count: 3, keys: ['k1', 'k2', 'k3'] },
          { operator: 'op1', state: 'b', count: 2, keys: ['k9'] },
        ],
      },
    ]);
    expect(alerts.exceedsLimit).toEqual([
      {
        kind: 'exceeds-limit',
        limit: 'maxMessageSize',
        value: '10',
        total: 1,
        largest: 300,
        states: [{ operator: 'op1', state: 'b', count: 1, keys: ['k9'] }],
      },
    ]);
  });

  it("reads the warnings' params, not their messages", () => {
    const r = report([
      state('a', {
        warnings: [
          {
            ruleId: 'UNKNOWN_NUMBER_BECOMES_FIELD',
            message: 'worded otherwise',
            params: { count: 1, number: 7, message: 'fixtures.events.Event', name: 'tags' },
            count: 1,
            keys: [],
          },
          {
            ruleId: 'VALUE_EXCEEDS_NEW_LIMIT',
            message: 'worded otherwise',
            params: { count: 1, limit: 'recursionLimit', value: 3, largest: 9 },
            count: 1,
            keys: [],
          },
        ],
      }),
    ]);
    const alerts = collectValueAlerts(r);
    expect(alerts.becomesField).toMatchObject([
      { message: 'fixtures.events.Event', number: 7, newName: 'tags', newType: 'STRING', newLabel: 'repeated', total: 1 },
    ]);
    expect(alerts.exceedsLimit).toMatchObject([{ limit: 'recursionLimit', value: '3', largest: 9 }]);
  });
});

describe('buildReportView', () => {
  it('says for every unknown field number what describeNewDeclaration says, read from the view', () => {
    const s = state('a');
    const view = buildReportView(report([s, state('b', { diff: undefined })]));
    expect(view.states).toHaveLength(2);
    const lookup = (i: number, message: string, number: number, wireType: number) => {
      const v = view.states[i]!.newFields;
      if (!v.reachedMessages.includes(message)) return { kind: 'unknown-message' };
      return v.fields.find((f) => f.message === message && f.number === number && f.wireType === wireType)?.declaration ?? { kind: 'undeclared' };
    };
    for (const message of ['fixtures.events.Event', 'fixtures.events.Other']) {
      for (const number of [7, 100, 101]) {
        for (const wireType of [0, 1, 2, 5]) {
          expect(lookup(0, message, number, wireType)).toEqual(describeNewDeclaration(s.diff, message, number, wireType));
          expect(lookup(1, message, number, wireType)).toEqual(describeNewDeclaration(undefined, message, number, wireType));
        }
      }
    }
    // a repeated STRING read from a LEN value, a singular INT64 from a VARINT; another wire type stays unknown
    expect(lookup(0, 'fixtures.events.Event', 7, 2)).toEqual({ kind: 'read-as', name: 'tags', type: 'STRING', label: 'repeated' });
    expect(lookup(0, 'fixtures.events.Event', 100, 2)).toEqual({ kind: 'wire-type-mismatch', name: 'legacy_score', type: 'INT64' });
  });

  it("words each state's findings and their shared notes as the text report does", () => {
    const view = buildReportView(report([state('a')]));
    expect(view.states[0]!.findings).toEqual({ findings: [], notes: [] });
    expect(view.states[0]!.inferredLines).toEqual([]);
    expect(view.newSchemaLines).toEqual([]);
  });
});
