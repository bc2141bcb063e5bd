import { DecodeError, describeAbsentFile, type SavepointFiles } from '../../io';

/**
 * A state file a handle names is not in the input, or is not a regular file. The handle is in `_metadata`,
 * so the error is located there: at the byte offset of the path string that names the file (when the
 * handle was read from bytes), with the handle's logical path (operator / subtask / role), and it names
 * the absent file in `missingFile`. A `_metadata` opened alone (the input is the file itself) is said as
 * such: "next to _metadata" once, and that its state files were not given, not that the savepoint is incomplete.
 */
export function createMissingFileError(files: SavepointFiles, what: string, name: string, path: readonly string[], pathOffset?: number): DecodeError {
  const lone = /(^|\/)_metadata$/.test(files.name);
  const absent =
    lone && files.unreadable?.get(name) === undefined
      ? "no such file: only the _metadata file was opened (open the savepoint's folder, or an archive of it, to read its state files)"
      : describeAbsentFile(files, name);
  return new DecodeError({
    code: 'missing-file',
    detail: `expected ${what} next to ${lone ? files.name : `_metadata in ${files.name}`}, found ${absent}`,
    file: files.metadata.name,
    ...(pathOffset === undefined ? {} : { offset: pathOffset }),
    path,
    missingFile: name,
  });
}
