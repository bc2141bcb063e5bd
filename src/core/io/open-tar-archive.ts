import type { ByteSource } from './byte-source';
import { resolveArchiveLimits, type ArchiveLimits, type ArchiveListing, type InputFile } from './input-file';
import { normalizeEntryPath } from './normalize-entry-path';
import { sliceSource } from './slice-source';
import { walkTarMembers, type TarCursor, type TarWalkItem } from './walk-tar-members';

/**
 * Lists a plain tar over a ByteSource, reading only the 512-byte headers (and long-name/pax
 * records); every member becomes a range ByteSource `<tar>!/<path>` into the tar (no copy).
 */
export async function openTarArchive(tar: ByteSource, limitsIn?: Partial<ArchiveLimits>): Promise<ArchiveListing> {
  const limits = resolveArchiveLimits(limitsIn);
  const cursor = createReadAheadCursor(tar);
  const files = new Map<string, InputFile>();
  const warnings: string[] = [];
  const seen = new Map<string, number>();
  for await (const item of walkTarMembers(cursor, limits.maxEntries)) {
    const path = acceptTarItem(item, seen, warnings);
    if (path === undefined || item.kind !== 'file') continue;
    files.set(path, { path, source: sliceSource(tar, item.dataOffset, item.size, `${tar.name}!/${path}`) });
  }
  return { kind: 'tar', name: tar.name, files: [...files.values()], warnings };
}

/** The most a header read fetches ahead (see createReadAheadCursor). */
export const MAX_TAR_READ_AHEAD = 1024 * 1024;

/**
 * The walk's reads (headers and long-name/pax records, in increasing offsets) through a buffer: a
 * read that starts inside or just past the previous one's bytes doubles the read-ahead (up to
 * MAX_TAR_READ_AHEAD), one that jumps further (past a large member's data) starts again at one
 * header. So 100,000 small members cost a few hundred reads (one Range request each over HTTP)
 * instead of one per member, and an archive of large members fetches little more than its headers.
 */
function createReadAheadCursor(tar: ByteSource): TarCursor {
  let start = 0;
  let buffer: Uint8Array | undefined;
  let ahead = 512;
  return {
    name: tar.name,
    async read(offset, length) {
      if (offset >= tar.size) return new Uint8Array(0);
      const want = Math.min(length, tar.size - offset);
      if (buffer !== undefined) {
        const end = start + buffer.length;
        if (offset >= start && offset + want <= end) return buffer.subarray(offset - start, offset - start + want);
        ahead = offset >= start && offset <= end + ahead ? Math.min(ahead * 2, MAX_TAR_READ_AHEAD) : 512;
      }
      const take = Math.min(Math.max(want, ahead), tar.size - offset);
      buffer = await tar.read(offset, take);
      start = offset;
      return buffer.subarray(0, want);
    },
  };
}

/** Shared by tar and tar.gz: the normalized path of a file member, or undefined (with a warning). */
export function acceptTarItem(item: TarWalkItem, seen: Map<string, number>, warnings: string[]): string | undefined {
  if (item.kind === 'warning') {
    warnings.push(item.message);
    return undefined;
  }
  if (item.kind === 'skipped') {
    warnings.push(`ignored tar member '${item.rawPath}': ${item.reason}`);
    return undefined;
  }
  const norm = normalizeEntryPath(item.rawPath);
  if (norm.kind === 'rejected') {
    warnings.push(`ignored tar member '${item.rawPath}': ${norm.reason}`);
    return undefined;
  }
  const times = (seen.get(norm.path) ?? 0) + 1;
  // tar semantics: a later member replaces an earlier one of the same name (said once per name)
  if (times === 2) warnings.push(`tar member '${norm.path}' appears more than once; the last one is used`);
  seen.set(norm.path, times);
  return norm.path;
}
