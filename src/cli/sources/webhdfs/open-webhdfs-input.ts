/**
 * Opens an `hdfs://` / `webhdfs://` / `swebhdfs://` URL as a savepoint input through WebHDFS, reading
 * only what is needed, as s3/open-s3-input.ts does for S3 (the same choices, over a WebHdfsStore of the
 * S3 store's shape: head, list(prefix), readRange pinned):
 *
 * - `…/_metadata`, or a folder holding `_metadata`: the savepoint folder, listed (LISTSTATUS, folder by
 *   folder) like a local folder walk, every file a lazy ranged source pinned by the listing's status;
 * - a file that is not `_metadata`: an archive (.zip/.tar/.tar.gz, read by range) or a lone `_metadata`;
 * - a job's checkpoint directory (`…/<job-id>/`, holding `chk-N/` folders): the latest completed
 *   checkpoint (the highest N whose `_metadata` exists) with the job's `shared/` and `taskowned/`
 *   folders, said through `notice` (stderr); `--metadata chk-N` picks another.
 *
 * (This repeats the S3 opening's listing choices over another store; issue #29's store-independent
 * opening, once merged, replaces it with that function over the same store.)
 */
import { baseNameOf, DecodeError, openSavepointInput, parseHdfsUrl, wrongInput, type ArchiveLimits, type ByteSource, type InputFile, type SavepointFiles } from '../../../core/io';
import type { HdfsFileInfo, WebHdfsStore } from './webhdfs-store';

const MAX_FILES = 200_000;

export interface OpenWebHdfsInputOptions {
  limits?: Partial<ArchiveLimits>;
  metadataPath?: string;
  notice?: (line: string) => void;
  /** the pins (fileId:length:modificationTime) of an earlier opening of the same URL (a worker thread); filled when given empty */
  pins?: Map<string, string>;
  onChosen?: (metadataPath: string) => void;
}

export async function openWebHdfsInput(url: string, store: WebHdfsStore, options: OpenWebHdfsInputOptions = {}): Promise<SavepointFiles> {
  const { path } = parseHdfsUrl(url);
  options.notice?.(`reading ${url} from ${store.endpoint}, credentials: ${store.credentialSource()}`);
  const inputOptions = { ...(options.limits ? { limits: options.limits } : {}), ...(options.metadataPath === undefined ? {} : { metadataPath: options.metadataPath }) };
  const where = `(${store.endpoint}; ${store.credentialSource()})`;
  const status = path === '/' ? undefined : await store.head(path.replace(/\/+$/, ''));
  if (status === undefined && path !== '/') {
    throw new DecodeError({ code: 'missing-file', file: url, detail: `expected a savepoint folder, a _metadata, an archive or a job's checkpoint directory at ${url} ${where}, found no such file or folder (404 FileNotFoundException)` });
  }
  if (status !== undefined && !status.directory) {
    if (baseNameOf(path) === '_metadata') return openFolder(url, store, path.slice(0, path.length - '_metadata'.length), inputOptions, options.pins);
    checkPin(store, status, options.pins);
    const source = openHdfsFileSource(store, status.key, { known: status, name: url, cacheWhole: status.size <= 1024 * 1024 });
    return openSavepointInput({ kind: 'source', source }, inputOptions);
  }
  const prefix = path.endsWith('/') ? path : `${path}/`;
  const level = await store.list(prefix, { delimiter: '/', maxObjects: MAX_FILES });
  if (level.objects.some((o) => o.key === `${prefix}_metadata`)) return openFolder(url, store, prefix, inputOptions, options.pins);
  const checkpoints = level.prefixes
    .map((p) => ({ prefix: p, n: /^chk-(\d+)\/$/.exec(p.slice(prefix.length))?.[1] }))
    .filter((c): c is { prefix: string; n: string } => c.n !== undefined)
    .sort((a, b) => Number(b.n) - Number(a.n));
  if (checkpoints.length > 0) {
    let chosen: { prefix: string; n: string } | undefined;
    if (options.metadataPath === undefined) {
      for (const c of checkpoints) {
        if ((await store.head(`${c.prefix}_metadata`)) !== undefined) {
          chosen = c;
          break;
        }
      }
      if (chosen === undefined) {
        throw new DecodeError({ code: 'not-recognised', file: url, detail: `expected a completed checkpoint (chk-N/_metadata) in the job's checkpoint directory ${url}, found ${checkpoints.length} chk-N folder${checkpoints.length === 1 ? '' : 's'} without _metadata (in progress or failed)` });
      }
    }
    const folders = chosen === undefined ? level.prefixes : [chosen.prefix, ...level.prefixes.filter((p) => /^(shared|taskowned)\/$/.test(p.slice(prefix.length)))];
    if (chosen !== undefined) {
      options.onChosen?.(`chk-${chosen.n}`);
      const older = checkpoints.filter((c) => Number(c.n) > Number(chosen.n)).map((c) => `chk-${c.n}`);
      options.notice?.(`using chk-${chosen.n}, the latest completed checkpoint of ${url}${older.length > 0 ? ` (${older.join(', ')} hold${older.length === 1 ? 's' : ''} no _metadata: not completed)` : ''}; --metadata chk-N reads another`);
    }
    const files: InputFile[] = [];
    for (const folder of folders) {
      const listed = await store.list(folder, { maxObjects: MAX_FILES - files.length + 1 });
      for (const o of listed.objects) files.push(listedFile(store, prefix, o, options.pins));
      if (files.length > MAX_FILES) throw tooManyFiles(url);
    }
    return openSavepointInput({ kind: 'files', name: url, files }, { ...inputOptions, metadataPath: options.metadataPath ?? `chk-${chosen!.n}` });
  }
  return openFolder(url, store, prefix, inputOptions, options.pins);
}

