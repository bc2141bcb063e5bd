/**
 * The GCS emulator of the object-store tests (tests/object-stores/gcs-*.test.ts): fake-gcs-server
 * (github.com/fsouza/fake-gcs-server, BSD-2-Clause), which serves the JSON API with byte ranges and object
 * generations. Built from its Go module with `go install` into a cache outside the repository, once per
 * machine, and reused (scripts/ensure-go-tool.ts):
 *
 *   $FAKE_GCS_SERVER_BIN                a binary to use as it is (no build)
 *   $SAVEPOINT_INSPECTOR_CACHE/fake-gcs-server-<version>/fake-gcs-server
 *                                       the cache (default ~/.cache/savepoint-inspector)
 *
 * `npx tsx scripts/ensure-fake-gcs-server.ts` builds it (.ci/run does, before `npm test`); the tests' setup
 * calls ensureFakeGcsServer() too, which builds it when missing. Without `go` nothing is built: the path is
 * undefined and the tests say that they are skipped, and why.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureGoTool, findGoTool, type GoTool } from './ensure-go-tool';

export { hasGo } from './ensure-go-tool';

export const FAKE_GCS_SERVER_VERSION = 'v1.56.1';
/** a cold build (module download and compile) takes several minutes on a 2-core machine */
const FAKE_GCS_SERVER: GoTool = {
  name: 'fake-gcs-server',
  module: 'github.com/fsouza/fake-gcs-server',
  version: FAKE_GCS_SERVER_VERSION,
  binary: 'fake-gcs-server',
  binEnv: 'FAKE_GCS_SERVER_BIN',
  buildTimeoutMs: 30 * 60 * 1000,
};

type Env = Record<string, string | undefined>;

/** The binary, when it is already there (no build). */
export const findFakeGcsServer = (env: Env = process.env): string | undefined => findGoTool(FAKE_GCS_SERVER, env);
/** The fake-gcs-server binary: the cached one, or one built now; undefined when there is none and `go` is absent. */
export const ensureFakeGcsServer = (env: Env = process.env, log?: (line: string) => void): Promise<string | undefined> =>
  ensureGoTool(FAKE_GCS_SERVER, env, log);

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bin = await ensureFakeGcsServer();
  if (bin === undefined) console.log('fake-gcs-server: not built (no go here); the GCS tests in tests/object-stores/ will say they are skipped');
  else console.log(`fake-gcs-server: ${bin}`);
}
