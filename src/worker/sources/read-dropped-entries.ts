import { DecodeError, wrongInput } from '../../core/io';

/** A dropped or picked file with its path relative to what the user dropped (folders keep their tree). */
export interface DroppedFile {
  path: string;
  blob: File;
}

const MAX_DEPTH = 32;
const MAX_FILES = 200_000;

/**
 * Walks a drop (DataTransfer items) with webkitGetAsEntry: folders are read with readEntries,
 * called again and again until it returns an empty batch (Chromium returns at most 100 per call).
 * Must be called synchronously inside the drop handler (the items are only valid there); the
 * entries it grabs first stay valid while the walk is awaited.
 */
export async function readDroppedEntries(items: DataTransferItemList): Promise<DroppedFile[]> {
  const roots: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry();
    if (entry) roots.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  const out: DroppedFile[] = loose.map((f) => ({ path: f.name, blob: f }));
  for (const root of roots) await walkEntry(root, root.name, 0, out);
  return out;
}

/** Walks FileSystemEntry roots (also usable with entries obtained elsewhere). */
export async function walkFileSystemEntries(roots: readonly FileSystemEntry[]): Promise<DroppedFile[]> {
  const out: DroppedFile[] = [];
  for (const root of roots) await walkEntry(root, root.name, 0, out);
  return out;
}

/** Files from <input type="file" webkitdirectory> (webkitRelativePath) or a plain multi-file pick. */
export function readPickedFiles(files: FileList | readonly File[]): DroppedFile[] {
  return Array.from(files, (f) => ({ path: f.webkitRelativePath || f.name, blob: f }));
}

async function walkEntry(entry: FileSystemEntry, path: string, depth: number, out: DroppedFile[]): Promise<void> {
  if (out.length >= MAX_FILES)
    throw wrongInput(
      'too-many-files',
      `expected a savepoint folder of at most ${MAX_FILES} files, found a drop holding more: drop the savepoint folder itself`,
    );
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, (e) => reject(unreadable(path, 'read', e))));
    out.push({ path, blob: file });
    return;
  }
  if (!entry.isDirectory || depth >= MAX_DEPTH) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, (e) => reject(unreadable(path, 'list', e))));
    if (batch.length === 0) break;
    for (const child of batch) await walkEntry(child, `${path}/${child.name}`, depth + 1, out);
  }
}

/** A dropped file or folder the browser will not hand over (moved, deleted or not permitted since the drop): the user's input, told as such. */
function unreadable(path: string, what: 'read' | 'list', e: unknown): DecodeError {
  const reason = typeof e === 'object' && e !== null && 'name' in e && 'message' in e ? `${String(e.name)}: ${String(e.message)}` : String(e);
  return new DecodeError({
    code: 'missing-file',
    file: path,
    detail: `expected to ${what} ${path}, found the browser cannot ${what} it (${reason}); drop it again`,
    cause: e,
  });
}
