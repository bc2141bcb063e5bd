/**
 * The companion API of `serve` (./app-server.ts): the app served on 127.0.0.1 reads object-store
 * savepoints (s3://, abfss://, wasbs://, … — whatever the CLI's inputs take) through it, with this
 * machine's credentials, which never reach the browser. Read-only, two endpoints, both POST (a browser
 * sends `Origin` with every POST, same-origin ones included, so the check below always has it):
 *
 * - `POST /api/open` `{"url": "s3://bucket/savepoints/savepoint-abc"}`: opens the URL exactly as the CLI
 *   does (openNodeInput: folder, `_metadata`, archive, a job's checkpoint directory → its latest chk-N,
 *   absolute handles read from the store they name, every object's ETag pinned), then lets the core
 *   resolve every handle `_metadata` names (openSavepoint), and answers with a manifest
 *   (core/io/companion-protocol.ts): the opening's files by number, and how each path a handle names resolved.
 * - `POST /api/read?open=N&file=F&offset=O&length=L`: those bytes of file F of opening N, nothing else.
 *
 * What can be read is what an opening handed out: the objects under the URL the user opened (the CLI's
 * listing of it), and the files its `_metadata`'s absolute handles name in the same bucket (Azure: the
 * same account and container). A handle naming another bucket or store is refused, in the manifest
 * and on read; a file number no opening handed out is refused (403). Only object-store URLs are opened:
 * never a local path or an http(s) URL (the app reads those itself), and no `--path-map` (which could
 * point at local files).
 *
 * Every request must carry the token `serve` printed, as `Authorization: Bearer <token>` (not the page's
 * cookie: a cookie for 127.0.0.1 is sent to every port of it, so to other local servers), an `Origin`
 * that is this server's own (`http://127.0.0.1:<port>`, or `http://localhost:<port>` when the page was
 * opened so; the Host header, checked before this, says which), and never gets a CORS header: another
 * web page can neither send the token nor read an answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openSavepoint } from '../../core/flink';
import {
  COMPANION_OPEN_PATH,
  COMPANION_READ_PATH,
  isAzureUrl,
  isDecodeError,
  isGcsUrl,
  isHdfsUrl,
  isObjectStoreUrl,
  isS3Url,
  isUsageError,
  parseAzureUrl,
  parseGcsUrl,
  parseHdfsUrl,
  parseS3Url,
  type ByteSource,
  type CompanionAbsolute,
  type CompanionErrorBody,
  type CompanionManifest,
  type SavepointFiles,
} from '../../core/io';
import { openNodeInput, reopenOptions, storeReachedBy } from '../sources';
import { sameToken } from './same-token';

/** The longest read one request may ask for: `_metadata`'s limit (it is read whole). */
const MAX_READ_BYTES = 128 * 1024 * 1024;
/**
 * Openings kept per run; the oldest is forgotten past this (the app opens one savepoint at a time). Each holds
 * its sources, `_metadata` read whole among them (kilobytes to a few megabytes; at most 128 MiB).
 */
const MAX_OPENINGS = 16;
const MAX_BODY_BYTES = 64 * 1024;

/** Opens an object-store URL as the CLI does; tests give their own. */
export type OpenObjectStoreInput = (url: string, notice: (line: string) => void) => Promise<SavepointFiles>;

export interface CompanionApi {
  /** Answers a request below /api/ (after the Host check); the caller handles every other path. */
  handle(req: IncomingMessage, res: ServerResponse, at: { host: string; token: string }): Promise<void>;
}

interface Opening {
  sources: ByteSource[];
}

