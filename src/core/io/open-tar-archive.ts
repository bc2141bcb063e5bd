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
  const cursor: TarCursor = {
    name: tar.name,
    read: (offset, length) => (offset >= tar.size ? Promise.resolve(new Uint8Array(0)) : tar.read(offset, Math.min(length, tar.size - offset))),
  };
  const files = new Map<string, InputFile>();
  const warnings: string[] = [];
  const seen = new Set<string>();
  for await (const item of walkTarMembers(cursor, limits.maxEntries)) {
    const path = acceptTarItem(item, seen, warnings);
    if (path === undefined || item.kind !== 'file') continue;
    files.set(path, { path, source: sliceSource(tar, item.dataOffset, item.size, `${tar.name}!/${path}`) });
  }
  return { kind: 'tar', name: tar.name, files: [...files.values()], warnings };
}

/** Shared by tar and tar.gz: the normalized path of a file member, or undefined (with a warning). */
export function acceptTarItem(item: TarWalkItem, seen: Set<string>, warnings: string[]): string | undefined {
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
  if (seen.has(norm.path)) {
    // tar semantics: a later member replaces an earlier one of the same name
    warnings.push(`tar member '${norm.path}' appears more than once; the last one is used`);
  }
  seen.add(norm.path);
  return norm.path;
}
