import { Table, Utf8, tableFromIPC, tableToIPC, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { regroupIpcStreams, splitIpcStreams } from '../../bench/duckdb-ingest';

/** Two IPC streams of one schema, concatenated as the Arrow export writes them (one per row group). */
function concatenatedStreams(): Uint8Array {
  // plain Utf8 (no dictionary), as the export writes its strings
  const table = (keyGroups: number[], keys: string[]) =>
    new Table({ key_group: vectorFromArray(Int32Array.from(keyGroups)), key: vectorFromArray(keys, new Utf8()) });
  const a = tableToIPC(table([1, 2, 3], ['a', 'b', 'c']), 'stream');
  const b = tableToIPC(table([4, 5], ['d', 'e']), 'stream');
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** the rows of one IPC stream (tableFromIPC reads the first stream of its input) */
const rowsOf = (bytes: Uint8Array) =>
  tableFromIPC(bytes)
    .toArray()
    .map((r: { key_group: number; key: string }) => `${r.key_group}:${r.key}`);

describe('bench/duckdb-ingest: the export file split into its IPC streams and joined again', () => {
  it('finds each stream, its schema message and its record batches', () => {
    const streams = splitIpcStreams(concatenatedStreams());
    expect(streams).toHaveLength(2);
    expect(streams.map((s) => s.batches.length)).toEqual([1, 1]);
  });

  it('joins streams into one stream per insert with the same rows, in order', () => {
    const streams = splitIpcStreams(concatenatedStreams());
    const one = regroupIpcStreams(streams, 1);
    expect(one.ranges).toHaveLength(2);
    expect(one.ranges.flatMap(([s, e]) => rowsOf(one.data.subarray(s, e)))).toEqual(['1:a', '2:b', '3:c', '4:d', '5:e']);
    const joined = regroupIpcStreams(streams, 2);
    expect(joined.ranges).toEqual([[0, joined.data.length]]);
    // one stream: both record batches under one schema
    expect(tableFromIPC(joined.data).batches.map((b) => b.numRows)).toEqual([3, 2]);
    expect(rowsOf(joined.data)).toEqual(['1:a', '2:b', '3:c', '4:d', '5:e']);
  });

  it('says where a file is not a concatenation of IPC streams', () => {
    const bytes = concatenatedStreams();
    expect(() => splitIpcStreams(bytes.subarray(0, bytes.length - 8))).toThrow('expected an end-of-stream marker at the end of the file');
    const broken = bytes.slice();
    broken[0] = 0;
    expect(() => splitIpcStreams(broken)).toThrow('expected an IPC continuation marker at byte 0');
  });
});
