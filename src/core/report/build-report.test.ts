import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../compat';
import { buildReport, computeExitCode } from './build-report';

const base = { tool: { name: 't', version: '0' }, inputs: [], target: '1.x' as const, newSettings: DEFAULT_SETTINGS };
const other = { kind: 'other' as const, operator: { id: 'ab' }, state: 's', role: 'VALUE_SERIALIZER', snapshotClass: 'x.LongSerializer', reason: 'not a Protobuf state: Long' };

describe('computeExitCode', () => {
  it('never passes a Protobuf state that could not be checked', () => {
    const unchecked = { ...other, state: 'p', snapshotClass: 'io.github.flink.gcp.protobuf.NewSnapshot', reason: 'Protobuf state not checked: …', uncheckedProtobuf: true as const };
    const report = buildReport({ ...base, states: [other, unchecked] });
    expect(report.summary).toMatchObject({ protobufStates: 1, unknown: 1, otherStates: 1 });
    expect(report.verdict).toBe('unknown');
    expect(report.states.find((s) => s.state === 'p')).toMatchObject({ verdict: 'unknown', ruleSet: 'none', valuesNotRead: 'Protobuf state not checked: …' });
    expect(computeExitCode(report)).toBe(1);
  });

  it('passes a savepoint without Protobuf state', () => {
    expect(computeExitCode(buildReport({ ...base, states: [other] }))).toBe(0);
  });
});
