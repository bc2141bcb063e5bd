import type { OpenedSession } from '../../worker';

/**
 * Up to this many bytes of state files, the app reads values without being asked: the value
 * warnings of the check, and a state's statistics in the State view. A larger savepoint shows its
 * header-only verdict and headers, and reads values only when the user asks (Scan values) or opens
 * a statistics view (Values, Unknown fields, Aliasing memory).
 */
export const AUTO_SCAN_BYTES = 32 * 1024 * 1024;

/** Bytes of the savepoint's files (descriptor sets not counted). */
export function measureSavepointBytes(session: OpenedSession | null): number {
  if (session === null) return 0;
  const schemas = new Set(session.files.filter((f) => f.role === 'descriptor-set').map((f) => f.path));
  return session.digests.reduce((n, d) => (schemas.has(d.path) ? n : n + d.size), 0);
}
