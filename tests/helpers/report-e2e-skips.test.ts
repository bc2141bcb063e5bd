import { describe, expect, it } from 'vitest';
import { summarizeE2eSkips } from './report-e2e-skips';

describe('summarizeE2eSkips', () => {
  it('says nothing when no e2e test was skipped', () => {
    expect(summarizeE2eSkips([])).toBe('');
  });
  it('counts the skipped tests, their files, and each reason', () => {
    const shared = 'the shared savepoints (../shared/flink-savepoints) are not on this machine';
    expect(
      summarizeE2eSkips([
        { file: 'e2e/load-savepoint.spec.ts', reason: shared },
        { file: 'e2e/load-savepoint.spec.ts', reason: shared },
        { file: 'e2e/decode-error.spec.ts', reason: shared },
        { file: 'e2e/table-rows.spec.ts', reason: 'needs ../shared/real-savepoints-defects' },
      ]),
    ).toBe(`\n4 e2e tests in 3 files skipped:\n  3 × ${shared}\n  1 × needs ../shared/real-savepoints-defects\n`);
    expect(summarizeE2eSkips([{ file: 'e2e/a.spec.ts', reason: 'r' }])).toBe('\n1 e2e test in 1 file skipped:\n  1 × r\n');
  });
});
