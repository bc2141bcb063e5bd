/**
 * Opens an Azure URL (`abfs://`, `abfss://`, `wasb://`, `wasbs://`) as a savepoint input, reading only
 * what is needed, as s3/open-s3-input.ts does for S3:
 *
 * - `…/_metadata`, or a prefix holding `_metadata`: the savepoint folder, listed by prefix like a local
 *   folder walk, every file a lazy ranged source with the ETag of the listing pinned;
 * - a blob that is not `_metadata`: an archive (.zip/.tar/.tar.gz, read by range) or a lone `_metadata`;
 * - a job's checkpoint directory (`…/<job-id>/`, holding `chk-N/` folders): the latest completed
 *   checkpoint (the highest N whose `_metadata` exists) with the job's `shared/` and `taskowned/`
 *   folders, said through `notice` (stderr); `--metadata chk-N` picks another.
 *
 * Everything goes through one AzureStore (azure-store.ts): its failures are one-line DecodeErrors naming
 * container, blob, account, credential source and answer.
 */
import { baseNameOf, DecodeError, formatAzureUrl, openSavepointInput, parseAzureUrl, wrongInput, type ArchiveLimits, type InputFile, type SavepointFiles } from '../../../core/io';
import { azureWhere } from './describe-azure-failure';
import { openAzureObjectSource } from './open-azure-object-source';
import type { AzureAt, AzureBlobInfo, AzureStore } from './azure-store';

const MAX_FILES = 200_000;

export interface OpenAzureInputOptions {
  limits?: Partial<ArchiveLimits>;
  metadataPath?: string;
  /** told what was chosen and how the store is reached (the CLI writes it to stderr) */
  notice?: (line: string) => void;
  /** the ETags an earlier opening of the same URL listed (a worker thread opening it again); filled when given empty */
  pins?: Map<string, string>;
  /** told which checkpoint of a job's checkpoint directory was chosen (`chk-N`), so that a worker opens the same */
  onChosen?: (metadataPath: string) => void;
}

export async function openAzureInput(url: string, store: AzureStore, options: OpenAzureInputOptions = {}): Promise<SavepointFiles> {
  const at = parseAzureUrl(url);
  const blob = at.blob;
  const credentials = await store.credentialSource(at, blob);
  options.notice?.(`reading ${url} from ${store.endpoint}, credentials from ${credentials}`);
  const inputOptions = { ...(options.limits ? { limits: options.limits } : {}), ...(options.metadataPath === undefined ? {} : { metadataPath: options.metadataPath }) };
  if (baseNameOf(blob) === '_metadata') {
    if ((await store.head(at, blob)) === undefined) {
      throw new DecodeError({ code: 'missing-file', file: url, detail: `expected ${url} (${azureWhere(at, blob, store.endpoint, credentials)}), found no such blob (404 BlobNotFound)` });
    }
    return openFolder(url, store, at, blob.slice(0, blob.length - '_metadata'.length), inputOptions, options.pins);
  }
  if (blob !== '' && !blob.endsWith('/')) {
    const object = await store.head(at, blob);
    if (object !== undefined) {
      checkPin(store, at, object, options.pins);
      const source = openAzureObjectSource(store, at, blob, { known: object, name: url, cacheWhole: object.size <= 1024 * 1024 });
      return openSavepointInput({ kind: 'source', source }, inputOptions);
    }
  }
  const prefix = blob === '' || blob.endsWith('/') ? blob : `${blob}/`;
  const level = await store.list(at, prefix, { delimiter: '/', maxObjects: MAX_FILES });
  if (level.blobs.some((o) => o.blob === `${prefix}_metadata`)) return openFolder(url, store, at, prefix, inputOptions, options.pins);
  const checkpoints = level.prefixes
    .map((p) => ({ prefix: p, n: /^chk-(\d+)\/$/.exec(p.slice(prefix.length))?.[1] }))
    .filter((c): c is { prefix: string; n: string } => c.n !== undefined)
    .sort((a, b) => Number(b.n) - Number(a.n));
  if (checkpoints.length > 0) {
    const chosen = options.metadataPath === undefined ? await latestCompleted(store, at, checkpoints) : undefined;
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
      const listed = await store.list(at, folder, { maxObjects: MAX_FILES - files.length + 1 });
      for (const o of listed.blobs) files.push(listedFile(store, at, prefix, o, options.pins));
      if (files.length > MAX_FILES) throw tooManyFiles(url);
    }
    return openSavepointInput({ kind: 'files', name: url, files }, { ...inputOptions, metadataPath: options.metadataPath ?? `chk-${chosen!.n}` });
  }
  if (level.blobs.length === 0 && level.prefixes.length === 0) {
    throw new DecodeError({ code: 'missing-file', file: url, detail: `expected a savepoint folder, a _metadata, an archive or a job's checkpoint directory at ${url} (${azureWhere(at, blob, store.endpoint, credentials)}), found no blob with that name or prefix` });
  }
  // something else: a folder of savepoints, or the savepoint deeper down: locate _metadata as a local folder walk does
  return openFolder(url, store, at, prefix, inputOptions, options.pins);
}

