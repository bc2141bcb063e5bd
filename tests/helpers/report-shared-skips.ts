/**
 * A Vitest reporter (listed after the default one in the vitest configs) that ends the run by saying
 * how many tests were skipped because ../shared data is absent: the tests declared with
 * NEEDS_SHARED (tests/helpers/shared-savepoints.ts), found by their tag. Silent when none was.
 */
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { NEEDS_SHARED_TAG, SHARED_SAVEPOINTS } from './shared-savepoints';

/** The tests of these modules that carry the tag and were skipped, and the files they are in. */
export function countSharedSkips(modules: readonly TestModule[]): { tests: number; files: number } {
  let tests = 0;
  let files = 0;
  for (const module of modules) {
    let inModule = 0;
    for (const test of module.children.allTests('skipped')) if (test.tags.includes(NEEDS_SHARED_TAG)) inModule++;
    tests += inModule;
    if (inModule > 0) files++;
  }
  return { tests, files };
}

export default class ReportSharedSkips implements Reporter {
  onTestRunEnd(modules: readonly TestModule[]): void {
    const { tests, files } = countSharedSkips(modules);
    if (tests === 0) return;
    process.stdout.write(
      `\n${tests} test${tests === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} skipped: they read data in ${path.dirname(SHARED_SAVEPOINTS)} (NEEDS_SHARED), which is absent\n`,
    );
  }
}
