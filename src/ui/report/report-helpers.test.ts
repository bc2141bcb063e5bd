import { describe, expect, it } from 'vitest';
import type { CompatibilityReport, ReportState } from '../../core/report';
import { describeDistributionMode, describeEntryCount } from '../describe-entry-count';
import { describeBecomesFieldEffect } from './describe-becomes-field-effect';
import { describeLibraryLine, describeTargetLine, summarizeReason } from './describe-library-line';
import {
  countUnreachedChanges,
  describeChangeReach,
  describeNothingToCheck,
  describeVerdictReason,
  listSchemaChanges,
  listSettingsChanges,
} from './describe-verdict-reason';

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

describe('describeBecomesFieldEffect', () => {
  it('says what the new parser does after a restore only when the states can be restored', () => {
    expect(describeBecomesFieldEffect('legacy_score', true)).toBe(
      'Today these bytes are unknown and carried along untouched. After the restore the new parser reads them as legacy_score: the values get a legacy_score they never had, decoded from whatever those bytes once meant.',
    );
    // a NOT RESTORABLE verdict is never followed by what happens after the restore
    const text = describeBecomesFieldEffect('legacy_score', false);
    expect(text).not.toContain('After the restore');
    expect(text).toBe(
      'Today these bytes are unknown and carried along untouched. These states cannot be restored as they are (see the verdict); if they are restored by another path (a migration), the new parser reads these bytes as legacy_score: the values get a legacy_score they never had.',
    );
  });
});

