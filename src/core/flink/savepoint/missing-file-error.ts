import { DecodeError, describeAbsentFile, type SavepointFiles } from '../../io';

/**
 * A state file a handle names is not in the input, or is not a regular file. The handle is in `_metadata`,
 * so the error is located there: at the byte offset of the path string that names the file (when the
 * handle was read from bytes), with the handle's logical path (operator / subtask / role), and it names
 * the absent file in `missingFile`.
 */
export function createMissingFileError(files: SavepointFiles, what: string, name: string, path: readonly string[], pathOffset?: number): DecodeError {
  return new DecodeError({
    code: 'missing-file',
    detail: `expected ${what} next to _metadata in ${files.name}, found ${describeAbsentFile(files, name)}`,
    file: files.metadata.name,
    ...(pathOffset === undefined ? {} : { offset: pathOffset }),
    path,
    missingFile: name,
  });
}
