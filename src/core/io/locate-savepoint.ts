import { DecodeError } from './decode-error';
import type { InputFile, SkippedEntry } from './input-file';
import { baseNameOf, normalizeEntryPath } from './normalize-entry-path';
import type { SavepointFiles } from './savepoint-files';

const METADATA = '_metadata';
const LISTED = 12;

/**
 * Finds `_metadata` among the files of a folder walk, an archive listing or a drop, and returns the
 * SavepointFiles rooted at its folder. Several candidates → the shallowest wins (ties: first in
 * path order) with a warning; none → DecodeError 'not-recognised' listing what was found. Paths are
 * normalized; entries with '..' or absolute paths are dropped with a warning, and resolveRelative
 * never resolves outside the `_metadata` folder.
 */
export function locateSavepoint(name: string, input: readonly InputFile[], earlierWarnings: readonly string[] = [], skipped: readonly SkippedEntry[] = []): SavepointFiles {
  const warnings = [...earlierWarnings];
  const byPath = new Map<string, InputFile>();
  for (const f of input) {
    const norm = normalizeEntryPath(f.path);
    if (norm.kind === 'rejected') {
      warnings.push(`ignored '${f.path}': ${norm.reason}`);
      continue;
    }
    if (byPath.has(norm.path)) {
      warnings.push(`'${norm.path}' appears twice in ${name}; the first one is used`);
      continue;
    }
    byPath.set(norm.path, { path: norm.path, source: f.source });
  }
  const candidates = [...byPath.keys()].filter((p) => baseNameOf(p) === METADATA).sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
  const chosen = candidates[0];
  if (chosen === undefined) {
    // a _metadata that is there but not a regular file is named as what it is
    const odd = skipped.filter((s) => baseNameOf(s.path) === METADATA).sort((a, b) => depth(a.path) - depth(b.path))[0];
    if (odd) {
      throw new DecodeError({
        code: 'not-recognised',
        detail: `expected the savepoint's _metadata to be a regular file, found ${odd.what}: '${odd.path}' in ${name}`,
        file: name,
        offset: 0,
      });
    }
    const deep = skipped.filter((s) => s.tooDeep === true);
    const notWalked = deep.length === 0 ? '' : `; ${deep.length} folder${deep.length === 1 ? ' lies' : 's lie'} deeper than the walk goes and ${deep.length === 1 ? 'was' : 'were'} not read ('${deep[0]!.path}'): point at the savepoint folder itself`;
    const paths = [...byPath.keys()].sort();
    const shown = paths.slice(0, LISTED).map((p) => `'${p}'`).join(', ');
    const more = paths.length > LISTED ? ` and ${paths.length - LISTED} more` : '';
    throw new DecodeError({
      code: 'not-recognised',
      detail: `expected a savepoint (a file named _metadata) in ${name}, found ${paths.length === 0 ? 'no files' : `${paths.length} file${paths.length === 1 ? '' : 's'}: ${shown}${more}`}${notWalked}`,
      file: name,
      offset: 0,
    });
  }
  if (candidates.length > 1) {
    warnings.push(`found ${candidates.length} _metadata files in ${name}; using '${chosen}' (the shallowest) and ignoring ${candidates.slice(1).map((c) => `'${c}'`).join(', ')}`);
  }
  const dir = chosen.slice(0, chosen.length - METADATA.length);
  const inFolder = new Map<string, InputFile>();
  let outside = 0;
  for (const [p, f] of byPath) {
    if (p.startsWith(dir)) inFolder.set(p.slice(dir.length), f);
    else outside++;
  }
  if (outside > 0) {
    warnings.push(`${outside} file${outside === 1 ? '' : 's'} of ${name} outside the _metadata folder ${dir === '' ? '(the root)' : `'${dir.slice(0, -1)}'`} ${outside === 1 ? 'is' : 'are'} ignored`);
  }
  const unreadable = new Map<string, string>();
  for (const s of skipped) if (s.path.startsWith(dir) && s.tooDeep !== true) unreadable.set(s.path.slice(dir.length), s.what);
  return {
    name,
    ...(unreadable.size > 0 ? { unreadable } : {}),
    metadata: byPath.get(chosen)!.source,
    files: [...inFolder.values()].map((f) => f.source),
    resolveRelative(relativePath: string) {
      const norm = normalizeEntryPath(relativePath);
      return norm.kind === 'ok' ? inFolder.get(norm.path)?.source : undefined;
    },
    warnings,
  };
}

function depth(path: string): number {
  return path.split('/').length;
}
