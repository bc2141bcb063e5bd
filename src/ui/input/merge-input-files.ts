import { classifyInputFiles, type InputFile } from '../../worker';

/**
 * A new drop either brings a savepoint (replaces the savepoint parts), a schema (replaces the
 * descriptor set), or both. Dropping a schema after a savepoint keeps the savepoint, and back.
 */
export function mergeInputFiles(
  current: { savepointFiles: InputFile[]; schemaFiles: InputFile[] },
  added: InputFile[],
): { savepointFiles: InputFile[]; schemaFiles: InputFile[] } {
  const c = classifyInputFiles(added);
  const schemaPaths = new Set(c.descriptorSets.map((f) => f.path));
  const bringsSavepoint = c.savepointFiles.length > 0 || c.descriptorSets.length === 0;
  return {
    savepointFiles: bringsSavepoint ? added.filter((f) => !schemaPaths.has(f.path)) : current.savepointFiles,
    schemaFiles: c.descriptorSets.length > 0 ? c.descriptorSets : current.schemaFiles,
  };
}
