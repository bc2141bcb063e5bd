import { describe, expect, it } from 'vitest';
import { describeProtobufStateScan, describeScanFinding } from './describe-scan-finding';
import type { ProtobufStateScanSummary, ProtobufValueFinding } from '../../protobuf';

const finding = (check: ProtobufValueFinding['check'], example: ProtobufValueFinding['example']): ProtobufValueFinding => ({
  check,
  count: 2,
  exampleKeys: ['k1', 'k2'],
  example,
});

describe("describeScanFinding: the scan's value checks in the registry's words", () => {
  it('names the rule of each check and words every kind of example as `stats` prints it', () => {
    const described = [
      finding('aliased-payload', { kind: 'aliased-payload', payloadSize: 5392, aliasableFields: 2, aliasableBytes: 5000 }),
      finding('reused-number', { kind: 'reused-number', number: 2, typeName: 'example.Event' }),
      finding('number-too-large', { kind: 'number-too-large', number: '600000000' }),
      finding('exceeds-new-limit', { kind: 'payload-too-large', payloadSize: 5000, value: 4999 }),
      finding('exceeds-new-limit', { kind: 'too-deep', depth: 7, value: 5 }),
    ].map(describeScanFinding);
    expect(described.map((f) => [f.id, f.detail])).toEqual([
      [
        'ALIASING_RETENTION',
        'a 5392-byte payload shares its array with 2 bytes/unknown length-delimited field(s) (5000 bytes); a retained one keeps all 5392 bytes alive',
      ],
      [
        'UNKNOWN_REUSES_DECLARED_NUMBER',
        'field 2 of example.Event is written after unknown fields or out of field-number order, as only an unknown field reusing that declared number is written',
      ],
      ['UNKNOWN_NUMBER_TOO_LARGE', 'a tag carries field number 600000000, above 536,870,911'],
      ['VALUE_EXCEEDS_NEW_LIMIT', 'a 5000-byte payload exceeds the new maxMessageSize 4999'],
      ['VALUE_EXCEEDS_NEW_LIMIT', 'nesting depth 7 exceeds the new recursionLimit 5'],
    ]);
    // the shape `stats --json` has always printed: id, count, example keys, detail
    expect(Object.keys(described[0]!)).toEqual(['id', 'count', 'exampleKeys', 'detail']);
    expect(described[0]).toMatchObject({ count: 2, exampleKeys: ['k1', 'k2'] });
  });

  it('replaces only the findings of a summary, in place', () => {
    const summary = {
      values: 3,
      unreadableValues: 0,
      findings: [finding('number-too-large', { kind: 'number-too-large', number: '600000000' })],
      maxDepth: 1,
    } as unknown as ProtobufStateScanSummary;
    const described = describeProtobufStateScan(summary);
    expect(Object.keys(described)).toEqual(['values', 'unreadableValues', 'findings', 'maxDepth']);
    expect(described.findings).toEqual([
      { id: 'UNKNOWN_NUMBER_TOO_LARGE', count: 2, exampleKeys: ['k1', 'k2'], detail: 'a tag carries field number 600000000, above 536,870,911' },
    ]);
  });
});