export function createCompanionApi(open: OpenObjectStoreInput = (url, notice) => openNodeInput(url, { notice })): CompanionApi {
  const openings = new Map<number, Opening>();
  let next = 1;
  return {
    async handle(req, res, { host, token }) {
      const refused = refuse(req, host, token);
      if (refused !== undefined) return send(res, refused.status, { message: refused.message });
      const url = new URL(req.url ?? '/', `http://${host}`);
      if (url.pathname === COMPANION_OPEN_PATH) {
        const body = await readBody(req);
        let target: unknown;
        try {
          target = (JSON.parse(body ?? '') as { url?: unknown }).url;
        } catch {
          target = undefined;
        }
        if (typeof target !== 'string')
          return send(res, 400, { message: `bad request: expected a JSON body {"url": "s3://…"} of at most ${MAX_BODY_BYTES} bytes` });
        // only what the CLI reads as an object store (or names as one it does not read yet): never a local path or http(s)
        if (!isObjectStoreUrl(target)) {
          return send(res, 400, {
            message: `bad request: expected an object-store URL (s3://, s3a://, s3p://, gs://, abfs://, abfss://, wasb://, wasbs://, hdfs://, webhdfs://, swebhdfs://), found ${JSON.stringify(target)}: the companion opens object stores only (the app opens local files and http(s) URLs itself)`,
          });
        }
        const notices: string[] = [];
        let files: SavepointFiles;
        try {
          files = await open(target, (line) => notices.push(line));
        } catch (e) {
          return sendError(res, e);
        }
        const id = next++;
        const manifest = await buildManifest(id, target, files, notices);
        openings.set(id, { sources: manifest.sources });
        if (openings.size > MAX_OPENINGS) openings.delete(openings.keys().next().value!);
        return send(res, 200, manifest.body);
      }
      if (url.pathname === COMPANION_READ_PATH) {
        const [openId, file, offset, length] = ['open', 'file', 'offset', 'length'].map((k) => readInteger(url.searchParams.get(k)));
        if (openId === undefined || file === undefined || offset === undefined || length === undefined) {
          return send(res, 400, { message: 'bad request: expected open, file, offset and length, each a non-negative integer' });
        }
        const opening = openings.get(openId);
        if (opening === undefined)
          return send(res, 404, { message: `not found: no opening ${openId} in this run of savepoint-inspector serve (open the URL again)` });
        const source = opening.sources[file];
        if (source === undefined) {
          return send(res, 403, {
            message: `forbidden: opening ${openId} has no file ${file}: only the objects under the URL opened, and those its _metadata names in the same bucket, are read`,
          });
        }
        if (length > MAX_READ_BYTES) return send(res, 400, { message: `bad request: expected at most ${MAX_READ_BYTES} bytes in one read, found ${length}` });
        let bytes: Uint8Array;
        try {
          bytes = await source.read(offset, length);
        } catch (e) {
          return sendError(res, e);
        }
        res.statusCode = 200;
        res.setHeader('Content-Type', 'application/octet-stream');
        res.setHeader('Content-Length', String(bytes.length));
        res.end(bytes);
        return;
      }
      return send(res, 404, { message: `not found: the companion API has ${COMPANION_OPEN_PATH} and ${COMPANION_READ_PATH}` });
    },
  };
}

/** The checks every API request passes, in this order: method, Origin, token. */
function refuse(req: IncomingMessage, host: string, token: string): { status: number; message: string } | undefined {
  if (req.method !== 'POST') return { status: 405, message: 'method not allowed: the companion API takes POST only' };
  const origin = req.headers.origin;
  if (origin !== `http://${host}`) {
    return {
      status: 403,
      message: `forbidden: the companion API answers only its own page (Origin http://${host}), found ${origin === undefined ? 'no Origin' : `Origin ${origin}`}`,
    };
  }
  const auth = req.headers.authorization;
  const given = auth?.startsWith('Bearer ') === true ? auth.slice('Bearer '.length) : undefined;
  if (given === undefined)
    return { status: 401, message: 'unauthorized: the companion API needs the token savepoint-inspector serve printed (Authorization: Bearer <token>)' };
  if (!sameToken(given, token)) return { status: 403, message: 'forbidden: wrong token (each run of savepoint-inspector serve prints a new one)' };
  return undefined;
}

/**
 * The manifest of an opening: core's openSavepoint runs over the opened files, recording each
 * resolveRelative / resolveAbsolute answer, so the app's own openSavepoint gets the same answers. A
 * file an absolute handle names in another bucket (container) than the URL opened is refused. When the
 * savepoint cannot be decoded here, the manifest has no resolutions: the app decodes `_metadata` itself
 * and says what is wrong with it.
 */
