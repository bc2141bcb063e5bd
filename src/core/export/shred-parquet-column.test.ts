import { describe, expect, it } from 'vitest';
import type { ParquetNode } from './parquet-schema-types';
import type { ParquetValue } from './to-parquet-message-value';
import { shredParquetColumn } from './shred-parquet-column';

// optional group value { repeated group attributes { optional binary key; } repeated int64 deltas; }
const key: ParquetNode = { name: 'key', repetition: 'OPTIONAL', type: 'BYTE_ARRAY', logical: 'STRING' };
const attributes: ParquetNode = { name: 'attributes', repetition: 'REPEATED', children: [key] };
const deltas: ParquetNode = { name: 'deltas', repetition: 'REPEATED', type: 'INT64' };
const value: ParquetNode = { name: 'value', repetition: 'OPTIONAL', children: [attributes, deltas] };

describe("shredParquetColumn (Dremel levels of parquet-protobuf's bare repeated fields)", () => {
  it('gives repetition and definition levels of a leaf inside a repeated group', () => {
    const rows: ParquetValue[] = [{ attributes: [{ key: 'a' }, { key: null }, {}], deltas: [] }, null, { attributes: [] }, { attributes: [{ key: 'b' }] }];
    const col = shredParquetColumn([value, attributes, key], rows);
    expect(col.maxDefinitionLevel).toBe(3);
    expect(col.maxRepetitionLevel).toBe(1);
    expect(col.values).toEqual(['a', null, null, null, null, 'b']);
    expect(col.definitionLevels).toEqual([3, 2, 2, 0, 1, 3]);
    expect(col.repetitionLevels).toEqual([0, 1, 1, 0, 0, 0]);
  });

  it('gives the levels of a bare repeated leaf', () => {
    const rows: ParquetValue[] = [{ deltas: [1n, -1n] }, { deltas: [] }, null];
    const col = shredParquetColumn([value, deltas], rows);
    expect(col.values).toEqual([1n, -1n, null, null]);
    expect(col.definitionLevels).toEqual([2, 2, 1, 0]);
    expect(col.repetitionLevels).toEqual([0, 1, 0, 0]);
  });

  it('refuses a required node without a value', () => {
    const required: ParquetNode = { name: 'n', repetition: 'REQUIRED', type: 'INT32' };
    expect(() => shredParquetColumn([required], [null])).toThrow('parquet: required n has no value');
  });
});
