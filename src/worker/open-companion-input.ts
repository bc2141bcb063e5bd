/**
 * A savepoint in an object store (s3://, abfss://, wasbs://, … — what the CLI reads), read through the
 * local companion (`savepoint-inspector serve`, src/cli/commands/companion-api.ts), which holds this
 * machine's cloud credentials; the browser never does. The companion opens the URL as the CLI does and
 * answers with a manifest (core/io/companion-protocol.ts): the opening's files by number, and how the core
 * resolved every path a handle names. This builds the same SavepointFiles from it: every file a ByteSource
 * whose reads are POSTs of exactly the range asked for, so the core above reads as it reads a local folder.
 *
 * The companion is the page's own origin (the app `serve` serves): its token comes from the page
 * (src/ui/input/companion.ts) and goes only in the Authorization header of requests to that origin.
 */
import {
  COMPANION_OPEN_PATH,
  COMPANION_READ_PATH,
  DecodeError,
  wrongInput,
  type ByteSource,
  type CompanionErrorBody,
  type CompanionManifest,
  type SavepointFiles,
} from '../core/io';

/** Where the companion answers and its token: known to the app `serve` serves, absent elsewhere. */
export interface CompanionAccess {
  readonly origin: string;
  readonly token: string;
}

/** The one line the app shows for an object-store URL when no companion serves it. */
export function describeCompanionNeeded(url: string): string {
  const scheme = /^([a-z0-9]+):\/\//i.exec(url)?.[1]?.toLowerCase() ?? 'object-store';
  return `${scheme}:// URLs are read through the local companion, which reads the store with this machine's credentials: run \`npx savepoint-inspector serve\` and open the URL it prints`;
}

const stores = new WeakMap<SavepointFiles, NonNullable<CompanionManifest['store']>>();

/** How the companion reached the store of an input it opened: endpoint and credential source (undefined for any other input). */
export function companionStoreOf(files: SavepointFiles): CompanionManifest['store'] {
  return stores.get(files);
}

export async function openCompanionInput(url: string, companion: CompanionAccess): Promise<SavepointFiles> {
  const answer = await post(companion, COMPANION_OPEN_PATH, JSON.stringify({ url }));
  if (!answer.ok) throw await failureOf(answer, companion, url);
  const manifest = (await answer.json()) as CompanionManifest;
  const sources = manifest.sources.map((f, n) => companionSource(companion, manifest.open, n, f.name, f.size));
  const relative = new Map(manifest.relative);
  const absolute = new Map(manifest.absolute);
  const files: SavepointFiles = {
    name: manifest.name,
    metadata: sources[manifest.metadata]!,
    files: manifest.files.map((n) => sources[n]!),
    resolveRelative: (path) => {
      const n = relative.get(path);
      return n === undefined ? undefined : sources[n];
    },
    resolveAbsolute: (path, recordedSize) => {
      const found = absolute.get(path);
      if (found === undefined) return undefined;
      if ('file' in found) return { source: sources[found.file]!, path: found.path };
      return { source: refusedSource(found.name, recordedSize ?? 0, found.refused), path: found.name };
    },
    unreadable: new Map(manifest.unreadable),
    // a job's checkpoint directory: which checkpoint was read is said, as the CLI says it
    warnings: [...(manifest.chosen === undefined ? [] : [`read ${manifest.chosen}, the latest completed checkpoint of ${url}`]), ...manifest.warnings],
  };
  const store = manifest.store;
  if (store !== undefined && typeof store.endpoint === 'string' && typeof store.credentials === 'string') stores.set(files, store);
  return files;
}

function companionSource(companion: CompanionAccess, open: number, file: number, name: string, size: number): ByteSource {
  return {
    name,
    size,
    async read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > size) {
        throw new DecodeError({ code: 'truncated', detail: `expected ${length} bytes at offset ${offset}, found a ${size}-byte file`, file: name, offset });
      }
      if (length === 0) return new Uint8Array(0);
      const answer = await post(companion, `${COMPANION_READ_PATH}?open=${open}&file=${file}&offset=${offset}&length=${length}`);
      if (!answer.ok) throw await failureOf(answer, companion, name, offset);
      const bytes = new Uint8Array(await answer.arrayBuffer());
      if (bytes.length !== length) {
        throw new DecodeError({
          code: 'network',
          detail: `expected ${length} bytes from the companion at ${companion.origin}, found ${bytes.length}`,
          file: name,
          offset,
        });
      }
      return bytes;
    },
  };
}

/** A file the companion refused (an absolute handle into another bucket): every read says why. */
function refusedSource(name: string, size: number, refused: string): ByteSource {
  return { name, size, read: () => Promise.reject(new DecodeError({ code: 'missing-file', detail: refused, file: name })) };
}

async function post(companion: CompanionAccess, path: string, body?: string): Promise<Response> {
  try {
    return await fetch(`${companion.origin}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${companion.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch (e) {
    throw new DecodeError({
      code: 'network',
      detail: `expected the companion (savepoint-inspector serve) to answer at ${companion.origin}, found no answer (${(e as Error).message}): is it still running? Start it again with \`npx savepoint-inspector serve\` and open the URL it prints`,
    });
  }
}

/** The companion's refusal, or the store's error as the CLI would have reported it. */
async function failureOf(answer: Response, companion: CompanionAccess, file: string, offset?: number): Promise<Error> {
  let body: CompanionErrorBody | undefined;
  try {
    body = (await answer.json()) as CompanionErrorBody;
  } catch {
    body = undefined;
  }
  if (body === undefined || typeof body.message !== 'string') {
    // not the companion at all (a static host, the development server): no API here
    return wrongInput('bad-url', describeCompanionNeeded(file));
  }
  const e = body.error;
  if (e?.name === 'UsageError') return wrongInput(e.code, e.detail, e.candidates);
  if (e?.name === 'DecodeError') {
    return new DecodeError({
      code: e.code,
      detail: e.detail,
      path: e.path,
      ...(e.file === undefined ? {} : { file: e.file }),
      ...(e.offset === undefined ? {} : { offset: e.offset }),
      ...(e.missingFile === undefined ? {} : { missingFile: e.missingFile }),
    });
  }
  const again = answer.status === 401 || answer.status === 403 ? `; open the URL savepoint-inspector serve printed (with its token) again` : '';
  return new DecodeError({
    code: 'network',
    detail: `expected the companion at ${companion.origin} to read ${file}, found ${answer.status}: ${body.message}${again}`,
    file,
    ...(offset === undefined ? {} : { offset }),
  });
}