describe('describeLibraryLine', () => {
  it('finds the states a target line cannot read, with the saved line and the failure text', () => {
    const params = { snapshotClass: 'a.b.ProtobufTypeSerializerSnapshot', savedLine: '0.x', target: '1.x', reason: 'removed' };
    const message = 'a.b.ProtobufTypeSerializerSnapshot (0.x) cannot be read by target 1.x: removed';
    const nr = state('a', {
      verdict: 'not-restorable',
      firstIncompatibility: { ruleId: 'TARGET_CANNOT_READ_SNAPSHOT', message, params },
      failureText: 'Could not find class',
    });
    const block = describeLibraryLine(report([nr, state('b')]));
    expect(block).toMatchObject({ snapshotClass: 'a.b.ProtobufTypeSerializerSnapshot', savedLine: '0.x', target: '1.x', failureText: 'Could not find class' });
    expect(block?.states.map((s) => s.state)).toEqual(['a']);
    expect(describeLibraryLine(report([state('b')]))).toBeNull();
  });

  it("words the reason column and the planning aid's target from the finding's params, other first incompatibilities by their message", () => {
    const params = { snapshotClass: 'a.b.V1Snapshot', savedLine: '1.x', target: '0.x', reason: 'downgrades are not supported' };
    const nr = state('a', { verdict: 'not-restorable', firstIncompatibility: { ruleId: 'TARGET_CANNOT_READ_SNAPSHOT', message: 'worded otherwise', params } });
    expect(summarizeReason(nr)).toBe('1.x snapshot: 0.x cannot read it');
    expect(describeTargetLine(nr)).toBe('0.x');
    expect(describeLibraryLine(report([nr]))).toMatchObject({ snapshotClass: 'a.b.V1Snapshot', savedLine: '1.x', target: '0.x' });
    const message = 'Field 1 (id) of fixtures.events.Event changes type from INT64 to SINT64';
    const incompatible = state('b', {
      verdict: 'incompatible',
      firstIncompatibility: {
        ruleId: 'FIELD_TYPE_CHANGED',
        message,
        params: { number: 1, name: 'id', message: 'fixtures.events.Event', from: 'INT64', to: 'SINT64' },
      },
    });
    expect(summarizeReason(incompatible)).toBe(message);
    expect(describeTargetLine(incompatible)).toBe('target');
    expect(summarizeReason(state('c', { verdict: 'unknown', reason: 'not a Protobuf state' }))).toBe('not a Protobuf state');
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

describe('describeVerdictReason', () => {
  const withVerdict = (states: ReportState[], verdict: CompatibilityReport['verdict']) => ({ ...report(states), verdict });
  const pb = (name: string, extra: Partial<ReportState> = {}) => state(name, { ruleSet: 'directional', ...extra });

  it('calls a settings change a settings change, never a schema change', () => {
    const message = 'maxMessageSize decreases from 67108864 to 1024';
    const finding = { ruleId: 'MAX_MESSAGE_SIZE_DECREASED' as const, message, params: { old: 67108864, new: 1024 } };
    const bad = pb('b', {
      verdict: 'incompatible',
      firstIncompatibility: finding,
      findings: [{ ...finding, accepted: false, path: 'settings.maxMessageSize' }],
    });
    expect(describeVerdictReason(withVerdict([bad], 'incompatible'))).toBe(
      `The Protobuf state cannot be restored with the new serializer settings (a settings change, not a schema change): ${message}`,
    );
    expect(describeVerdictReason(withVerdict([pb('a'), bad], 'incompatible'))).toBe(
      `1 of 2 Protobuf states cannot be restored with the new serializer settings (a settings change, not a schema change): ${message}`,
    );
    expect(listSchemaChanges(withVerdict([bad], 'incompatible'))).toEqual([]);
    expect(listSettingsChanges(withVerdict([bad], 'incompatible'))).toEqual([
      { ruleId: 'MAX_MESSAGE_SIZE_DECREASED', message, accepted: false, states: ['b'] },
    ]);
  });

  it('says checkpoint for a checkpoint with nothing to check', () => {
    const none = withVerdict([state('t', { verdict: 'unknown', reason: 'not a Protobuf state' })], 'unknown');
    expect(describeVerdictReason(none, 0, 'checkpoint')).toBe('This checkpoint holds no Protobuf state: nothing to check.');
    expect(describeVerdictReason(none, 0, 'savepoint')).toBe('This savepoint holds no Protobuf state: nothing to check.');
    expect(describeNothingToCheck('checkpoint')).toBe('This checkpoint holds no Protobuf state: nothing to check.');
    expect(describeNothingToCheck('unknown')).toBe('This savepoint holds no Protobuf state: nothing to check.');
  });

  it('says why in one sentence: the library line, the first incompatibility, or that all states restore', () => {
    const params = { snapshotClass: 'a.b.S', savedLine: '0.x', target: '1.x', reason: '1.0.0 removed the 0.x snapshot classes' };
    const nr = (n: string) =>
      pb(n, { verdict: 'not-restorable', ruleSet: 'none', firstIncompatibility: { ruleId: 'TARGET_CANNOT_READ_SNAPSHOT', message: 'x', params } });
    expect(describeVerdictReason(withVerdict([nr('a'), nr('b')], 'not-restorable'))).toBe(
      'All 2 Protobuf states were written by the 0.x serializer, which the 1.x library cannot read: 1.0.0 removed the 0.x snapshot classes.',
    );
    const message = 'Field 1 (id) of fixtures.events.Event changes type from INT64 to SINT64';
    const bad = pb('b', {
      verdict: 'incompatible',
      firstIncompatibility: {
        ruleId: 'FIELD_TYPE_CHANGED',
        message,
        params: { number: 1, name: 'id', message: 'fixtures.events.Event', from: 'INT64', to: 'SINT64' },
      },
    });
    expect(describeVerdictReason(withVerdict([pb('a'), bad], 'incompatible'))).toBe(
      `1 of 2 Protobuf states cannot be restored with the new schema: ${message}`,
    );
    expect(describeVerdictReason(withVerdict([bad], 'incompatible'))).toBe(`The Protobuf state cannot be restored with the new schema: ${message}`);
    expect(describeVerdictReason(withVerdict([pb('a'), pb('b')], 'compatible'))).toBe('All 2 Protobuf states can be restored with the new schema.');
    // values not read: unknown, never "can be restored"
    const notRead = {
      ...withVerdict([pb('a', { valuesNotRead: 'missing file' }), pb('b')], 'unknown'),
      notChecked: ['the saved values of 1 Protobuf state were not read (each state says why), so their value warnings were not checked'],
    };
    expect(describeVerdictReason(notRead)).toBe(
      'No Protobuf state fails, but not everything was checked, so the verdict is unknown: the saved values of 1 Protobuf state were not read (each state says why), so their value warnings were not checked.',
    );
    expect(describeVerdictReason(withVerdict([state('t', { verdict: 'unknown', reason: 'not a Protobuf state' })], 'unknown'))).toBe(
      'This savepoint holds no Protobuf state: nothing to check.',
    );
  });

  it('lists each schema change of the reached declarations once, over all states', () => {
    const f = {
      ruleId: 'FIELD_ADDED' as const,
      accepted: true,
      path: 'fixtures.events.Event.legacy_score (100)',
      message: 'Field 100 (legacy_score) is added to fixtures.events.Event',
      params: { number: 100, name: 'legacy_score', message: 'fixtures.events.Event' },
    };
    const withFinding = (name: string) => {
      const s = pb(name);
      s.diff!.declarations[0]!.findings.push(f);
      return s;
    };
    expect(listSchemaChanges(report([withFinding('a'), withFinding('b')]))).toEqual([
      { ruleId: 'FIELD_ADDED', message: f.message, accepted: true, states: ['a', 'b'] },
    ]);
  });

  it('says which states reach each change, and counts as unreached only what no state reaches', () => {
    const f = {
      ruleId: 'FIELD_ADDED' as const,
      accepted: true,
      path: 'fixtures.events.Event.legacy_score (100)',
      message: 'Field 100 (legacy_score) is added to fixtures.events.Event',
      params: { number: 100, name: 'legacy_score', message: 'fixtures.events.Event' },
    };
    const reaching = (name: string) => {
      const s = pb(name);
      s.diff!.declarations[0]!.findings.push(f);
      return s;
    };
    // the demo's shape: 8 states reach Event (changed); `rules` has another root, so Event is outside what it reaches
    const changedEvent = { ...reaching('x').diff!.declarations[0]!, reached: false, affectsVerdict: false };
    const rules = pb('rules', {
      diff: { savedRoot: 'fixtures.events.Rule', newRoot: 'fixtures.events.Rule', otherFindings: [], declarations: [], unreached: [changedEvent] },
    });
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const r = report([...names.map(reaching), rules]);
    const [change] = listSchemaChanges(r);
    expect(change!.states).toEqual(names);
    expect(countUnreachedChanges(r)).toBe(0);
    expect(describeChangeReach(change!, r)).toBe('8 of 9 states reach it; not rules');
    // a declaration that changed and no state reaches is counted
    const lone = pb('lone', {
      diff: { savedRoot: 'fixtures.events.Rule', newRoot: 'fixtures.events.Rule', otherFindings: [], declarations: [], unreached: [changedEvent] },
    });
    expect(countUnreachedChanges(report([lone, rules]))).toBe(1);
    // every state reaches it: nothing to add; few states: named
    expect(describeChangeReach(listSchemaChanges(report(names.map(reaching)))[0]!, report(names.map(reaching)))).toBe('');
    const few = report([reaching('a'), ...['p', 'q', 'r', 's'].map((n) => pb(n, { diff: { ...rules.diff!, unreached: [] } }))]);
    expect(describeChangeReach(listSchemaChanges(few)[0]!, few)).toBe('1 of 5 states reaches it: a');
  });
});
