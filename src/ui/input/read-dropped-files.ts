import type { InputFile } from '../../worker';

/**
 * Files of a drop event, folders walked fully. Must be called synchronously inside the `drop`
 * handler (the entries are captured before the first await). A directory reader returns entries
 * in batches (Chromium: at most 100), so readEntries is called until it returns nothing.
 */
export function readDroppedFiles(dataTransfer: DataTransfer): Promise<InputFile[]> {
  const entries: FileSystemEntry[] = [];
  const plainFiles: File[] = [];
  for (const item of Array.from(dataTransfer.items)) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) plainFiles.push(f);
    }
  }
  if (entries.length === 0 && plainFiles.length === 0) {
    plainFiles.push(...Array.from(dataTransfer.files));
  }
  return (async () => {
    const out: InputFile[] = plainFiles.map((f) => ({ path: f.name, blob: f }));
    for (const e of entries) await walkEntry(e, '', out, 0);
    return out;
  })();
}

const MAX_FOLDER_DEPTH = 64;

async function walkEntry(entry: FileSystemEntry, prefix: string, out: InputFile[], depth: number): Promise<void> {
  const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path, blob: file });
    return;
  }
  if (!entry.isDirectory) return;
  if (depth >= MAX_FOLDER_DEPTH) throw new Error(`folder ${path} is nested deeper than ${MAX_FOLDER_DEPTH} levels`);
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walkEntry(child, path, out, depth + 1);
  }
}
