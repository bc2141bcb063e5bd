import { describe, expect, it } from 'vitest';
import { describeStateKind } from './describe-state-kind';

describe('describeStateKind', () => {
  it('says the scope once, never next to the kind constant that repeats it', () => {
    expect(describeStateKind({ scope: 'broadcast', kind: 'BROADCAST' })).toBe('broadcast');
    expect(describeStateKind({ scope: 'operator', kind: 'OPERATOR_LIST' })).toBe('operator list');
    expect(describeStateKind({ scope: 'operator', kind: 'OPERATOR_UNION' })).toBe('union list');
  });

  it('names keyed kinds in words', () => {
    expect(describeStateKind({ scope: 'keyed', kind: 'VALUE' })).toBe('keyed value');
    expect(describeStateKind({ scope: 'keyed', kind: 'PRIORITY_QUEUE' })).toBe('keyed priority queue');
    expect(describeStateKind({ scope: 'keyed', kind: 'UNKNOWN' })).toBe('keyed state (kind not recorded)');
  });
});
