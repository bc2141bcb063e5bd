/**
 * formatCell: how a Query result's cells read. DuckDB gives sum() of a BIGINT column as HUGEINT, which
 * reaches the page as an Arrow Decimal128 of scale 0; apache-arrow hands such a value over as a typed
 * array whose toJSON quotes it, so the cell read `"\"841861099\""` before.
 */
import { Decimal, Field, Int32, List, Struct, Utf8, makeData, makeVector, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { formatCell, tidyDuckDbMessage } from './run-sql';

function decimals(scale: number, words: number[]) {
  return makeVector(makeData({ type: new Decimal(scale, 38, 128), length: words.length / 4, nullCount: 0, data: new Uint32Array(words) }));
}

describe('formatCell', () => {
  it('writes a HUGEINT sum (Decimal128, scale 0) as its digits', () => {
    const v = decimals(0, [841861099, 0, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);
    expect(formatCell(v.get(0), 0)).toBe('841861099');
    expect(formatCell(v.get(1), 0)).toBe('-1');
  });

  it("places a DECIMAL's point by its scale, for small and negative values too", () => {
    const v = decimals(2, [12345, 0, 0, 0, 5, 0, 0, 0, 0xffffffff - 1233, 0xffffffff, 0xffffffff, 0xffffffff]);
    expect([0, 1, 2].map((i) => formatCell(v.get(i), 2))).toEqual(['123.45', '0.05', '-12.34']);
  });

  it('keeps the other cells as they were: text, numbers, bigint, bytes as hex, nested values as JSON', () => {
    expect(formatCell('a')).toBe('a');
    expect(formatCell(12.5)).toBe('12.5');
    expect(formatCell(9007199254740993n)).toBe('9007199254740993');
    expect(formatCell(new Uint8Array([0, 255]))).toMatch(/^00 ?ff$/);
    expect(formatCell(null)).toBe('');
  });
});

describe('formatCell of nested values', () => {
  it("writes a list of structs (the unknown_fields column) with the struct's field names, not as bare arrays", () => {
    const type = new List(
      new Field('item', new Struct([new Field('path', new Utf8()), new Field('number', new Int32()), new Field('wire_type', new Int32())]), true),
    );
    const v = vectorFromArray([[{ path: '', number: 100, wire_type: 0 }]], type);
    expect(formatCell(v.get(0))).toBe('[{"path":"","number":100,"wire_type":0}]');
  });
});

describe('tidyDuckDbMessage', () => {
  it("says DuckDB's parser error and its pointer once (DuckDB-WASM repeats the pointer block)", () => {
    const raw = 'Parser Error: syntax error at or near "SELEC"\n\nLINE 1: SELEC 1\n        ^\n\nLINE 1: SELEC 1\n        ^';
    expect(tidyDuckDbMessage(raw)).toBe('Parser Error: syntax error at or near "SELEC"\n\nLINE 1: SELEC 1\n        ^');
    expect(tidyDuckDbMessage('Catalog Error: Table with name x does not exist!')).toBe('Catalog Error: Table with name x does not exist!');
  });
});
