/**
 * Normalizes a path found inside an archive or a dropped folder to a '/'-separated relative path.
 * Such paths are only ever used as keys, never as paths on disk; still, entries that try to leave
 * the archive root (`..` segments) or claim an absolute location are rejected so that nothing can
 * resolve outside the input.
 */
export type NormalizedPath = { kind: 'ok'; path: string } | { kind: 'rejected'; reason: string };

export function normalizeEntryPath(raw: string): NormalizedPath {
  const unified = raw.replace(/\\/g, '/');
  if (unified.includes('\u0000')) return { kind: 'rejected', reason: 'it contains a NUL character' };
  if (unified.startsWith('/')) return { kind: 'rejected', reason: 'it is an absolute path' };
  if (/^[A-Za-z]:/.test(unified)) return { kind: 'rejected', reason: 'it starts with a drive letter' };
  const parts: string[] = [];
  for (const seg of unified.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return { kind: 'rejected', reason: "it contains a '..' segment" };
    parts.push(seg);
  }
  if (parts.length === 0) return { kind: 'rejected', reason: 'it is empty' };
  return { kind: 'ok', path: parts.join('/') };
}

/** The last segment of a '/'-, '\\'- or URI-separated path. */
export function baseNameOf(path: string): string {
  const cleaned = path.replace(/\\/g, '/').replace(/[?#].*$/, '').replace(/\/+$/, '');
  const i = cleaned.lastIndexOf('/');
  return i < 0 ? cleaned : cleaned.slice(i + 1);
}
