import { DecodeError, describeAbsentFile, type SavepointFiles } from '../../io';

/** The name of the absent file each `missing-file` error is about (the error itself is located in `_metadata`). */
const missingFileNames = new WeakMap<DecodeError, string>();

/**
 * A state file a handle names is not in the input, or is not a regular file. The handle is in `_metadata`,
 * so the error is located there, with the handle's logical path (operator / subtask / role).
 */
export function createMissingFileError(files: SavepointFiles, what: string, name: string, path: readonly string[]): DecodeError {
  const e = new DecodeError({
    code: 'missing-file',
    detail: `expected ${what} next to _metadata in ${files.name}, found ${describeAbsentFile(files, name)}`,
    file: files.metadata.name,
    path,
  });
  missingFileNames.set(e, name);
  return e;
}

export function missingFileNameOf(e: DecodeError): string | undefined {
  return missingFileNames.get(e);
}
