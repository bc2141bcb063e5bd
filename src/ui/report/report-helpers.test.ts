import { describe, expect, it } from 'vitest';
import { formatRuleMessage } from '../../core/compat';
import type { CompatibilityReport, ReportState } from '../../core/report';
import { describeDistributionMode, describeEntryCount } from '../describe-entry-count';
import { collectValueAlerts } from './collect-value-alerts';
import { describeLibraryLine } from './describe-library-line';
import { describeNewDeclaration } from './describe-new-declaration';
import { parseRuleMessage } from './parse-rule-message';

const becomesParams = (count: number) => ({ count, number: 100, message: 'fixtures.events.Event', name: 'legacy_score' });
const becomes = (count: number) => formatRuleMessage('UNKNOWN_NUMBER_BECOMES_FIELD', becomesParams(count));

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
          kind: 'message', savedName: 'fixtures.events.Event', newName: 'fixtures.events.Event', reached: true, affectsVerdict: true, status: 'changed', findings: [],
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
    schemaVersion: 1, tool: { name: 't', version: '0' }, inputs: [], target: '1.x',
    newSettings: { maxMessageSize: 1, recursionLimit: 1, deterministicSerialization: false, largePayloadAliasing: true } as CompatibilityReport['newSettings'],
    verdict: 'compatible',
    summary: { protobufStates: states.length, compatible: 0, incompatible: 0, notRestorable: 0, unknown: 0, otherStates: 0, warnings: 0 },
    states,
  };
}

describe('parseRuleMessage', () => {
  it('reads the parameters back out of a message made from the rule template', () => {
    expect(parseRuleMessage('UNKNOWN_NUMBER_BECOMES_FIELD', becomes(3))).toEqual({ count: '3', number: '100', message: 'fixtures.events.Event', name: 'legacy_score' });
    const limit = formatRuleMessage('VALUE_EXCEEDS_NEW_LIMIT', { count: 2, limit: 'maxMessageSize', value: 10, largest: 19990 });
    expect(parseRuleMessage('VALUE_EXCEEDS_NEW_LIMIT', limit)).toEqual({ count: '2', limit: 'maxMessageSize', value: '10', largest: '19990' });
  });

  it('returns null for a message of another shape or an unknown rule id', () => {
    expect(parseRuleMessage('UNKNOWN_NUMBER_BECOMES_FIELD', 'something else')).toBeNull();
    expect(parseRuleMessage('NO_SUCH_RULE', 'x')).toBeNull();
  });
});

describe('collectValueAlerts', () => {
  it('groups UNKNOWN_NUMBER_BECOMES_FIELD over states with the new field type from the diff, and limits per limit', () => {
    const limitParams = { count: 1, limit: 'maxMessageSize', value: 10, largest: 300 };
    const limit = formatRuleMessage('VALUE_EXCEEDS_NEW_LIMIT', limitParams);
    const r = report([
      state('a', { operatorUid: 'my-op', warnings: [{ ruleId: 'UNKNOWN_NUMBER_BECOMES_FIELD', message: becomes(3), params: becomesParams(3), count: 3, keys: ['k1', 'k2', 'k3'] }] }),
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
        kind: 'becomes-field', message: 'fixtures.events.Event', number: 100, newName: 'legacy_score', newType: 'INT64', total: 5,
        states: [
          { operator: 'op1', operatorLabel: 'my-op', state: 'a', count: 3, keys: ['k1', 'k2', 'k3'] },
          { operator: 'op1', state: 'b', count: 2, keys: ['k9'] },
        ],
      },
    ]);
    expect(alerts.exceedsLimit).toEqual([{ kind: 'exceeds-limit', limit: 'maxMessageSize', value: '10', total: 1, largest: 300, states: [{ operator: 'op1', state: 'b', count: 1, keys: ['k9'] }] }]);
  });
});

describe('describeNewDeclaration', () => {
  it('says how the new schema reads an unknown number: as the field, still unknown (wire type), or undeclared', () => {
    const s = state('a');
    expect(describeNewDeclaration(s, 'fixtures.events.Event', 100, 0)).toEqual({ kind: 'read-as', name: 'legacy_score', type: 'INT64' });
    expect(describeNewDeclaration(s, 'fixtures.events.Event', 100, 2)).toEqual({ kind: 'wire-type-mismatch', name: 'legacy_score', type: 'INT64' });
    expect(describeNewDeclaration(s, 'fixtures.events.Event', 7, 2)).toEqual({ kind: 'read-as', name: 'tags', type: 'STRING', label: 'repeated' });
    expect(describeNewDeclaration(s, 'fixtures.events.Event', 101, 2)).toEqual({ kind: 'undeclared' });
    expect(describeNewDeclaration(s, 'fixtures.other.Msg', 1, 0)).toEqual({ kind: 'unknown-message' });
  });
});

describe('describeLibraryLine', () => {
  it('finds the states a target line cannot read, with the saved line and the failure text', () => {
    const params = { snapshotClass: 'a.b.ProtobufTypeSerializerSnapshot', savedLine: '0.x', target: '1.x', reason: 'removed' };
    const message = formatRuleMessage('TARGET_CANNOT_READ_SNAPSHOT', params);
    const nr = state('a', { verdict: 'not-restorable', firstIncompatibility: { ruleId: 'TARGET_CANNOT_READ_SNAPSHOT', message, params }, failureText: 'Could not find class' });
    const block = describeLibraryLine(report([nr, state('b')]));
    expect(block).toMatchObject({ snapshotClass: 'a.b.ProtobufTypeSerializerSnapshot', savedLine: '0.x', target: '1.x', failureText: 'Could not find class' });
    expect(block?.states.map((s) => s.state)).toEqual(['a']);
    expect(describeLibraryLine(report([state('b')]))).toBeNull();
  });
});

describe('entry counts and distribution modes', () => {
  it('counts one broadcast copy and names the copies, from the scan own numbers; other states count their entries', () => {
    expect(describeEntryCount({ scope: 'broadcast', subtasks: [0, 1] }, { entries: 3, rows: 6 })).toBe('3 entries × 2 subtask copies');
    expect(describeEntryCount({ scope: 'broadcast', subtasks: [0, 1] }, { entries: 3 })).toBe('3 entries × 2 subtask copies');
    // a sample of the first 4 rows holds 3 entries of the counted copy and 1 of the next: not "2 entries × 2"
    expect(describeEntryCount({ scope: 'broadcast', subtasks: [0, 1] }, { entries: 3, rows: 4 })).toBe('3 entries in one copy, 4 rows over 2 subtask copies');
    expect(describeEntryCount({ scope: 'broadcast', subtasks: [0] }, { entries: 3, rows: 3 })).toBe('3 entries');
    expect(describeEntryCount({ scope: 'keyed', subtasks: [0, 1] }, { entries: 1, rows: 1 })).toBe('1 entry');
    expect(describeEntryCount({ scope: 'operator', subtasks: [0, 1] }, { entries: 1200, rows: 1200 })).toBe('1,200 entries');
  });

  it('maps operator state kinds to the distribution mode, and keyed states to none', () => {
    expect(describeDistributionMode({ scope: 'operator', kind: 'OPERATOR_LIST' })).toBe('SPLIT_DISTRIBUTE');
    expect(describeDistributionMode({ scope: 'operator', kind: 'OPERATOR_UNION' })).toBe('UNION');
    expect(describeDistributionMode({ scope: 'broadcast', kind: 'BROADCAST' })).toBe('BROADCAST');
    expect(describeDistributionMode({ scope: 'keyed', kind: 'VALUE' })).toBeNull();
  });
});
