import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { bytesSource, locateSavepoint, type InputFile, type SavepointFiles } from '../../src/core/io';

/** Root of the shared real savepoints (never copied into the repo). */
export const SHARED_SAVEPOINTS = path.resolve(process.cwd(), '../shared/flink-savepoints');
export const sharedSavepointsExist = existsSync(SHARED_SAVEPOINTS);

/** A SavepointFiles over a folder on disk (test helper; files are small, read whole). */
export function openFolderSavepoint(folder: string): SavepointFiles {
  const files: InputFile[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const r = rel === '' ? name : `${rel}/${name}`;
      if (statSync(full).isDirectory()) walk(full, r);
      else files.push({ path: r, source: bytesSource(r, new Uint8Array(readFileSync(full))) });
    }
  };
  walk(folder, '');
  return locateSavepoint(path.basename(folder), files);
}
