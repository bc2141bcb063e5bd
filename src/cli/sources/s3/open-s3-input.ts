/**
 * Opens an `s3://` (`s3a://`, `s3p://`) URL as a savepoint input, reading only what is needed:
 *
 * - `…/_metadata`, or a prefix holding `_metadata`: the savepoint folder, listed (ListObjectsV2) like a
 *   local folder walk, every file a lazy ranged source with the ETag of the listing pinned;
 * - an object that is not `_metadata`: an archive (.zip/.tar/.tar.gz, read by range) or a lone `_metadata`;
 * - a job's checkpoint directory (`…/<job-id>/`, holding `chk-N/` folders): the latest completed
 *   checkpoint (the highest N whose `_metadata` exists) with the job's `shared/` and `taskowned/`
 *   folders, said through `notice` (stderr); `--metadata chk-N` picks another.
 *
 * Listing bounds the files to MAX_FILES, as the folder walk does. Everything goes through one S3Store
 * (s3-store.ts): its failures are one-line DecodeErrors naming bucket, key, credential source and answer.
 */
import { baseNameOf, DecodeError, formatS3Url, openSavepointInput, parseS3Url, wrongInput, type ArchiveLimits, type InputFile, type SavepointFiles } from '../../../core/io';
import { openS3ObjectSource } from './open-s3-object-source';
import type { S3ObjectInfo, S3Store } from './s3-store';

const MAX_FILES = 200_000;

export interface OpenS3InputOptions {
  limits?: Partial<ArchiveLimits>;
  metadataPath?: string;
  /** told what was chosen and how the store is reached (the CLI writes it to stderr) */
  notice?: (line: string) => void;
  /**
   * The ETags an earlier opening of the same URL listed (a worker thread opening the input again): an
   * object whose ETag differs changed in between, an error rather than a mixed read. Filled with this
   * opening's ETags when given empty.
   */
  pins?: Map<string, string>;
  /** told which checkpoint of a job's checkpoint directory was chosen (`chk-N`), so that a worker opens the same */
  onChosen?: (metadataPath: string) => void;
}

export async function openS3Input(url: string, store: S3Store, options: OpenS3InputOptions = {}): Promise<SavepointFiles> {
  const { bucket, key } = parseS3Url(url);
  const credentials = await store.credentialSource(bucket, key);
  options.notice?.(`reading ${url} from ${store.endpoint}, credentials from ${credentials}`);
  const inputOptions = { ...(options.limits ? { limits: options.limits } : {}), ...(options.metadataPath === undefined ? {} : { metadataPath: options.metadataPath }) };
  if (baseNameOf(key) === '_metadata') {
    if ((await store.head(bucket, key)) === undefined) {
      throw new DecodeError({ code: 'missing-file', file: url, detail: `expected ${url} (bucket ${bucket}, key ${key}; ${store.endpoint}; credentials from ${credentials}), found no such object (404 NoSuchKey)` });
    }
    return openFolder(url, store, bucket, key.slice(0, key.length - '_metadata'.length), inputOptions, options.pins);
  }
  if (key !== '' && !key.endsWith('/')) {
    const object = await store.head(bucket, key);
    if (object !== undefined) {
      checkPin(store, bucket, object, options.pins);
      const source = openS3ObjectSource(store, bucket, key, { known: object, name: url, cacheWhole: baseNameOf(key) === '_metadata' || object.size <= 1024 * 1024 });
      return openSavepointInput({ kind: 'source', source }, inputOptions);
    }
  }
  const prefix = key === '' || key.endsWith('/') ? key : `${key}/`;
  const level = await store.list(bucket, prefix, { delimiter: '/', maxObjects: MAX_FILES });
  if (level.objects.some((o) => o.key === `${prefix}_metadata`)) return openFolder(url, store, bucket, prefix, inputOptions, options.pins);
  const checkpoints = level.prefixes
    .map((p) => ({ prefix: p, n: /^chk-(\d+)\/$/.exec(p.slice(prefix.length))?.[1] }))
    .filter((c): c is { prefix: string; n: string } => c.n !== undefined)
    .sort((a, b) => Number(b.n) - Number(a.n));
  if (checkpoints.length > 0) {
    const chosen = options.metadataPath === undefined ? await latestCompleted(store, bucket, checkpoints) : undefined;
    if (options.metadataPath === undefined && chosen === undefined) {
      throw new DecodeError({ code: 'not-recognised', file: url, detail: `expected a completed checkpoint (chk-N/_metadata) in the job's checkpoint directory ${url}, found ${checkpoints.length} chk-N folder${checkpoints.length === 1 ? '' : 's'} without _metadata (in progress or failed)` });
    }
    const folders = chosen === undefined ? level.prefixes : [chosen.prefix, ...level.prefixes.filter((p) => /^(shared|taskowned)\/$/.test(p.slice(prefix.length)))];
    if (chosen !== undefined) {
      options.onChosen?.(`chk-${chosen.n}`);
      const older = checkpoints.filter((c) => Number(c.n) > Number(chosen.n)).map((c) => `chk-${c.n}`);
      options.notice?.(`using chk-${chosen.n}, the latest completed checkpoint of ${url}${older.length > 0 ? ` (${older.join(', ')} hold${older.length === 1 ? 's' : ''} no _metadata: not completed)` : ''}; --metadata chk-N reads another`);
    }
    const files: InputFile[] = [];
    for (const folder of folders) {
      const listed = await store.list(bucket, folder, { maxObjects: MAX_FILES - files.length + 1 });
      for (const o of listed.objects) files.push(listedFile(store, bucket, prefix, o, options.pins));
      if (files.length > MAX_FILES) throw tooManyFiles(url);
    }
    return openSavepointInput({ kind: 'files', name: url, files }, { ...inputOptions, metadataPath: options.metadataPath ?? `chk-${chosen!.n}` });
  }
  if (level.objects.length === 0 && level.prefixes.length === 0) {
    throw new DecodeError({ code: 'missing-file', file: url, detail: `expected a savepoint folder, a _metadata, an archive or a job's checkpoint directory at ${url} (bucket ${bucket}, key ${key === '' ? '(none)' : key}; ${store.endpoint}; credentials from ${credentials}), found no object with that key or prefix` });
  }
  // something else: a folder of savepoints, or the savepoint deeper down: locate _metadata as a local folder walk does
  return openFolder(url, store, bucket, prefix, inputOptions, options.pins);
}

