/**
 * Committed data (fixtures/, docs/) is never optional: a test over it fails when it is missing — a
 * fixture moved or renamed — instead of skipping silently. Called at a test file's top level, these
 * throw while the file is collected, so the run reports the file as failed with the missing paths.
 * Only readers of ../shared skip, and are counted, through NEEDS_SHARED (shared-savepoints.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

function relative(p: string): string {
  return path.relative(process.cwd(), p) || p;
}

/** Throws unless every path exists; returns the first, for `const X = requireCommitted(path)`. */
export function requireCommitted(first: string, ...more: string[]): string {
  const missing = [first, ...more].filter((p) => !existsSync(p));
  if (missing.length > 0) {
    throw new Error(
      `committed test data is missing: ${missing.map(relative).join(', ')} (moved or deleted? a test over committed data fails rather than skips)`,
    );
  }
  return first;
}

/** Throws when a listing of committed cases came out empty; returns the list. */
export function requireCommittedCases<T>(what: string, cases: readonly T[]): readonly T[] {
  if (cases.length === 0)
    throw new Error(`committed test data is missing: no ${what} found (moved or deleted? a test over committed data fails rather than skips)`);
  return cases;
}
