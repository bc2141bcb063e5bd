import { describe, expect, it } from 'vitest';
import { editDistance, suggestName } from './suggest-name';

describe('suggestName: did you mean', () => {
  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('chekc', 'check')).toBe(1);
    expect(editDistance('inspetc', 'inspect')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('dump', 'dump')).toBe(0);
  });

  it('suggests the closest command within reach, or a name the typed one starts', () => {
    const commands = ['inspect', 'dump', 'check', 'compare', 'export-schema', 'export', 'stats', 'completion'];
    expect(suggestName('chekc', commands)).toBe('check');
    expect(suggestName('chk', commands)).toBe('check');
    expect(suggestName('exprot', commands)).toBe('export');
    expect(suggestName('export-schem', commands)).toBe('export-schema');
    expect(suggestName('frobnicate', commands)).toBeUndefined();
    expect(suggestName('--form', ['--format', '--output'])).toBe('--format');
    expect(suggestName('--ouput', ['--format', '--output'])).toBe('--output');
    expect(suggestName('--zzz', ['--format', '--output'])).toBeUndefined();
  });
});
