/**
 * Opens an object-store URL (`s3://`, `abfss://`, `gs://`, …) as a savepoint input, reading only what is
 * needed, the same for every store (object-store.ts is what a store provides):
 *
 * - `…/_metadata`, or a prefix holding `_metadata`: the savepoint folder, listed like a local folder walk,
 *   every file a lazy ranged source with the version (ETag, generation) of the listing pinned;
 * - an object that is not `_metadata`: an archive (.zip/.tar/.tar.gz, read by range) or a lone `_metadata`;
 * - a job's checkpoint directory (`…/<job-id>/`, holding `chk-N/` folders): the latest completed
 *   checkpoint (the highest N whose `_metadata` exists) with the job's `shared/` and `taskowned/`
 *   folders, said through `notice` (stderr); `--metadata chk-N` picks another.
 *
 * Listing bounds the files to MAX_FILES, as the folder walk does. The bucket's failures are one-line
 * DecodeErrors naming bucket, key, credential source and answer.
 */
import { baseNameOf, DecodeError, openSavepointInput, wrongInput, type ArchiveLimits, type InputFile, type SavepointFiles } from '../../core/io';
import type { ObjectBucket, StoredObjectInfo } from './object-store';
import { objectIn } from './object-store';
import { openPinnedObjectSource } from './open-pinned-object-source';

const MAX_FILES = 200_000;

export interface OpenObjectStoreInputOptions {
  limits?: Partial<ArchiveLimits>;
  metadataPath?: string;
  /** told what was chosen and how the store is reached (the CLI writes it to stderr) */
  notice?: (line: string) => void;
  /**
   * The pins (ETags, generations) an earlier opening of the same URL listed (a worker thread opening the
   * input again): an object whose pin differs changed in between, an error rather than a mixed read.
   * Filled with this opening's pins when given empty.
   */
  pins?: Map<string, string>;
  /** told which checkpoint of a job's checkpoint directory was chosen (`chk-N`), so that a worker opens the same */
  onChosen?: (metadataPath: string) => void;
}

/** Opens `url`, which names `key` (possibly '', or ending in '/') in `bucket`. */
export async function openObjectStoreInput(url: string, bucket: ObjectBucket, key: string, options: OpenObjectStoreInputOptions = {}): Promise<SavepointFiles> {
  const words = bucket.words;
  const credentials = await bucket.credentialSource(key);
  options.notice?.(`reading ${url} from ${bucket.endpoint}, credentials from ${credentials}`);
  const inputOptions = {
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.metadataPath === undefined ? {} : { metadataPath: options.metadataPath }),
  };
  if (baseNameOf(key) === '_metadata') {
    if ((await bucket.head(key)) === undefined) {
      throw new DecodeError({ code: 'missing-file', file: url, detail: `expected ${url} (${bucket.where(key, credentials)}), found ${words.missing}` });
    }
    return openFolder(url, bucket, key.slice(0, key.length - '_metadata'.length), inputOptions, options.pins);
  }
  if (key !== '' && !key.endsWith('/')) {
    const object = await bucket.head(key);
    if (object !== undefined) {
      checkPin(bucket, object, options.pins);
      const source = openPinnedObjectSource(objectIn(bucket, key), { known: object, name: url, cacheWhole: object.size <= 1024 * 1024 });
      return openSavepointInput({ kind: 'source', source }, inputOptions);
    }
  }
  const prefix = key === '' || key.endsWith('/') ? key : `${key}/`;
  const level = await bucket.list(prefix, { delimiter: '/', maxObjects: MAX_FILES });
  if (level.objects.some((o) => o.key === `${prefix}_metadata`)) return openFolder(url, bucket, prefix, inputOptions, options.pins);
  const checkpoints = level.prefixes
    .map((p) => ({ prefix: p, n: /^chk-(\d+)\/$/.exec(p.slice(prefix.length))?.[1] }))
    .filter((c): c is { prefix: string; n: string } => c.n !== undefined)
    .sort((a, b) => Number(b.n) - Number(a.n));
  if (checkpoints.length > 0) {
    const chosen = options.metadataPath === undefined ? await latestCompleted(bucket, checkpoints) : undefined;
    if (options.metadataPath === undefined && chosen === undefined) {
      throw new DecodeError({
        code: 'not-recognised',
        file: url,
        detail: `expected a completed checkpoint (chk-N/_metadata) in the job's checkpoint directory ${url}, found ${checkpoints.length} chk-N folder${checkpoints.length === 1 ? '' : 's'} without _metadata (in progress or failed)`,
      });
    }
    const folders =
      chosen === undefined ? level.prefixes : [chosen.prefix, ...level.prefixes.filter((p) => /^(shared|taskowned)\/$/.test(p.slice(prefix.length)))];
    if (chosen !== undefined) {
      options.onChosen?.(`chk-${chosen.n}`);
      const older = checkpoints.filter((c) => Number(c.n) > Number(chosen.n)).map((c) => `chk-${c.n}`);
      options.notice?.(
        `using chk-${chosen.n}, the latest completed checkpoint of ${url}${older.length > 0 ? ` (${older.join(', ')} hold${older.length === 1 ? 's' : ''} no _metadata: not completed)` : ''}; --metadata chk-N reads another`,
      );
    }
    const files: InputFile[] = [];
    for (const folder of folders) {
      const listed = await bucket.list(folder, { maxObjects: MAX_FILES - files.length + 1 });
      for (const o of listed.objects) files.push(listedFile(bucket, prefix, o, options.pins));
      if (files.length > MAX_FILES) throw tooManyFiles(url, words.object);
    }
    return openSavepointInput({ kind: 'files', name: url, files }, { ...inputOptions, metadataPath: options.metadataPath ?? `chk-${chosen!.n}` });
  }
  if (level.objects.length === 0 && level.prefixes.length === 0) {
    throw new DecodeError({
      code: 'missing-file',
      file: url,
      detail: `expected a savepoint folder, a _metadata, an archive or a job's checkpoint directory at ${url} (${bucket.where(key, credentials)}), found no ${words.object} with that ${words.key} or prefix`,
    });
  }
  // something else: a folder of savepoints, or the savepoint deeper down: locate _metadata as a local folder walk does
  return openFolder(url, bucket, prefix, inputOptions, options.pins);
}

