import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import {
  openSavepointInput,
  parsePathMapping,
  unsupportedStoreError,
  wrongInput,
  type ArchiveLimits,
  type InputFile,
  type SavepointFiles,
  type SkippedEntry,
} from '../../core/io';
import { createObjectStores, type ObjectStores } from './object-stores';
import { openObjectStoreInput } from './open-object-store-input';
import { readAbsoluteHandles } from './read-absolute-handles';
import { openNodeHttpFolder, isHttpFolderUrl } from './open-node-http-folder';
import { openNodeHttpSource } from './http-range-source';
import { createNodeRangeFetch } from './node-range-fetch';
import { openNodeFileSource } from './node-file-source';
import { checkRegularFile, describeFileKind } from './read-descriptor-set-file';

const MAX_DEPTH = 16;
const MAX_FILES = 200_000;

/** How a savepoint input is opened: what `--metadata` and `--path-map` say, and where notices go. */
export interface NodeInputOptions {
  limits?: Partial<ArchiveLimits>;
  /** `--metadata`: which `_metadata` of an input holding several */
  metadataPath?: string;
  /** `--path-map FROM=TO`, each as written (read-absolute-handles.ts) */
  pathMap?: readonly string[];
  /** told how an object store is reached and what was chosen (the commands write it to stderr) */
  notice?: (line: string) => void;
  /** an object store's ETags pinned by the first opening (reopenOptions), for a worker thread opening the input again */
  pins?: Record<string, string>;
}

/** What a worker thread needs to open the same input again: serializable, no callbacks. */
export interface ReopenOptions {
  metadataPath?: string;
  pathMap?: string[];
  pins?: Record<string, string>;
}

const reopening = new WeakMap<SavepointFiles, ReopenOptions>();
const reached = new WeakMap<SavepointFiles, { endpoint: string; credentials: string }>();

/** How an object-store input was reached: the store's endpoint and the credential source used (undefined for local files and http(s)). */
export function storeReachedBy(files: SavepointFiles): { endpoint: string; credentials: string } | undefined {
  return reached.get(files);
}

/**
 * The options under which a worker thread opens `files`' input again and reads the same bytes: the same
 * `--metadata` and `--path-map`, the checkpoint of a job's directory that was chosen, and the ETags of the
 * object-store listing (an object changed in between is an error in the worker, not a mixed read).
 */
export function reopenOptions(files: SavepointFiles, options: Pick<NodeInputOptions, 'metadataPath' | 'pathMap'>): ReopenOptions {
  const known = reopening.get(files);
  const metadataPath = known?.metadataPath ?? options.metadataPath;
  return {
    ...(metadataPath === undefined ? {} : { metadataPath }),
    ...(options.pathMap && options.pathMap.length > 0 ? { pathMap: [...options.pathMap] } : {}),
    ...(known?.pins ? { pins: known.pins } : {}),
  };
}

/**
 * Opens what the user named on the command line: a savepoint folder (walked recursively, files read
 * lazily by range), a `_metadata` file, a .zip/.tar/.tar.gz archive (detected by magic bytes), an
 * http(s) URL of an archive, or of a savepoint folder (`…/sp-1/`, `…/sp-1/_metadata`, or a URL
 * that is not a file but has a `_metadata` below it) whose state files are fetched lazily by range, or
 * an `s3://` (`s3a://`, `s3p://`), Azure (`abfs://`, `abfss://`, `wasb://`, `wasbs://`) or HDFS (`hdfs://`,
 * `webhdfs://`, `swebhdfs://`, through WebHDFS) URL of any of these or of a job's checkpoint directory (open-object-store-input.ts, through object-stores.ts).
 * Absolute handles are then read where they point, through `--path-map` (read-absolute-handles.ts).
 */
export async function openNodeInput(pathOrUrl: string, options: NodeInputOptions = {}): Promise<SavepointFiles> {
  const pathMap = (options.pathMap ?? []).map(parsePathMapping);
  const stores = createObjectStores({ input: pathOrUrl });
  const record: ReopenOptions & { store?: { endpoint: string; credentials: string } } = {};
  const files = await openInput(pathOrUrl, options, stores, record);
  const opened = readAbsoluteHandles(files, pathMap, stores);
  reopening.set(opened, record);
  if (record.store !== undefined) reached.set(opened, record.store);
  return opened;
}