async function latestCompleted(store: AzureStore, at: AzureAt, checkpoints: readonly { prefix: string; n: string }[]): Promise<{ prefix: string; n: string } | undefined> {
  for (const c of checkpoints) {
    if ((await store.head(at, `${c.prefix}_metadata`)) !== undefined) return c;
  }
  return undefined;
}

async function openFolder(url: string, store: AzureStore, at: AzureAt, prefix: string, options: { limits?: Partial<ArchiveLimits>; metadataPath?: string }, pins: Map<string, string> | undefined): Promise<SavepointFiles> {
  const listed = await store.list(at, prefix, { maxObjects: MAX_FILES + 1 });
  if (listed.blobs.length > MAX_FILES) throw tooManyFiles(url);
  const files = listed.blobs.filter((o) => !o.blob.endsWith('/')).map((o) => listedFile(store, at, prefix, o, pins));
  if (files.length === 0) {
    throw new DecodeError({ code: 'missing-file', file: url, detail: `expected a savepoint folder at ${formatAzureUrl(at, prefix)} (${azureWhere(at, prefix, store.endpoint, await store.credentialSource(at, prefix))}), found no blob below it` });
  }
  return openSavepointInput({ kind: 'files', name: url, files }, options);
}

/**
 * A listed blob as a file of the input: its path relative to the opened prefix, its size and ETag pinned
 * from the listing, named as a local folder walk names its files (the folder's name, then the path in it).
 */
function listedFile(store: AzureStore, at: AzureAt, prefix: string, o: AzureBlobInfo, pins: Map<string, string> | undefined): InputFile {
  checkPin(store, at, o, pins);
  const path = o.blob.slice(prefix.length);
  const folder = prefix.replace(/\/+$/, '').split('/').pop() || at.container;
  return { path, source: openAzureObjectSource(store, at, o.blob, { known: { size: o.size, etag: o.etag }, name: `${folder}/${path}`, cacheWhole: baseNameOf(o.blob) === '_metadata' }) };
}

/** A blob listed again (by a worker thread) must have the ETag the first listing pinned. */
function checkPin(store: AzureStore, at: AzureAt, o: AzureBlobInfo, pins: Map<string, string> | undefined): void {
  if (pins === undefined) return;
  const id = formatAzureUrl(at, o.blob);
  const pinned = pins.get(id);
  if (pinned === undefined) {
    pins.set(id, o.etag);
    return;
  }
  if (pinned !== o.etag) {
    throw new DecodeError({ code: 'network', file: id, detail: `expected ${id} (${azureWhere(at, o.blob, store.endpoint)}) to keep the ETag ${pinned} it had when the command opened it, found ${o.etag}: it changed between reads (a mixed read is never used)` });
  }
}

function tooManyFiles(url: string) {
  return wrongInput('too-many-files', `expected a savepoint folder of at most ${MAX_FILES} blobs, found ${url} holding more: point at the savepoint folder itself`);
}
