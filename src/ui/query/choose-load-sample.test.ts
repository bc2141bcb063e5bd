import { describe, expect, it } from 'vitest';
import { chooseLoadSample, QUERY_LOAD_LIMIT_BYTES } from './choose-load-sample';

describe('chooseLoadSample', () => {
  it('loads up to the limit whole', () => {
    expect(chooseLoadSample(1024 ** 3)).toBeUndefined();
    expect(chooseLoadSample(QUERY_LOAD_LIMIT_BYTES)).toBeUndefined();
  });
  it('above it, every n-th key group with the smallest n that fits', () => {
    expect(chooseLoadSample(QUERY_LOAD_LIMIT_BYTES + 1)).toEqual({ kind: 'key-groups', every: 2 });
    expect(chooseLoadSample(20 * 1024 ** 3)).toEqual({ kind: 'key-groups', every: 10 });
    expect(chooseLoadSample(21 * 1024 ** 3)).toEqual({ kind: 'key-groups', every: 11 });
  });
});
