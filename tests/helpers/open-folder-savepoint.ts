import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { bytesSource, type InputFile, type SavepointFiles } from '../../src/core/io';
import { locateSavepoint } from '../../src/core/io/locate-savepoint';

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
