import type { InputFile } from '../../worker';

/** Files from an <input type=file> (a folder picker sets webkitRelativePath, a file picker does not). */
export function filesFromList(list: FileList | readonly File[]): InputFile[] {
  return Array.from(list, (file) => ({ path: file.webkitRelativePath || file.name, blob: file }));
}
