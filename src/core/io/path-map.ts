/**
 * `--path-map FROM=TO`: absolute state handles name their files by the URI they were written to
 * (`s3://bucket/flink/checkpoints/<job>/shared/<uuid>`, `file:/tmp/ckpt/...`); a savepoint copied or
 * restored elsewhere keeps those names. A mapping replaces the prefix FROM of such a name by TO, so
 * the file is read where it is now (`s3://old/ckpt/=file:///mnt/copy/`, or the reverse). The longest
 * matching FROM wins. Prefixes are compared in one canonical spelling: `s3a://` and `s3p://` as
 * `s3://`, and a local path as `file:/path` whether written `/path`, `file:/path` or `file:///path`.
 * Pure: the mapped name is opened by the platform.
 */
import { wrongInput } from './usage-error';

export interface PathMapping {
  /** the prefix as the user wrote it, and canonical */
  readonly from: string;
  readonly to: string;
}

/** Parses one `FROM=TO` (split at the first '='); both sides must be non-empty. */
export function parsePathMapping(raw: string): PathMapping {
  const at = raw.indexOf('=');
  const from = at < 0 ? '' : raw.slice(0, at);
  const to = at < 0 ? '' : raw.slice(at + 1);
  if (from === '' || to === '')
    throw wrongInput('bad-option', `--path-map expects FROM=TO (e.g. s3://old-bucket/ckpt/=file:///mnt/copy/), found ${raw === '' ? 'nothing' : raw}`);
  return { from, to };
}

/** The canonical spelling of a handle path or prefix, for comparing prefixes. */
export function canonicalHandlePath(path: string): string {
  const s3 = /^s3[ap]?:\/\//i.exec(path);
  if (s3) return `s3://${path.slice(s3[0].length)}`;
  const file = /^file:(\/\/(localhost)?)?(?=\/)/i.exec(path);
  if (file) return `file:${path.slice(file[0].length)}`;
  if (path.startsWith('/')) return `file:${path}`;
  return path;
}

/**
 * `path` with the longest matching mapping's FROM replaced by its TO, or undefined when no mapping
 * applies. A FROM without a trailing '/' matches only whole path segments (`s3://b/ckpt` maps
 * `s3://b/ckpt/x`, not `s3://b/ckpt2/x`).
 */
export function applyPathMap(path: string, mappings: readonly PathMapping[]): string | undefined {
  const canonical = canonicalHandlePath(path);
  let best: { from: string; to: string } | undefined;
  for (const m of mappings) {
    const from = canonicalHandlePath(m.from);
    const matches = canonical === from || (canonical.startsWith(from) && (from.endsWith('/') || canonical[from.length] === '/'));
    if (matches && (best === undefined || from.length > best.from.length)) best = { from, to: m.to };
  }
  if (best === undefined) return undefined;
  const rest = canonical.slice(best.from.length);
  if (rest === '') return best.to;
  return best.to.endsWith('/') || rest.startsWith('/') ? `${best.to}${rest}` : `${best.to}/${rest}`;
}

/** A mapped name that is a local file (`file:/x`, `file:///x`, `/x`) → its local path; undefined otherwise. */
export function localPathOf(mapped: string): string | undefined {
  const canonical = canonicalHandlePath(mapped);
  if (!canonical.startsWith('file:/')) return undefined;
  return canonical.slice('file:'.length);
}
