import type { ByteSource } from './byte-source';
import { DecodeError } from './decode-error';
import { baseNameOf } from './normalize-entry-path';
import type { SavepointFiles } from './savepoint-files';

export type ResolvedStateFile = { kind: 'found'; source: ByteSource; warning?: string } | { kind: 'missing'; fileName: string };

/**
 * Finds the file a state handle names. Relative handles (code 6) resolve next to `_metadata`;
 * absolute handles (code 2, e.g. `s3://bucket/…/chk-17/<uuid>`) cannot be followed from a copied
 * savepoint, so they resolve by base name next to `_metadata`, with a warning saying so.
 */
export function resolveStateFile(files: SavepointFiles, handlePath: string, kind: 'relative' | 'absolute'): ResolvedStateFile {
  if (kind === 'relative') {
    const source = files.resolveRelative(handlePath);
    return source ? { kind: 'found', source } : { kind: 'missing', fileName: handlePath };
  }
  const base = baseNameOf(handlePath);
  const source = base === '' ? undefined : files.resolveRelative(base);
  if (!source) return { kind: 'missing', fileName: base || handlePath };
  return { kind: 'found', source, warning: `absolute state file path '${handlePath}' resolved by its base name '${base}' next to _metadata` };
}

/** The DecodeError for a state file that is not in the input (reported by name, never a crash). */
export function missingStateFileError(files: SavepointFiles, fileName: string, path: readonly string[] = []): DecodeError {
  return new DecodeError({
    code: 'missing-file',
    detail: `expected state file '${fileName}' next to _metadata in ${files.name}, found no such file: the savepoint is incomplete (copy the whole folder)`,
    // the handle naming the file lives in _metadata
    file: files.metadata.name,
    path,
  });
}
