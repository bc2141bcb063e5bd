import { describe, expect, it } from 'vitest';
import type { InspectedOperator, SavepointInspection } from '../core/flink';
import { describeSavepointFormat } from './describe-savepoint-format';

function inspection(type: SavepointInspection['type'], format: SavepointInspection['format'], keyed: InspectedOperator['keyedFormat'][]): SavepointInspection {
  return {
    input: 'x',
    metadataVersion: 4,
    checkpointId: '1',
    type,
    format,
    totalSize: 0,
    warnings: [],
    errors: [],
    summary: {} as SavepointInspection['summary'],
    operators: keyed.map((keyedFormat, i) => ({ keyedFormat, id: String(i) }) as InspectedOperator),
  };
}

describe('describeSavepointFormat', () => {
  it('gives the recorded savepoint format as it is', () => {
    expect(describeSavepointFormat(inspection('savepoint', 'CANONICAL', ['canonical', 'none']))).toEqual({ value: 'CANONICAL' });
  });

  it("reads a checkpoint's format from its state files: Flink records one only for savepoints", () => {
    expect(describeSavepointFormat(inspection('checkpoint', 'unknown', ['rocksdb-native', 'none']))).toEqual({
      value: 'RocksDB native',
      sub: 'from the state files (SST); a checkpoint records no savepoint format',
    });
    expect(describeSavepointFormat(inspection('checkpoint', 'unknown', ['changelog', 'none']))).toEqual({
      value: 'changelog',
      sub: 'from the state files; a checkpoint records no savepoint format',
    });
  });

  it("reads a Flink 1.14-or-older savepoint's format from its state files: its _metadata records none", () => {
    expect(describeSavepointFormat(inspection('unknown', 'unknown', ['rocksdb-full', 'none']))).toEqual({
      value: 'CANONICAL',
      sub: 'from the state files (full snapshot); this _metadata records no format',
    });
  });

  it('says "not recorded" when the files do not tell either', () => {
    expect(describeSavepointFormat(inspection('unknown', 'unknown', ['none']))).toEqual({
      value: 'not recorded',
      sub: 'this _metadata records no format, and no keyed state shows one',
    });
    expect(describeSavepointFormat(inspection('checkpoint', 'unknown', ['rocksdb-native', 'canonical']))).toEqual({
      value: 'mixed',
      sub: 'from the state files: RocksDB native, CANONICAL; a checkpoint records no savepoint format',
    });
  });
});
