import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type StateCompatibility } from '../compat';
import { buildReport } from './build-report';
import { computeExitCode } from './verdict-exit-codes';

const base = { tool: { name: 't', version: '0' }, inputs: [], target: '1.x' as const, newSettings: DEFAULT_SETTINGS };
const other = {
  kind: 'other' as const,
  operator: { id: 'ab' },
  state: 's',
  role: 'VALUE_SERIALIZER',
  snapshotClass: 'x.LongSerializer',
  reason: 'not a Protobuf state: Long',
};

const compatible = {
  kind: 'protobuf' as const,
  operator: { id: 'cd' },
  state: 'p',
  role: 'VALUE_SERIALIZER',
  snapshotClass: 'io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot',
  compatibility: { verdict: 'compatible', target: '1.x', ruleSet: 'directional', savedRoot: 'a.B', newRoot: 'a.B', findings: [] } satisfies StateCompatibility,
  warnings: [],
};

describe('computeExitCode', () => {
  it('never passes a Protobuf state that could not be checked', () => {
    const unchecked = {
      ...other,
      state: 'p',
      snapshotClass: 'io.github.flink.gcp.protobuf.NewSnapshot',
      reason: 'Protobuf state not checked: …',
      uncheckedProtobuf: true as const,
    };
    const report = buildReport({ ...base, states: [other, unchecked] });
    expect(report.summary).toMatchObject({ protobufStates: 1, unknown: 1, otherStates: 1 });
    expect(report.verdict).toBe('unknown');
    expect(report.states.find((s) => s.state === 'p')).toMatchObject({ verdict: 'unknown', ruleSet: 'none', valuesNotRead: 'Protobuf state not checked: …' });
    expect(computeExitCode(report)).toBe(1);
  });

  it('never passes a savepoint without Protobuf state: verdict unknown (nothing was checked), exit 1', () => {
    const report = buildReport({ ...base, states: [other] });
    expect(report.verdict).toBe('unknown');
    expect(report.notChecked).toEqual(['the savepoint holds no Protobuf state: nothing was checked']);
    expect(computeExitCode(report)).toBe(1);
  });

  it('a state whose header could not be read fails the gate: whether it holds Protobuf is not known', () => {
    const unreadable = { ...other, state: 'h', snapshotClass: '(unreadable)', reason: 'state header not decided: expected …', headerNotRead: true as const };
    const report = buildReport({ ...base, states: [compatible, unreadable] });
    expect(report.summary).toMatchObject({ protobufStates: 1, compatible: 1, otherStates: 1, headersNotRead: 1 });
    expect(report.states.find((s) => s.state === 'h')).toMatchObject({ verdict: 'unknown', headerNotRead: true });
    expect(report.verdict).toBe('unknown');
    expect(report.notChecked).toEqual(['the header of 1 state could not be read, so whether it holds Protobuf is not known']);
    expect(computeExitCode(report)).toBe(1);
  });

  it('saved values not read (a missing state file) never read "compatible": verdict unknown, exit 1', () => {
    const report = buildReport({ ...base, states: [{ ...compatible, valuesNotRead: 'expected state file "x" next to _metadata, found no such file' }] });
    expect(report.states[0]!.verdict).toBe('compatible');
    expect(report.verdict).toBe('unknown');
    expect(report.notChecked).toEqual(['the saved values of 1 Protobuf state were not read (each state says why), so their value warnings were not checked']);
    expect(computeExitCode(report)).toBe(1);
  });

  it('every Protobuf state checked and compatible: verdict compatible, nothing listed as not checked, exit 0', () => {
    const report = buildReport({ ...base, states: [compatible, other] });
    expect(report.verdict).toBe('compatible');
    expect(report.notChecked).toBeUndefined();
    expect(computeExitCode(report)).toBe(0);
  });
});