async function buildManifest(id: number, url: string, files: SavepointFiles, notices: string[]): Promise<{ sources: ByteSource[]; body: CompanionManifest }> {
  const sources: ByteSource[] = [];
  const numbers = new Map<ByteSource, number>();
  const number = (s: ByteSource): number => {
    let n = numbers.get(s);
    if (n === undefined) {
      n = sources.length;
      sources.push(s);
      numbers.set(s, n);
    }
    return n;
  };
  const relative = new Map<string, number>();
  const absolute = new Map<string, CompanionAbsolute>();
  const sameStore = sameStoreAs(url);
  const recording: SavepointFiles = {
    ...files,
    resolveRelative(path) {
      const found = files.resolveRelative(path);
      if (found !== undefined) relative.set(path, number(found));
      return found;
    },
    resolveAbsolute(path, recordedSize) {
      const found = files.resolveAbsolute?.(path, recordedSize);
      if (found === undefined) return undefined;
      // read from a store (not found in the opened input): only in the opened URL's bucket
      if ((isS3Url(found.path) || isAzureUrl(found.path)) && !sameStore(found.path)) {
        absolute.set(path, {
          refused: `expected the state file ${found.path} in the store of ${url}, found it elsewhere: the companion reads only objects in the bucket (container) of the URL opened; open it with the CLI`,
          name: found.path,
        });
        return undefined;
      }
      absolute.set(path, { file: number(found.source), path: found.path });
      return found;
    },
  };
  const metadata = number(files.metadata);
  const listed = files.files.map(number);
  await openSavepoint(recording).catch(() => undefined);
  return {
    sources,
    body: {
      open: id,
      name: files.name,
      sources: sources.map((s) => ({ name: s.name, size: s.size })),
      metadata,
      files: listed,
      relative: [...relative],
      absolute: [...absolute],
      unreadable: [...(files.unreadable ?? new Map<string, string>())],
      warnings: [...files.warnings],
      notices,
      ...chosenOf(files),
      ...reachedStoreOf(files),
    },
  };
}

/** How the store was reached: its endpoint and the credential source used (the CLI says them on stderr), for the app to show. */
function reachedStoreOf(files: SavepointFiles): { store?: { endpoint: string; credentials: string } } {
  const store = storeReachedBy(files);
  return store === undefined ? {} : { store };
}

/** The checkpoint of a job's checkpoint directory the opening chose (what the CLI says on stderr). */
function chosenOf(files: SavepointFiles): { chosen?: string } {
  const chosen = reopenOptions(files, {}).metadataPath;
  return chosen === undefined ? {} : { chosen };
}

/** Whether an object URL is in the bucket (Azure: the account and container) of the opened URL. */
function sameStoreAs(opened: string): (url: string) => boolean {
  const key = storeOf(opened);
  return (url) => key !== undefined && storeOf(url) === key;
}

function storeOf(url: string): string | undefined {
  try {
    if (isS3Url(url)) return `s3:${parseS3Url(url).bucket}`;
    if (isAzureUrl(url)) {
      const at = parseAzureUrl(url);
      return `azure:${at.account}@${at.host.toLowerCase().replace(/\.(dfs|blob)\./, '.')}/${at.container}`;
    }
    if (isGcsUrl(url)) return `gs:${parseGcsUrl(url).bucket}`;
    // one HDFS cluster as written (hdfs:// and webhdfs:// name the NameNode by different ports: such a handle is refused, never widened)
    if (isHdfsUrl(url)) return `hdfs:${parseHdfsUrl(url).authority.toLowerCase()}`;
  } catch {
    return undefined;
  }
  return undefined;
}

function readInteger(text: string | null): number | undefined {
  if (text === null || !/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An opening's or a read's failure: the input's own error (a user error, 422), or the store's answer (502). */
function sendError(res: ServerResponse, e: unknown): void {
  if (isUsageError(e)) return send(res, 422, { message: e.message, error: e.toJSON() });
  if (isDecodeError(e)) return send(res, e.code === 'network' ? 502 : 422, { message: e.message, error: e.toJSON() });
  const code = (e as NodeJS.ErrnoException).code;
  return send(res, 502, {
    message: `the store could not be read: ${code === undefined ? String((e as Error).message ?? e) : `${code}: ${(e as Error).message}`}`,
  });
}

function send(res: ServerResponse, status: number, body: CompanionErrorBody | CompanionManifest): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(`${JSON.stringify(body)}\n`);
}