async function latestCompleted(store: S3Store, bucket: string, checkpoints: readonly { prefix: string; n: string }[]): Promise<{ prefix: string; n: string } | undefined> {
  for (const c of checkpoints) {
    if ((await store.head(bucket, `${c.prefix}_metadata`)) !== undefined) return c;
  }
  return undefined;
}

async function openFolder(url: string, store: S3Store, bucket: string, prefix: string, options: { limits?: Partial<ArchiveLimits>; metadataPath?: string }, pins: Map<string, string> | undefined): Promise<SavepointFiles> {
  const listed = await store.list(bucket, prefix, { maxObjects: MAX_FILES + 1 });
  if (listed.objects.length > MAX_FILES) throw tooManyFiles(url);
  const files = listed.objects.filter((o) => !o.key.endsWith('/')).map((o) => listedFile(store, bucket, prefix, o, pins));
  if (files.length === 0) {
    throw new DecodeError({ code: 'missing-file', file: url, detail: `expected a savepoint folder at ${formatS3Url(bucket, prefix)} (bucket ${bucket}; ${store.endpoint}; credentials from ${await store.credentialSource(bucket, prefix)}), found no object below it` });
  }
  return openSavepointInput({ kind: 'files', name: url, files }, options);
}

/**
 * A listed object as a file of the input: its path relative to the opened prefix, its size and ETag pinned
 * from the listing. It is named as a local folder walk names its files (the folder's name, then the path in
 * it), so that a report over the bucket reads as one over a local copy; a failed read names the whole URL.
 */
function listedFile(store: S3Store, bucket: string, prefix: string, o: S3ObjectInfo, pins: Map<string, string> | undefined): InputFile {
  checkPin(store, bucket, o, pins);
  const path = o.key.slice(prefix.length);
  const folder = prefix.replace(/\/+$/, '').split('/').pop() || bucket;
  return { path, source: openS3ObjectSource(store, bucket, o.key, { known: { size: o.size, etag: o.etag }, name: `${folder}/${path}`, cacheWhole: baseNameOf(o.key) === '_metadata' }) };
}

/** An object listed again (by a worker thread) must have the ETag the first listing pinned. */
function checkPin(store: S3Store, bucket: string, o: S3ObjectInfo, pins: Map<string, string> | undefined): void {
  if (pins === undefined) return;
  const id = formatS3Url(bucket, o.key);
  const pinned = pins.get(id);
  if (pinned === undefined) {
    pins.set(id, o.etag);
    return;
  }
  if (pinned !== o.etag) {
    throw new DecodeError({ code: 'network', file: id, detail: `expected ${id} (bucket ${bucket}, key ${o.key}; ${store.endpoint}) to keep the ETag ${pinned} it had when the command opened it, found ${o.etag}: it changed between reads (a mixed read is never used)` });
  }
}

function tooManyFiles(url: string) {
  return wrongInput('too-many-files', `expected a savepoint folder of at most ${MAX_FILES} objects, found ${url} holding more: point at the savepoint folder itself`);
}
