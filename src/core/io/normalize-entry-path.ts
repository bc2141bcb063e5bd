/**
 * Normalizes a path found inside an archive or a dropped folder to a '/'-separated relative path.
 * Such paths are only ever used as keys, never as paths on disk; still, entries that try to leave
 * the archive root (`..` segments) or claim an absolute location are rejected so that nothing can
 * resolve outside the input.
 */
export type NormalizedPath = { kind: 'ok'; path: string } | { kind: 'rejected'; reason: string };

export function normalizeEntryPath(raw: string): NormalizedPath {
  if (isPlainPath(raw)) return { kind: 'ok', path: raw };
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

/**
 * Already normal (the common case, tens of thousands of times per jar): no '\\' or NUL, no leading
 * '/' or drive letter, no empty, '.' or '..' segment. A trailing '/' is an empty segment, so not plain.
 */
function isPlainPath(raw: string): boolean {
  if (raw.length === 0 || (raw.length >= 2 && raw.charCodeAt(1) === 0x3a)) return false;
  let segmentStart = 0;
  for (let i = 0; i <= raw.length; i++) {
    const c = i < raw.length ? raw.charCodeAt(i) : 0x2f;
    if (c === 0x5c || c === 0) return false;
    if (c !== 0x2f) continue;
    const len = i - segmentStart;
    if (len === 0) return false;
    if (raw.charCodeAt(segmentStart) === 0x2e && (len === 1 || (len === 2 && raw.charCodeAt(segmentStart + 1) === 0x2e))) return false;
    segmentStart = i + 1;
  }
  return true;
}

/** The last segment of a '/'-, '\\'- or URI-separated path. */
export function baseNameOf(path: string): string {
  const cleaned = path
    .replace(/\\/g, '/')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
  const i = cleaned.lastIndexOf('/');
  return i < 0 ? cleaned : cleaned.slice(i + 1);
}
