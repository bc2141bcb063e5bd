/**
 * The S3-compatible server of the object-store tests (tests/object-stores/): Versity's S3 gateway,
 * versitygw (Apache-2.0), which checks request signatures and serves byte ranges. Built from its Go
 * module with `go install` into a cache outside the repository, once per machine, and reused
 * (scripts/ensure-go-tool.ts):
 *
 *   $VERSITYGW_BIN                      a binary to use as it is (no build)
 *   $SAVEPOINT_INSPECTOR_CACHE/versitygw-<version>/versitygw
 *                                       the cache (default ~/.cache/savepoint-inspector)
 *
 * `npx tsx scripts/ensure-versitygw.ts` builds it (.ci/run does, before `npm test`, so that the build does not
 * run beside the test files); the tests' setup calls ensureVersitygw() too, which builds it when missing.
 * Without `go` nothing is built: the path is undefined and the tests say that they are skipped, and why.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureGoTool, findGoTool, goToolCacheDir, type GoTool } from './ensure-go-tool';

export { hasGo } from './ensure-go-tool';

export const VERSITYGW_MODULE = 'github.com/versity/versitygw/cmd/versitygw';
export const VERSITYGW_VERSION = 'v1.8.0';
/** a cold build (module download and compile) took ~12 minutes on a 2-core machine */
const VERSITYGW: GoTool = {
  name: 'versitygw',
  module: VERSITYGW_MODULE,
  version: VERSITYGW_VERSION,
  binary: 'versitygw',
  binEnv: 'VERSITYGW_BIN',
  buildTimeoutMs: 30 * 60 * 1000,
};

type Env = Record<string, string | undefined>;

export const versitygwCacheDir = (env: Env = process.env): string => goToolCacheDir(VERSITYGW, env);
/** The binary, when it is already there (no build). */
export const findVersitygw = (env: Env = process.env): string | undefined => findGoTool(VERSITYGW, env);
/** The versitygw binary: the cached one, or one built now; undefined when there is none and `go` is absent. */
export const ensureVersitygw = (env: Env = process.env, log?: (line: string) => void): Promise<string | undefined> => ensureGoTool(VERSITYGW, env, log);

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bin = await ensureVersitygw();
  if (bin === undefined) console.log('versitygw: not built (no go here); the S3 tests in tests/object-stores/ will say they are skipped');
  else console.log(`versitygw: ${bin}`);
}
