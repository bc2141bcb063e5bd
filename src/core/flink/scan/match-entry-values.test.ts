import { describe, expect, it } from 'vitest';
import { createEntryValueMatcher } from './match-entry-values';

interface V { id: string; at: number; file?: string }
const v = (id: string, at: number, file?: string): V => ({ id, at, ...(file === undefined ? {} : { file }) });

describe('createEntryValueMatcher', () => {
  it('gives each entry the values in its range of its stream; others before it are passed over, later ones wait', () => {
    const pending: V[] = [v('other-chunk', 5, 'f (Snappy chunk at 9)'), v('a1', 10, 'f'), v('a2', 14, 'f'), v('stale', 12, 'g'), v('b', 20, 'f'), v('c', 30, 'f')];
    const m = createEntryValueMatcher(pending, (x) => x.at, (x) => x.file);
    const take = (file: string, offset: number, length: number) => {
      const got: string[] = [];
      m.take({ file, valueRange: { offset, length } }, (x) => got.push(x.id));
      return got;
    };
    expect(take('f', 10, 8)).toEqual(['a1', 'a2']);
    expect(pending.length).toBe(6); // b and c still wait
    expect(take('f', 20, 5)).toEqual(['b']);
    expect(take('f', 30, 1)).toEqual(['c']);
    expect(pending.length).toBe(0); // drained
  });

  it('an entry without a value range takes every pending value; a value without a file counts as the entry\'s stream', () => {
    const pending: V[] = [v('x', 1), v('y', 2, 'f')];
    const m = createEntryValueMatcher(pending, (x) => x.at, (x) => x.file);
    const got: string[] = [];
    m.take({ file: 'g' }, (x) => got.push(x.id));
    expect(got).toEqual(['x', 'y']);
    pending.push(v('z', 7));
    m.take({ file: 'g', valueRange: { offset: 5, length: 5 } }, (x) => got.push(x.id));
    expect(got).toEqual(['x', 'y', 'z']);
  });

  it('reset forgets what waits; a long backlog is compacted as entries pass it', () => {
    const pending: V[] = Array.from({ length: 5000 }, (_, i) => v(`v${i}`, i, 'f'));
    const m = createEntryValueMatcher(pending, (x) => x.at, (x) => x.file);
    let n = 0;
    m.take({ file: 'f', valueRange: { offset: 0, length: 4500 } }, () => n++);
    expect(n).toBe(4500);
    expect(pending.length).toBe(500); // the 4500 passed values were dropped
    m.take({ file: 'f', valueRange: { offset: 4500, length: 1 } }, () => n++);
    expect(n).toBe(4501);
    m.reset();
    expect(pending.length).toBe(0);
  });
});
