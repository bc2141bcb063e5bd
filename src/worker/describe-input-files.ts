import type { SavepointFiles } from '../core/io';
import type { ClassifiedFile, InputFile } from './inspector';

/** What each given file was taken for, once the savepoint is open. */
export function describeInputFiles(input: readonly InputFile[], savepoint: SavepointFiles | null, schema: InputFile | null): ClassifiedFile[] {
  const used = new Set(savepoint?.files.map((f) => f.name) ?? []);
  return input.map((f): ClassifiedFile => {
    const size = f.blob.size;
    if (f === schema) return { path: f.path, size, role: 'descriptor-set' };
    if (savepoint && f.path === savepoint.metadata.name) return { path: f.path, size, role: 'savepoint-metadata' };
    if (used.has(f.path)) return { path: f.path, size, role: 'savepoint-file' };
    if (savepoint && f.path === savepoint.name) return { path: f.path, size, role: 'savepoint-archive' };
    return { path: f.path, size, role: 'ignored' };
  });
}
