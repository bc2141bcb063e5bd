/**
 * The real Flink savepoints in ../shared/flink-savepoints (next to the repository, never copied into
 * it; its README lists them). A test that reads them is declared with NEEDS_SHARED:
 *
 *     describe('golden: …', NEEDS_SHARED, () => { … });
 *
 * so that it is skipped where the folder is absent and, through its tag, counted by the run's last
 * line (tests/helpers/report-shared-skips.ts): "N tests in M files skipped: they read data in ../shared (NEEDS_SHARED), which is absent".
Other ../shared folders (real-savepoints-defects, bench-schemas) use the same tag with their own skip condition.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export const SHARED_SAVEPOINTS = path.resolve(process.cwd(), '../shared/flink-savepoints');
export const sharedSavepointsExist = existsSync(SHARED_SAVEPOINTS);

/** the tag of the tests that read ../shared/flink-savepoints (defined in the vitest configs) */
export const NEEDS_SHARED_TAG = 'needs-shared';

/** options of a describe or it that reads ../shared/flink-savepoints: tagged, and skipped when it is absent */
export const NEEDS_SHARED = { tags: [NEEDS_SHARED_TAG], skip: !sharedSavepointsExist };

/** One of the shared savepoints (a folder or file under ../shared/flink-savepoints). */
export function sharedSavepoint(relative: string): string {
  return path.join(SHARED_SAVEPOINTS, relative);
}