async function openInput(
  pathOrUrl: string,
  options: NodeInputOptions,
  stores: ObjectStores,
  record: ReopenOptions & { store?: { endpoint: string; credentials: string } },
): Promise<SavepointFiles> {
  const unsupported = unsupportedStoreError(pathOrUrl);
  if (unsupported) throw unsupported;
  const at = stores.locate(pathOrUrl);
  if (at !== undefined) {
    const pins = new Map(Object.entries(options.pins ?? {}));
    const bucket = await at.bucket();
    const files = await openObjectStoreInput(pathOrUrl, bucket, at.key, {
      ...inputOptions(options),
      ...(options.notice ? { notice: options.notice } : {}),
      pins,
      onChosen: (metadataPath) => (record.metadataPath = metadataPath),
    });
    record.pins = Object.fromEntries(pins);
    // the credential source was resolved (once) before the first request: asking again sends nothing
    record.store = { endpoint: bucket.endpoint, credentials: await bucket.credentialSource(at.key) };
    return files;
  }
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
    return openSavepointInput({ kind: 'source', source }, inputOptions(options));
  }
  const abs = resolve(pathOrUrl);
  const info = await stat(abs);
  if (info.isDirectory()) {
    const skipped: SkippedEntry[] = [];
    const files = await walkFolder(abs, MAX_FILES, skipped);
    return openSavepointInput({ kind: 'files', name: pathOrUrl, files, skipped }, inputOptions(options));
  }
  // a FIFO or a device is refused before it is opened (opening a FIFO waits for a writer; a device never ends)
  checkRegularFile(info, pathOrUrl, 'a savepoint folder, a _metadata file or a .zip/.tar/.tar.gz archive');
  return openSavepointInput({ kind: 'source', source: await openNodeFileSource(abs, pathOrUrl) }, inputOptions(options));
}

function inputOptions(options: NodeInputOptions): { limits?: Partial<ArchiveLimits>; metadataPath?: string } {
  return { ...(options.limits ? { limits: options.limits } : {}), ...(options.metadataPath === undefined ? {} : { metadataPath: options.metadataPath }) };
}

/**
 * The regular files below a folder, with '/'-separated paths relative to it, down to MAX_DEPTH levels;
 * more than `maxFiles` is a `too-many-files` UsageError. A link to a regular file counts as that file;
 * links to folders are not followed (no cycles). Every other entry — a FIFO, a device, a socket, a link to
 * one of these or to a folder, a folder below the depth limit — goes to `skipped` with what it is, so that
 * messages can name it.
 */
export async function walkFolder(root: string, maxFiles = MAX_FILES, skipped: SkippedEntry[] = []): Promise<InputFile[]> {
  const out: InputFile[] = [];
  const relativePath = (full: string): string => relative(root, full).split(sep).join('/');
  async function walk(dir: string, depth: number): Promise<void> {
    if (depth > MAX_DEPTH) {
      skipped.push({ path: relativePath(dir), what: `a folder more than ${MAX_DEPTH} levels deep (not walked)`, tooDeep: true });
      return;
    }
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const full = join(dir, e.name);
      let isFile = e.isFile();
      if (e.isDirectory()) {
        // a folder named _metadata is walked like any other, and named if no _metadata file turns up
        if (e.name === '_metadata') skipped.push({ path: relativePath(full), what: 'a folder' });
        await walk(full, depth + 1);
        continue;
      }
      if (e.isSymbolicLink()) {
        const target = await stat(full).catch(() => undefined);
        if (target?.isFile()) isFile = true;
        else {
          skipped.push({ path: relativePath(full), what: target === undefined ? 'a broken symbolic link' : `a symbolic link to ${describeFileKind(target)}` });
          continue;
        }
      }
      if (!isFile) {
        const info = await stat(full).catch(() => undefined);
        skipped.push({ path: relativePath(full), what: info ? describeFileKind(info) : 'an entry that cannot be read' });
        continue;
      }
      if (out.length >= maxFiles)
        throw wrongInput(
          'too-many-files',
          `expected a savepoint folder of at most ${maxFiles} files, found ${root} holding more: point at the savepoint folder itself`,
        );
      const rel = relativePath(full);
      out.push({ path: rel, source: await openNodeFileSource(full, join(basename(root), rel).split(sep).join('/')) });
    }
  }
  await walk(root, 0);
  return out;
}
