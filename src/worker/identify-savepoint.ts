/**
 * The identity of an input without reading its state files (cost O(files), not O(bytes)):
 * - savepoint hash: SHA-256 of `metadata <size> <sha256 of _metadata>` and then one line
 *   `<path> <size>` per other file of the opened savepoint, sorted by path (tab-separated). The
 *   listing is the folder's files or the archive's entries, so a folder and an archive of it with
 *   the same paths get the same hash. Flink writes a new `_metadata` (checkpoint id, handles with
 *   file names and sizes) for every savepoint, so a different savepoint has a different `_metadata`.
 * - input hash: SHA-256 of `savepoint <savepoint hash or ->` and then `<path> <size> <sha256>`
 *   per descriptor set (hashed whole: they are small), sorted by path.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { formatHex, readAll, type SavepointFiles } from '../core/io';
import type { InputFileDigest } from './inspector';

export interface SavepointIdentity {
  savepointHash: string;
  /** `_metadata` with its SHA-256, and every other file with path and size only */
  digests: InputFileDigest[];
}

export async function identifySavepoint(savepoint: SavepointFiles): Promise<SavepointIdentity> {
  const metadata = await readAll(savepoint.metadata);
  const metadataSha = formatHex(sha256(metadata));
  const others = savepoint.files
    .filter((f) => f.name !== savepoint.metadata.name)
    .map((f) => ({ path: f.name, size: f.size }))
    .sort((a, b) => compare(a.path, b.path));
  const lines = [`metadata\t${savepoint.metadata.size}\t${metadataSha}`, ...others.map((f) => `${f.path}\t${f.size}`)];
  return {
    savepointHash: hashText(lines.join('\n')),
    digests: [{ path: savepoint.metadata.name, size: savepoint.metadata.size, sha256: metadataSha }, ...others],
  };
}

export function computeInputHash(savepointHash: string | null, descriptorSets: readonly InputFileDigest[]): string {
  const sets = [...descriptorSets].sort((a, b) => compare(a.path, b.path)).map((d) => `${d.path}\t${d.size}\t${d.sha256 ?? ''}`);
  return hashText([`savepoint\t${savepointHash ?? '-'}`, ...sets].join('\n'));
}

function hashText(text: string): string {
  return formatHex(sha256(new TextEncoder().encode(text)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
