import { describe, expect, it } from 'vitest';
import { openSavepointInput, readAll } from '../../core/io';
import { toInputFiles } from './blob-source';
import { readPickedFiles, walkFileSystemEntries } from './read-dropped-entries';

/** Minimal FileSystemEntry fakes: directories hand out children in batches, as Chromium does (100 max). */
function fileEntry(name: string, content: string): FileSystemEntry {
  const f = new File([content], name);
  return { name, isFile: true, isDirectory: false, file: (ok: (f: File) => void) => ok(f) } as unknown as FileSystemEntry;
}
function dirEntry(name: string, children: FileSystemEntry[], batch = 2): FileSystemEntry & { calls: number } {
  const entry = {
    name,
    isFile: false,
    isDirectory: true,
    calls: 0,
    createReader() {
      let at = 0;
      return {
        readEntries(ok: (e: FileSystemEntry[]) => void) {
          entry.calls++;
          const part = children.slice(at, at + batch);
          at += part.length;
          queueMicrotask(() => ok(part));
        },
      };
    },
  };
  return entry as unknown as FileSystemEntry & { calls: number };
}

describe('walkFileSystemEntries', () => {
  it('reads every batch until readEntries returns an empty array, keeping relative paths', async () => {
    const sub = dirEntry('sub', [fileEntry('x', 'x')]);
    const root = dirEntry('savepoint-1', [fileEntry('_metadata', 'm'), fileEntry('a', 'a'), fileEntry('b', 'b'), fileEntry('c', 'c'), sub]);
    const files = await walkFileSystemEntries([root]);
    expect(files.map((f) => f.path)).toEqual(['savepoint-1/_metadata', 'savepoint-1/a', 'savepoint-1/b', 'savepoint-1/c', 'savepoint-1/sub/x']);
    expect(root.calls).toBe(4); // 2 + 2 + 1 entries, then the empty batch
    const sp = await openSavepointInput({ kind: 'files', name: 'drop', files: toInputFiles(files) });
    expect(sp.metadata.name).toBe('savepoint-1/_metadata');
    expect(new TextDecoder().decode(await readAll(sp.resolveRelative('sub/x')!))).toBe('x');
  });

  it('webkitdirectory picks use webkitRelativePath', () => {
    const f = new File(['m'], '_metadata');
    Object.defineProperty(f, 'webkitRelativePath', { value: 'sp/_metadata' });
    const g = new File(['s'], 'single');
    expect(readPickedFiles([f, g]).map((d) => d.path)).toEqual(['sp/_metadata', 'single']);
  });
});
