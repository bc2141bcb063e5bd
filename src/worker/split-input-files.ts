import type { InputFile } from './inspector';

/** the new schema: a descriptor set, or the new job's jar (its generated classes embed the descriptors) */
const DESCRIPTOR_SET_SUFFIXES = ['.pb', '.binpb', '.desc', '.protoset', '.jar'];

function isDescriptorSetName(path: string): boolean {
  const lower = path.toLowerCase();
  return DESCRIPTOR_SET_SUFFIXES.some((s) => lower.endsWith(s));
}

/**
 * Splits what the user gave into the new schema (descriptor sets and job jars, by their usual suffixes) and the
 * savepoint candidates (everything else: a folder's files, an archive, a lone `_metadata`). What
 * the candidates really are is decided by content when the savepoint is opened.
 */
export function splitInputFiles(input: readonly InputFile[]): { descriptorSets: InputFile[]; savepointFiles: InputFile[] } {
  const descriptorSets: InputFile[] = [];
  const savepointFiles: InputFile[] = [];
  for (const f of input) (isDescriptorSetName(f.path) ? descriptorSets : savepointFiles).push(f);
  return { descriptorSets, savepointFiles };
}

/** Display name of a savepoint input: the common top folder of a drop, or the single file's name. */
export function nameSavepointInput(files: readonly InputFile[]): string {
  if (files.length === 1) {
    // a folder holding only `_metadata` is named after the folder, any other single file after itself
    const only = files[0].path;
    return only.endsWith('/_metadata') ? only.slice(0, only.indexOf('/')) : only;
  }
  const tops = new Set(files.map((f) => (f.path.includes('/') ? f.path.slice(0, f.path.indexOf('/')) : '')));
  const [only] = tops;
  return tops.size === 1 && only !== '' ? only : 'dropped files';
}
