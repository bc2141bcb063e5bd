// Whether a prebuilt bundle may run instead of the TypeScript sources: it exists and no source file
// it was built from (listed in <distDir>/inputs.json by bin/build-cli.mjs, relative to rootDir, or in
// the list named by `inputsName`: compare-inputs.json for the compare bundle) is newer than it or gone. Used by bin/savepoint-inspector.mjs; a stale bundle is never run.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** @returns {'fresh' | 'not-built' | 'stale'} */
export function checkBundleFreshness(bundleFile, distDir, rootDir, inputsName = 'inputs.json') {
  let builtAt;
  let sources;
  try {
    builtAt = statSync(bundleFile).mtimeMs;
    sources = JSON.parse(readFileSync(path.join(distDir, inputsName), 'utf8')).sources;
  } catch {
    return 'not-built';
  }
  if (!Array.isArray(sources)) return 'not-built';
  // ~300 stats on every start: the root joined once, no exception per missing file
  const prefix = rootDir.endsWith(path.sep) ? rootDir : `${rootDir}${path.sep}`;
  for (const source of sources) {
    const modified = statSync(`${prefix}${source}`, { throwIfNoEntry: false });
    if (modified === undefined) return 'stale'; // removed or renamed since the build
    if (modified.mtimeMs > builtAt) return 'stale';
  }
  return 'fresh';
}
