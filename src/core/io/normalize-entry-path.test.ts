import { describe, expect, it } from 'vitest';
import { normalizeEntryPath } from './normalize-entry-path';

describe('normalizeEntryPath', () => {
  it('keeps a plain path as it is and normalizes or rejects every other shape', () => {
    const cases: [string, string][] = [
      ['com/acme/Job.class', 'ok com/acme/Job.class'],
      ['.hidden/..dots/x...', 'ok .hidden/..dots/x...'],
      ['a//b', 'ok a/b'],
      ['./a', 'ok a'],
      ['a/./b', 'ok a/b'],
      ['a/', 'ok a'],
      ['a\\b', 'ok a/b'],
      ['../x', "rejected it contains a '..' segment"],
      ['a/..', "rejected it contains a '..' segment"],
      ['/x', 'rejected it is an absolute path'],
      ['C:x', 'rejected it starts with a drive letter'],
      ['a\u0000b', 'rejected it contains a NUL character'],
      ['', 'rejected it is empty'],
      ['.', 'rejected it is empty'],
    ];
    for (const [raw, want] of cases) {
      const got = normalizeEntryPath(raw);
      expect(got.kind === 'ok' ? `ok ${got.path}` : `rejected ${got.reason}`, raw).toBe(want);
    }
  });
});
