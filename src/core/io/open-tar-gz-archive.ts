import { bytesSource, type ByteSource } from './byte-source';
import { DecodeError } from './decode-error';
import { resolveArchiveLimits, type ArchiveLimits, type ArchiveListing, type InputFile } from './input-file';
import { openGunzipCursor } from './open-gunzip-cursor';
import { acceptTarItem } from './open-tar-archive';
import { walkTarMembers } from './walk-tar-members';

/**
 * Lists a .tar.gz/.tgz. Gzip has no random access, so this makes one streaming pass (fflate
 * Gunzip, bomb limits enforced) over the whole archive and, as members go by, keeps their bytes in
 * memory while the running total stays within `limits.maxBufferedBytes`. Members past that budget
 * are not kept: their ByteSource re-gunzips the archive from the start up to the requested range on
 * every read (memory stays bounded; such reads cost a pass over the archive prefix). A savepoint's
 * `_metadata` and state headers therefore stay cheap as long as the archive fits the budget;
 * for larger savepoints, a zip or a folder is the faster input.
 */
export async function openTarGzArchive(gz: ByteSource, limitsIn?: Partial<ArchiveLimits>): Promise<ArchiveListing> {
  const limits = resolveArchiveLimits(limitsIn);
  const cursor = openGunzipCursor(gz, limits);
  const files = new Map<string, InputFile>();
  const warnings: string[] = [];
  const seen = new Map<string, number>();
  let kept = 0;
  let spilled = 0;
  const head = await cursor.read(0, 512);
  if (head.length >= 262 && String.fromCharCode(...head.subarray(257, 262)) !== 'ustar') {
    const metadata = head[0] === 0x49 && head[1] === 0x60 && head[2] === 0x67 && head[3] === 0x2d;
    throw new DecodeError({
      code: 'wrong-file-kind',
      file: gz.name,
      detail: metadata
        ? 'This is a gzip-compressed _metadata file, not a .tar.gz: gunzip it first, or archive the savepoint folder as .zip/.tar/.tar.gz'
        : 'expected a .tar.gz (a tar archive inside the gzip stream), found gzip-compressed data that is not a tar archive',
    });
  }
  for await (const item of walkTarMembers(cursor, limits.maxEntries)) {
    const path = acceptTarItem(item, seen, warnings);
    if (path === undefined || item.kind !== 'file') continue;
    const name = `${gz.name}!/${path}`;
    if (item.size > limits.maxEntryBytes) {
      // offsets of a .tar.gz are those of its uncompressed tar stream, as the walker's own errors give them
      throw new DecodeError({
        code: 'limit-exceeded',
        detail: `tar member '${path}' declares ${item.size} bytes, above the limit of ${limits.maxEntryBytes} bytes per entry`,
        file: gz.name,
        offset: item.headerOffset + 124,
      });
    }
    if (kept + item.size <= limits.maxBufferedBytes) {
      const data = await cursor.read(item.dataOffset, item.size);
      if (data.length < item.size) {
        throw new DecodeError({
          code: 'truncated',
          detail: `expected ${item.size} bytes of tar member '${path}', found ${data.length}: the archive is truncated`,
          file: gz.name,
          offset: item.dataOffset + data.length,
        });
      }
      kept += item.size;
      files.set(path, { path, source: bytesSource(name, data) });
    } else {
      spilled++;
      files.set(path, { path, source: openReplayedMemberSource(gz, limits, name, item.dataOffset, item.size) });
    }
  }
  // the rest of the stream (tar padding, more members): inflated and dropped, so every member's trailer is checked
  await cursor.finish();
  if (spilled > 0) {
    warnings.push(
      `${gz.name} holds more than ${limits.maxBufferedBytes} bytes; ${spilled} member(s) are re-read from the start of the gzip stream on demand (slow): extract the archive or use a zip for large savepoints`,
    );
  }
  return { kind: 'tar.gz', name: gz.name, files: [...files.values()], warnings };
}

function openReplayedMemberSource(gz: ByteSource, limits: ArchiveLimits, name: string, dataOffset: number, size: number): ByteSource {
  return {
    name,
    size,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: name, offset });
      }
      const bytes = await openGunzipCursor(gz, limits).read(dataOffset + offset, length);
      if (bytes.length < length) {
        throw new DecodeError({
          code: 'truncated',
          detail: `expected ${length} bytes at offset ${offset}, found the archive ends after ${bytes.length}`,
          file: name,
          offset,
        });
      }
      return bytes;
    },
  };
}
