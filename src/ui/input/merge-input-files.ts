import { splitInputFiles, type InputFile } from '../../worker';

/**
 * A new drop either brings a savepoint (replaces the savepoint parts), a schema (replaces the
 * descriptor set), or both. Dropping a schema after a savepoint keeps the savepoint, and back.
 */
export function mergeInputFiles(
  current: { savepointFiles: InputFile[]; schemaFiles: InputFile[] },
  added: InputFile[],
): { savepointFiles: InputFile[]; schemaFiles: InputFile[] } {
  const { descriptorSets, savepointFiles } = splitInputFiles(added);
  return {
    savepointFiles: savepointFiles.length > 0 ? savepointFiles : current.savepointFiles,
    schemaFiles: descriptorSets.length > 0 ? descriptorSets : current.schemaFiles,
  };
}