async function latestCompleted(
  bucket: ObjectBucket,
  checkpoints: readonly { prefix: string; n: string }[],
): Promise<{ prefix: string; n: string } | undefined> {
  for (const c of checkpoints) {
    if ((await bucket.head(`${c.prefix}_metadata`)) !== undefined) return c;
  }
  return undefined;
}

async function openFolder(
  url: string,
  bucket: ObjectBucket,
  prefix: string,
  options: { limits?: Partial<ArchiveLimits>; metadataPath?: string },
  pins: Map<string, string> | undefined,
): Promise<SavepointFiles> {
  const listed = await bucket.list(prefix, { maxObjects: MAX_FILES + 1 });
  if (listed.objects.length > MAX_FILES) throw tooManyFiles(url, bucket.words.object);
  const files = listed.objects.filter((o) => !o.key.endsWith('/')).map((o) => listedFile(bucket, prefix, o, pins));
  if (files.length === 0) {
    throw new DecodeError({
      code: 'missing-file',
      file: url,
      detail: `expected a savepoint folder at ${bucket.urlOf(prefix)} (${bucket.where(prefix, await bucket.credentialSource(prefix), 'folder')}), found no ${bucket.words.object} below it`,
    });
  }
  return openSavepointInput({ kind: 'files', name: url, files }, options);
}

/**
 * A listed object as a file of the input: its path relative to the opened prefix, its size and pin
 * from the listing. It is named as a local folder walk names its files (the folder's name, then the path in
 * it), so that a report over the bucket reads as one over a local copy; a failed read names the whole URL.
 */
function listedFile(bucket: ObjectBucket, prefix: string, o: StoredObjectInfo, pins: Map<string, string> | undefined): InputFile {
  checkPin(bucket, o, pins);
  const path = o.key.slice(prefix.length);
  const folder = prefix.replace(/\/+$/, '').split('/').pop() || bucket.name;
  return {
    path,
    source: openPinnedObjectSource(objectIn(bucket, o.key), { known: o, name: `${folder}/${path}`, cacheWhole: baseNameOf(o.key) === '_metadata' }),
  };
}

/** An object listed again (by a worker thread) must have the pin the first listing pinned. */
function checkPin(bucket: ObjectBucket, o: StoredObjectInfo, pins: Map<string, string> | undefined): void {
  if (pins === undefined) return;
  const id = bucket.urlOf(o.key);
  const pinned = pins.get(id);
  if (pinned === undefined) {
    pins.set(id, o.pin);
    return;
  }
  if (pinned !== o.pin) {
    throw new DecodeError({
      code: 'network',
      file: id,
      detail: `expected ${id} (${bucket.where(o.key)}) to keep the ${bucket.words.pin} ${pinned} it had when the command opened it, found ${o.pin}: it changed between reads (a mixed read is never used)`,
    });
  }
}

function tooManyFiles(url: string, object: string) {
  return wrongInput(
    'too-many-files',
    `expected a savepoint folder of at most ${MAX_FILES} ${object}s, found ${url} holding more: point at the savepoint folder itself`,
  );
}
