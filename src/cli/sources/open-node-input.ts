import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { openSavepointInput, wrongInput, type ArchiveLimits, type InputFile, type SavepointFiles } from '../../core/io';
import { openNodeHttpFolder, isHttpFolderUrl } from './open-node-http-folder';
import { openNodeHttpSource } from './http-range-source';
import { createNodeRangeFetch } from './node-range-fetch';
import { openNodeFileSource } from './node-file-source';
import { checkRegularFile } from './read-descriptor-set-file';

const MAX_DEPTH = 16;
const MAX_FILES = 200_000;

/**
 * Opens what the user named on the command line: a savepoint folder (walked recursively, files read
 * lazily by range), a `_metadata` file, a .zip/.tar/.tar.gz archive (detected by magic bytes), or an
 * http(s) URL of an archive, or of a savepoint folder (`…/sp-1/`, `…/sp-1/_metadata`, or a URL
 * that is not a file but has a `_metadata` below it) whose state files are fetched lazily by range.
 */
export async function openNodeInput(pathOrUrl: string, options: { limits?: Partial<ArchiveLimits> } = {}): Promise<SavepointFiles> {
  if (/^https?:\/\//i.test(pathOrUrl)) {
    // one bounded fetch for the whole input: a server that timed out is not waited for again
    const fetchFn = createNodeRangeFetch();
    if (isHttpFolderUrl(pathOrUrl)) return openNodeHttpFolder(pathOrUrl, fetchFn);
    let source;
    try {
      source = await openNodeHttpSource(pathOrUrl, pathOrUrl, fetchFn);
    } catch (e) {
      // not a file: maybe a folder URL without the trailing '/'
      const folder = await openNodeHttpFolder(pathOrUrl, fetchFn).catch(() => undefined);
      if (folder) return folder;
      throw e;
    }
    return openSavepointInput({ kind: 'source', source }, options);
  }
  const abs = resolve(pathOrUrl);
  const info = await stat(abs);
  if (info.isDirectory()) {
    const files = await walkFolder(abs);
    return openSavepointInput({ kind: 'files', name: pathOrUrl, files }, options);
  }
  // a FIFO or a device is refused before it is opened (opening a FIFO waits for a writer; a device never ends)
  checkRegularFile(info, pathOrUrl, 'a savepoint folder, a _metadata file or a .zip/.tar/.tar.gz archive');
  return openSavepointInput({ kind: 'source', source: await openNodeFileSource(abs, pathOrUrl) }, options);
}

/** The regular files below a folder, with '/'-separated paths relative to it (symlinks not followed); more than `maxFiles` is a `too-many-files` UsageError. */
export async function walkFolder(root: string, maxFiles = MAX_FILES): Promise<InputFile[]> {
  const out: InputFile[] = [];
  async function walk(dir: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH) return;
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full, depth + 1);
      else if (e.isFile()) {
        if (out.length >= maxFiles) throw wrongInput('too-many-files', `expected a savepoint folder of at most ${maxFiles} files, found ${root} holding more: point at the savepoint folder itself`);
        const rel = relative(root, full).split(sep).join('/');
        out.push({ path: rel, source: await openNodeFileSource(full, join(basename(root), rel).split(sep).join('/')) });
      }
    }
  }
  await walk(root, 0);
  return out;
}
