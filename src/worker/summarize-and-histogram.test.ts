import { describe, expect, it } from 'vitest';
import { buildSizeHistogram } from './build-size-histogram';
import { summarizeDecodedValue } from './summarize-decoded-value';

describe('summarizeDecodedValue', () => {
  it('renders common values as one line', () => {
    expect(
      summarizeDecodedValue({ kind: 'tuple', className: 'org.apache.flink.api.java.tuple.Tuple1', fields: [{ kind: 'long', value: '-9223372036854775808' }] }),
    ).toBe('(-9223372036854775808)');
    expect(summarizeDecodedValue({ kind: 'string', value: 'a"b' })).toBe('"a\\"b"');
    expect(summarizeDecodedValue(null)).toBe('null');
    expect(summarizeDecodedValue(undefined)).toBe('');
    expect(summarizeDecodedValue({ kind: 'list', items: [1, 2, 3, 4, 5, 6].map((value) => ({ kind: 'int', type: 'Int', value })) })).toBe(
      '[1, 2, 3, 4, … 2 more]',
    );
    expect(summarizeDecodedValue({ kind: 'map', entries: [{ key: { kind: 'string', value: 'k' }, value: { kind: 'boolean', value: true } }] })).toBe(
      '{"k": true}',
    );
    expect(summarizeDecodedValue({ kind: 'time-window', start: '0', end: '10' })).toBe('TimeWindow[0, 10)');
    // a Table row: its RowKind and named columns
    expect(
      summarizeDecodedValue({
        kind: 'row',
        rowKind: '+U',
        fields: [
          { name: 'b', type: 'BIGINT NOT NULL', value: { kind: 'long', value: '2' } },
          { name: 'min_c', type: 'VARCHAR(2147483647)', value: { kind: 'string', value: 'Hello' } },
        ],
      }),
    ).toBe('+U(b=2, min_c="Hello")');
  });

  it('cuts long text with an ellipsis at the limit', () => {
    const text = summarizeDecodedValue({ kind: 'string', value: 'x'.repeat(500) }, 20);
    expect(text).toHaveLength(20);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('buildSizeHistogram', () => {
  it('uses power-of-two bins, so that 4096 is a bin edge, and counts each size once', () => {
    const bins = buildSizeHistogram([0, 1, 3, 4095, 4096, 4097, 20000]);
    expect(bins.slice(0, 3)).toEqual([
      { from: 0, to: 1, count: 1 },
      { from: 1, to: 2, count: 1 },
      { from: 2, to: 4, count: 1 },
    ]);
    expect(bins.find((b) => b.to === 4096)).toEqual({ from: 2048, to: 4096, count: 1 });
    expect(bins.find((b) => b.from === 4096)).toEqual({ from: 4096, to: 8192, count: 2 });
    expect(bins.at(-1)).toEqual({ from: 16384, to: 32768, count: 1 });
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(7);
    expect(buildSizeHistogram([])).toEqual([]);
  });
});