async function openFolder(url: string, store: WebHdfsStore, prefix: string, options: { limits?: Partial<ArchiveLimits>; metadataPath?: string }, pins: Map<string, string> | undefined): Promise<SavepointFiles> {
  const listed = await store.list(prefix, { maxObjects: MAX_FILES + 1 });
  if (listed.objects.length > MAX_FILES) throw tooManyFiles(url);
  const files = listed.objects.map((o) => listedFile(store, prefix, o, pins));
  if (files.length === 0) {
    throw new DecodeError({ code: 'missing-file', file: url, detail: `expected a savepoint folder at ${store.urlOf(prefix)} (${store.endpoint}; ${store.credentialSource()}), found no file below it` });
  }
  return openSavepointInput({ kind: 'files', name: url, files }, options);
}

/** A listed file of the input, named as a local folder walk names its files; a failed read names the whole URL. */
function listedFile(store: WebHdfsStore, prefix: string, o: HdfsFileInfo, pins: Map<string, string> | undefined): InputFile {
  checkPin(store, o, pins);
  const path = o.key.slice(prefix.length);
  const folder = prefix.replace(/\/+$/, '').split('/').pop() || 'hdfs';
  return { path, source: openHdfsFileSource(store, o.key, { known: o, name: `${folder}/${path}`, cacheWhole: baseNameOf(o.key) === '_metadata' }) };
}

/** A file listed again (by a worker thread) must have the status the first listing pinned. */
function checkPin(store: WebHdfsStore, o: HdfsFileInfo, pins: Map<string, string> | undefined): void {
  if (pins === undefined) return;
  const id = store.urlOf(o.key);
  const pinned = pins.get(id);
  if (pinned === undefined) {
    pins.set(id, o.etag);
    return;
  }
  if (pinned !== o.etag) {
    throw new DecodeError({ code: 'network', file: id, detail: `expected ${id} (${store.endpoint}) to keep the status (fileId:length:modificationTime) ${pinned} it had when the command opened it, found ${o.etag}: it changed between reads (a mixed read is never used)` });
  }
}

/**
 * A ByteSource over one HDFS file: every read is one OPEN for exactly the bytes asked for, checked against
 * the pinned status. `known` gives size and pin when a listing told them; without it (a file an absolute
 * handle names), the first read asks GETFILESTATUS, checks that the file holds at least `declaredSize` bytes
 * and pins it.
 */
export function openHdfsFileSource(store: WebHdfsStore, path: string, init: { known?: { size: number; etag: string }; declaredSize?: number; name?: string; cacheWhole?: boolean }): ByteSource {
  const url = store.urlOf(path);
  const name = init.name ?? url;
  const size = init.known?.size ?? init.declaredSize ?? 0;
  let whole: Promise<Uint8Array> | undefined;
  let pinned: Promise<string> | undefined = init.known === undefined ? undefined : Promise.resolve(init.known.etag);
  const pin = (): Promise<string> => {
    pinned ??= (async () => {
      const info = await store.head(path);
      if (info === undefined) throw new DecodeError({ code: 'missing-file', file: name, detail: `expected ${url} (${store.endpoint}; ${store.credentialSource()}), found no such file (404 FileNotFoundException)` });
      if (info.size < size) throw new DecodeError({ code: 'truncated', file: name, offset: info.size, detail: `expected ${url} to hold the ${size} bytes its state handle records, found ${info.size} bytes` });
      return info.etag;
    })();
    return pinned;
  };
  return {
    name,
    size,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: name, offset });
      }
      const tag = await pin();
      if (length === 0) return new Uint8Array(0);
      if (init.cacheWhole === true && offset === 0 && length === size) {
        return (whole ??= store.readRange(path, 0, size, tag).catch((e: unknown) => {
          whole = undefined;
          throw e;
        }));
      }
      try {
        return await store.readRange(path, offset, length, tag);
      } catch (e) {
        throw e instanceof DecodeError && name !== url ? new DecodeError({ code: e.code, detail: e.detail, file: name, offset, cause: e }) : e;
      }
    },
  };
}

function tooManyFiles(url: string) {
  return wrongInput('too-many-files', `expected a savepoint folder of at most ${MAX_FILES} files, found ${url} holding more: point at the savepoint folder itself`);
}
