import { DecodeError, describeAbsentFile, type SavepointFiles } from '../../io';

/**
 * A state file a handle names is not in the input, or is not a regular file. The handle is in `_metadata`,
 * so the error is located there, with the handle's logical path (operator / subtask / role), and names the
 * absent file in `missingFile`.
 */
export function createMissingFileError(files: SavepointFiles, what: string, name: string, path: readonly string[]): DecodeError {
  return new DecodeError({
    code: 'missing-file',
    detail: `expected ${what} next to _metadata in ${files.name}, found ${describeAbsentFile(files, name)}`,
    file: files.metadata.name,
    path,
    missingFile: name,
  });
}
