import { DecodeError } from './decode-error';
import { wrongInput } from './usage-error';
import type { InputFile, SkippedEntry } from './input-file';
import { baseNameOf, normalizeEntryPath } from './normalize-entry-path';
import type { SavepointFiles } from './savepoint-files';

const METADATA = '_metadata';
const LISTED = 12;

/**
 * Finds `_metadata` among the files of a folder walk, an archive listing or a drop, and returns the
 * SavepointFiles rooted at its folder. `metadataPath` names which one to read (its path inside the input,
 * with or without the trailing `/_metadata`); else several candidates are ambiguous — a UsageError
 * 'several-savepoints' listing them (as `candidates`), never a silent pick — except a job folder's retained
 * checkpoints (`chk-N/_metadata` side by side, Flink's layout), of which the latest is read with a warning;
 * none → DecodeError 'not-recognised' listing what was found. Paths are normalized; entries with '..' or
 * absolute paths are dropped with a warning, and resolveRelative never resolves outside the `_metadata` folder.
 */
export function locateSavepoint(
  name: string,
  input: readonly InputFile[],
  earlierWarnings: readonly string[] = [],
  skipped: readonly SkippedEntry[] = [],
  metadataPath?: string,
): SavepointFiles {
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
  // by depth; among a job folder's retained checkpoints (chk-N/_metadata side by side), the latest first
  const candidates = [...byPath.keys()]
    .filter((p) => baseNameOf(p) === METADATA)
    .sort((a, b) => depth(a) - depth(b) || checkpointNumber(b) - checkpointNumber(a) || (a < b ? -1 : a > b ? 1 : 0));
  const chosen = metadataPath === undefined || candidates.length === 0 ? candidates[0] : selectCandidate(name, candidates, metadataPath);
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
    const notWalked =
      deep.length === 0
        ? ''
        : `; ${deep.length} folder${deep.length === 1 ? ' lies' : 's lie'} deeper than the walk goes and ${deep.length === 1 ? 'was' : 'were'} not read ('${deep[0]!.path}'): point at the savepoint folder itself`;
    const paths = [...byPath.keys()].sort();
    const shown = paths
      .slice(0, LISTED)
      .map((p) => `'${p}'`)
      .join(', ');
    const more = paths.length > LISTED ? ` and ${paths.length - LISTED} more` : '';
    throw new DecodeError({
      code: 'not-recognised',
      detail: `expected a savepoint (a file named _metadata) in ${name}, found ${paths.length === 0 ? 'no files' : `${paths.length} file${paths.length === 1 ? '' : 's'}: ${shown}${more}`}${notWalked}`,
      file: name,
      offset: 0,
    });
  }
  if (candidates.length > 1 && metadataPath === undefined) {
    if (!areRetainedCheckpoints(candidates)) {
      throw wrongInput(
        'several-savepoints',
        `expected one savepoint in ${name}, found ${candidates.length} _metadata files: ${candidates.map((c) => `'${c}'`).join(', ')}; name the one to read`,
        candidates,
      );
    }
    // a job folder's retained checkpoints (chk-N side by side): the latest
    warnings.push(
      `found ${candidates.length} _metadata files in ${name}; using '${chosen}' (the latest checkpoint) and ignoring ${candidates
        .slice(1)
        .map((c) => `'${c}'`)
        .join(', ')}`,
    );
  }
  const dir = chosen.slice(0, chosen.length - METADATA.length);
  const inFolder = new Map<string, InputFile>();
  let outside = 0;
  for (const [p, f] of byPath) {
    if (p.startsWith(dir)) inFolder.set(p.slice(dir.length), f);
    else outside++;
  }
  if (outside > 0) {
    const where = `${outside} file${outside === 1 ? '' : 's'} of ${name} outside the _metadata folder ${dir === '' ? '(the root)' : `'${dir.slice(0, -1)}'`}`;
    // Flink's checkpoint layout keeps a checkpoint's shared and task-owned files beside its chk-N folder
    const flinkLayout = checkpointNumber(chosen) >= 0 && [...byPath.keys()].some((p) => !p.startsWith(dir) && /(?:^|\/)(?:shared|taskowned)\//.test(p));
    warnings.push(
      flinkLayout
        ? `${where} (Flink's checkpoint layout: shared/, taskowned/) ${outside === 1 ? 'is' : 'are'} read where a handle names ${outside === 1 ? 'it' : 'them'} by absolute path`
        : `${where} ${outside === 1 ? 'is' : 'are'} ignored`,
    );
  }
  // absolute handle paths are matched against every file of the input by their trailing segments
  const byTail = new Map<string, string[]>();
  for (const p of byPath.keys()) {
    const key = tailKey(p.split('/'));
    if (key !== undefined) byTail.set(key, [...(byTail.get(key) ?? []), p]);
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
    resolveAbsolute(absolutePath: string) {
      const segments = absolutePath
        .replace(/^[a-z][a-z0-9+.-]*:/i, '')
        .split(/[/\\]+/)
        .filter((x) => x !== '' && x !== '.');
      const key = tailKey(segments);
      let best: { path: string; matched: number } | undefined;
      for (const p of (key === undefined ? undefined : byTail.get(key)) ?? []) {
        const matched = countTrailingMatches(p.split('/'), segments);
        if (best === undefined || matched > best.matched) best = { path: p, matched };
      }
      return best === undefined ? undefined : { source: byPath.get(best.path)!.source, path: best.path };
    },
    warnings,
  };
}

/** The candidate `metadataPath` names (the `_metadata` path or its folder); a UsageError 'not-found' listing the candidates when none. */
function selectCandidate(name: string, candidates: readonly string[], metadataPath: string): string {
  const norm = normalizeEntryPath(metadataPath.replace(/\/+$/, ''));
  const wanted = norm.kind === 'ok' ? norm.path : metadataPath;
  const found = candidates.find((c) => c === wanted || c === `${wanted}/${METADATA}` || (wanted === '.' || wanted === '' ? c === METADATA : false));
  if (found !== undefined) return found;
  throw wrongInput(
    'not-found',
    `expected a savepoint at '${metadataPath}' in ${name}, found ${candidates.length === 0 ? 'no _metadata file' : `_metadata only at ${candidates.map((c) => `'${c}'`).join(', ')}`}`,
    candidates,
  );
}

/** Every candidate is a `chk-N/_metadata` of one job folder: Flink's retained checkpoints, of which the latest is the one to read. */
function areRetainedCheckpoints(candidates: readonly string[]): boolean {
  const parents = new Set(candidates.map((c) => (checkpointNumber(c) >= 0 ? c.slice(0, c.lastIndexOf('chk-')) : undefined)));
  return parents.size === 1 && !parents.has(undefined);
}

function depth(path: string): number {
  return path.split('/').length;
}

/** N of a `chk-N/_metadata` (Flink's retained checkpoint folders), else -1. */
function checkpointNumber(metadataPath: string): number {
  const m = /(?:^|\/)chk-(\d+)\/_metadata$/.exec(metadataPath);
  return m ? Number(m[1]) : -1;
}

/** A path's last folder and name, the least an absolute handle path must share with an input file; undefined for a bare name. */
function tailKey(segments: readonly string[]): string | undefined {
  return segments.length < 2 ? undefined : `${segments[segments.length - 2]}/${segments[segments.length - 1]}`;
}

function countTrailingMatches(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}
