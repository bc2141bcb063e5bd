// The Node version check bin/savepoint-inspector.mjs runs before anything else: package.json "engines.node"
// (read from the package itself, so the range is written once) against this Node, with a one-line message
// instead of a syntax error or a missing API deep in the bundle. Plain JavaScript that old Node versions parse.
import { readFileSync } from 'node:fs';

/** ">=MAJOR[.MINOR[.PATCH]]", the one form "engines.node" takes here, as [major, minor, patch]. */
export function parseEnginesRange(range) {
  const m = /^\s*>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range);
  if (!m) throw new Error(`package.json "engines.node" must be ">=MAJOR[.MINOR[.PATCH]]", found ${range}`);
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

/** The refusal (one line, no newline) when `version` (process.version, with or without its "v") is below `range`; else undefined. */
export function checkNodeVersion(version, range) {
  const needed = parseEnginesRange(range);
  const have = version
    .replace(/^v/, '')
    .split('.')
    .map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) > needed[i]) return undefined;
    if ((have[i] ?? 0) < needed[i]) {
      const shown = needed[2] === 0 ? `${needed[0]}.${needed[1]}` : needed.join('.');
      return `savepoint-inspector: needs Node.js ${shown} or later (package.json "engines": ${range.trim()}), this is v${version.replace(/^v/, '')}`;
    }
  }
  return undefined;
}

/** The check of this process against the package's package.json (one directory above bin/): exits 2 on a refusal. */
export function requireSupportedNode() {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const refusal = checkNodeVersion(process.version, engines.node);
  if (refusal !== undefined) {
    process.stderr.write(`${refusal}\n`);
    process.exit(2);
  }
}
