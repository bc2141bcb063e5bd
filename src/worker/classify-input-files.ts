import type { ClassifiedFile, InputFile } from './inspector';

const DESCRIPTOR_SET_SUFFIXES = ['.pb', '.binpb', '.desc', '.protoset'];
const ARCHIVE_SUFFIXES = ['.zip', '.tar', '.tar.gz', '.tgz'];

export interface ClassifiedInput {
  files: ClassifiedFile[];
  descriptorSets: InputFile[];
  /** files that make up the savepoint: archives, or `_metadata` and the files of its folder */
  savepointFiles: InputFile[];
  /** display name of the savepoint input */
  savepointName: string | null;
  warnings: string[];
}

/**
 * Splits what the user gave into descriptor sets (by their usual file suffixes) and savepoint
 * parts. Content checks (is `_metadata` really a Flink metadata file, is an archive readable)
 * happen later, when the savepoint is opened.
 */
export function classifyInputFiles(input: readonly InputFile[]): ClassifiedInput {
  const files: ClassifiedFile[] = [];
  const descriptorSets: InputFile[] = [];
  const archives: InputFile[] = [];
  const metadata = input.filter((f) => baseName(f.path) === '_metadata');
  const warnings: string[] = [];
  const folder = metadata.length > 0 ? pickMetadataFolder(metadata, warnings) : null;
  const savepointFiles: InputFile[] = [];

  for (const f of input) {
    const lower = f.path.toLowerCase();
    const size = f.blob.size;
    if (DESCRIPTOR_SET_SUFFIXES.some((s) => lower.endsWith(s))) {
      descriptorSets.push(f);
      files.push({ path: f.path, size, role: 'descriptor-set' });
    } else if (ARCHIVE_SUFFIXES.some((s) => lower.endsWith(s))) {
      archives.push(f);
      files.push({ path: f.path, size, role: 'savepoint-archive' });
    } else if (folder !== null && f.path === joinPath(folder, '_metadata')) {
      savepointFiles.push(f);
      files.push({ path: f.path, size, role: 'savepoint-metadata' });
    } else if (folder !== null && isInside(f.path, folder)) {
      savepointFiles.push(f);
      files.push({ path: f.path, size, role: 'savepoint-file' });
    } else {
      files.push({ path: f.path, size, role: 'ignored', note: ignoredReason(folder) });
    }
  }

  if (archives.length > 0 && folder !== null) {
    warnings.push(`both a savepoint folder and an archive were given; using the folder with ${joinPath(folder, '_metadata')}`);
    for (const a of archives) {
      const row = files.find((r) => r.path === a.path);
      if (row) Object.assign(row, { role: 'ignored', note: 'a savepoint folder was given as well' });
    }
  } else if (archives.length > 1) {
    warnings.push(`${archives.length} archives were given; using ${archives[0].path}`);
    for (const a of archives.slice(1)) {
      const row = files.find((r) => r.path === a.path);
      if (row) Object.assign(row, { role: 'ignored', note: `only one archive is read (${archives[0].path})` });
    }
    savepointFiles.push(archives[0]);
  } else if (archives.length === 1) {
    savepointFiles.push(archives[0]);
  }

  const savepointName =
    folder !== null ? folder || '_metadata' : archives.length > 0 ? archives[0].path : null;
  return { files, descriptorSets, savepointFiles, savepointName, warnings };
}

function pickMetadataFolder(metadata: readonly InputFile[], warnings: string[]): string {
  const folders = metadata.map((m) => dirName(m.path)).sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  if (folders.length > 1) {
    warnings.push(`${folders.length} _metadata files were given; using ${joinPath(folders[0], '_metadata')}`);
  }
  return folders[0];
}

function ignoredReason(folder: string | null): string {
  return folder === null
    ? 'not a savepoint part: no _metadata or archive was given with it'
    : `outside the savepoint folder ${folder || '(top level)'}`;
}

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function joinPath(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

function isInside(path: string, folder: string): boolean {
  return folder === '' ? true : path.startsWith(`${folder}/`);
}
