/**
 * The CLI's WebHDFS client: HDFS's REST API (https://hadoop.apache.org/docs/stable/hadoop-project-dist/hadoop-hdfs/WebHDFS.html)
 * over Node's fetch. Three operations are used, all GET and read-only: GETFILESTATUS, LISTSTATUS and OPEN
 * with `offset` and `length` (the NameNode answers OPEN with a 307 redirect to a DataNode, which serves
 * the bytes; the redirect is followed here, one hop). No npm client is used: the one on npm (`webhdfs`
 * 1.2.0) was last released in 2018 and is built on the deprecated `request`; this API is three GETs with a
 * JSON answer, so plain fetch is smaller and kept up with Node.
 *
 * Who reads: simple authentication's `user.name` query parameter, from HADOOP_USER_NAME (as Hadoop's own
 * clients take it) or else the OS user. Kerberos (SPNEGO) is not spoken: a NameNode that asks for it (401
 * with `WWW-Authenticate: Negotiate`) is a one-line error saying so (docs/cli.md says what it would take).
 *
 * Where: a `webhdfs://HOST:PORT` (`swebhdfs://`, over https) URL names the NameNode's HTTP address itself;
 * an `hdfs://NAMENODE:RPC-PORT` URL names its RPC address, which WebHDFS does not serve: its HTTP endpoint
 * is SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT when set (e.g. `http://namenode:9870`), else the same host at
 * Hadoop 3's default HTTP port 9870.
 *
 * HDFS has no ETag: a file is pinned by its fileId (an overwrite makes a new inode), length and
 * modificationTime, as GETFILESTATUS or the listing first told them; every range read is checked against
 * the pin by a GETFILESTATUS after its bytes arrived, so a file that changed between reads is an error,
 * never a mixed read. A transfer broken mid-body (connection reset) is retried with backoff and jitter
 * (SAVEPOINT_INSPECTOR_HTTP_RETRIES more attempts, default 2), then reported.
 */
import { userInfo } from 'node:os';
import { DecodeError, formatHdfsUrl, wrongInput, type HdfsLocation } from '../../../core/io';
import { NETWORK_CODES as STORE_NETWORK_CODES, storeWhere } from '../object-store';

export const DEFAULT_WEBHDFS_HTTP_PORT = 9870;
export const WEBHDFS_ENDPOINT_ENV = 'SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT';

export interface HdfsFileInfo {
  /** the absolute HDFS path */
  readonly key: string;
  readonly size: number;
  /** the pin: `fileId:length:modificationTime` (HDFS has no ETag) */
  readonly etag: string;
  readonly directory: boolean;
}

export interface HdfsListing {
  /** the files below the folder (all levels, or with `delimiter: '/'` one level) */
  readonly objects: readonly HdfsFileInfo[];
  /** with a delimiter: the folders right below, each ending in '/' */
  readonly prefixes: readonly string[];
}

export interface WebHdfsStore {
  /** where requests go, for messages: `WebHDFS http://nn:9870 (SAVEPOINT_INSPECTOR_WEBHDFS_ENDPOINT)` */
  readonly endpoint: string;
  /** `HADOOP_USER_NAME (WebHDFS user alice)`, or `the OS user (WebHDFS user alice; HADOOP_USER_NAME is not set)` */
  credentialSource(): string;
  /** the file's (or folder's) status, or undefined when there is no such path */
  head(path: string): Promise<HdfsFileInfo | undefined>;
  /** exactly [offset, offset + length) of the file as it was when `etag` was pinned; a changed file is an error */
  readRange(path: string, offset: number, length: number, etag: string): Promise<Uint8Array>;
  /** the files below the folder `prefix` (ending in '/'), at most `maxObjects`; none when there is no such folder */
  list(prefix: string, options?: { delimiter?: string; maxObjects?: number }): Promise<HdfsListing>;
  /** the URL of a path, as the input was written (for messages) */
  urlOf(path: string): string;
}

type Env = Record<string, string | undefined>;

/** The WebHDFS user and where it came from. */
export function resolveWebHdfsUser(env: Env): { name: string; source: string } {
  const given = env['HADOOP_USER_NAME'];
  if (given !== undefined && given !== '') return { name: given, source: 'HADOOP_USER_NAME' };
  let name = env['USER'] ?? 'unknown';
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry (a container's arbitrary uid): the environment's USER
  }
  return { name, source: 'the OS user' };
}

/** The HTTP endpoint of the NameNode a location names, and what chose it. */
export function resolveWebHdfsEndpoint(at: Pick<HdfsLocation, 'scheme' | 'authority'>, env: Env): { url: string; setting: string } {
  if (at.scheme === 'webhdfs' || at.scheme === 'swebhdfs') {
    const [host, port] = splitAuthority(at.authority);
    return { url: `${at.scheme === 'swebhdfs' ? 'https' : 'http'}://${host}:${port ?? DEFAULT_WEBHDFS_HTTP_PORT}`, setting: `the ${at.scheme}:// URL` };
  }
  const set = env[WEBHDFS_ENDPOINT_ENV];
  if (set !== undefined && set !== '') {
    let url: URL;
    try {
      url = new URL(set);
    } catch {
      throw wrongInput('bad-url', `expected ${WEBHDFS_ENDPOINT_ENV} to be the NameNode's WebHDFS address http(s)://HOST:PORT, found "${set}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw wrongInput('bad-url', `expected ${WEBHDFS_ENDPOINT_ENV} to be the NameNode's WebHDFS address http(s)://HOST:PORT, found "${set}"`);
    return { url: `${url.protocol}//${url.host}`, setting: WEBHDFS_ENDPOINT_ENV };
  }
  if (at.authority === '') {
    throw wrongInput(
      'bad-url',
      `expected the NameNode's WebHDFS address for an hdfs:/// URL (it names no NameNode: the cluster's fs.defaultFS), found none: set ${WEBHDFS_ENDPOINT_ENV}=http://NAMENODE:9870`,
    );
  }
  const [host] = splitAuthority(at.authority);
  return {
    url: `http://${host}:${DEFAULT_WEBHDFS_HTTP_PORT}`,
    setting: `Hadoop's default HTTP port for hdfs://${at.authority}; ${WEBHDFS_ENDPOINT_ENV} sets another`,
  };
}

function splitAuthority(authority: string): [string, string | undefined] {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(authority);
  return [m?.[1] ?? authority, m?.[2]];
}

interface RemoteException {
  exception?: string;
  javaClassName?: string;
  message?: string;
}

/** What a failed request answered, as data for the one-line message. */
class WebHdfsFailure extends Error {
  constructor(
    readonly status: number | undefined,
    readonly remote: RemoteException | undefined,
    message: string,
    readonly netCode?: string,
    readonly negotiate = false,
  ) {
    super(message);
  }
}

const NETWORK_CODES: Record<string, string> = {
  ...STORE_NETWORK_CODES,
  // undici's (Node's fetch) own codes
  UND_ERR_SOCKET: 'the connection was closed',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the connection was cut mid-body (fewer bytes than its Content-Length)',
};

/** Creates the client of one NameNode for one command; nothing is sent until the first call. */
export function createWebHdfsStore(at: Pick<HdfsLocation, 'scheme' | 'authority'>, env: Env = process.env): WebHdfsStore {
  const { url: base, setting } = resolveWebHdfsEndpoint(at, env);
  const user = resolveWebHdfsUser(env);
  const where = `WebHDFS ${base} (${setting})`;
  const credentials =
    user.source === 'HADOOP_USER_NAME'
      ? `HADOOP_USER_NAME (WebHDFS user ${user.name})`
      : `the OS user (WebHDFS user ${user.name}; HADOOP_USER_NAME is not set)`;
  const seconds = Number(env['SAVEPOINT_INSPECTOR_HTTP_TIMEOUT'] ?? 10);
  const timeoutMs = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 10_000;
  const retries = Number(env['SAVEPOINT_INSPECTOR_HTTP_RETRIES'] ?? 2);
  const attempts = 1 + (Number.isInteger(retries) && retries >= 0 && retries <= 10 ? retries : 2);
  const urlOf = (path: string) => formatHdfsUrl(at, path);

  const opUrl = (path: string, op: string, extra: Record<string, string> = {}): string => {
    const q = new URLSearchParams({ op, 'user.name': user.name, ...extra });
    return `${base}/webhdfs/v1${path.split('/').map(encodeURIComponent).join('/')}?${q.toString()}`;
  };

  /** One GET; an answer that is not 2xx (or 307 when redirects are taken by hand) is a WebHdfsFailure. */
  const get = async (url: string, manual = false): Promise<Response> => {
    let res: Response;
    try {
      res = await fetch(url, { redirect: manual ? 'manual' : 'follow', signal: AbortSignal.timeout(timeoutMs), headers: { 'Accept-Encoding': 'identity' } });
    } catch (e) {
      throw networkFailure(e);
    }
    if (res.ok || (manual && res.status === 307)) return res;
    const text = await res.text().catch(() => '');
    let remote: RemoteException | undefined;
    try {
      remote = (JSON.parse(text) as { RemoteException?: RemoteException }).RemoteException;
    } catch {
      remote = undefined;
    }
    const negotiate = res.status === 401 && /negotiate/i.test(res.headers.get('www-authenticate') ?? '');
    throw new WebHdfsFailure(res.status, remote, remote?.message ?? (text.split('\n')[0]?.slice(0, 200) || res.statusText), undefined, negotiate);
  };

  const describe = (op: string, path: string, e: unknown, offset?: number, attempts = 1): DecodeError => {
    if (e instanceof DecodeError) return e;
    const url = urlOf(path);
    const what = op === 'LISTSTATUS' ? `to list ${url}` : `to read ${url}`;
    const by = `(${storeWhere([['path', path]], where, credentials)})`;
    let found: string;
    let code: 'missing-file' | 'network' = 'network';
    const f = e instanceof WebHdfsFailure ? e : networkFailure(e);
    const ex = f.remote?.exception;
    const said = f.message;
    if (f.status === 404 || ex === 'FileNotFoundException') {
      code = 'missing-file';
      found = `no such file or folder (${f.status ?? 404} FileNotFoundException${said ? `: ${said}` : ''})`;
    } else if (ex === 'AccessControlException' || ex === 'AuthorizationException' || ex === 'SecurityException' || (f.status === 403 && ex === undefined)) {
      // WebHDFS answers 403 for these, and also for any other IOException (its ExceptionHandler): only these are a denial
      found = `permission denied (${f.status ?? 403} ${ex ?? 'Forbidden'}${said ? `: ${said}` : ''}): user ${user.name} may not read it`;
    } else if (ex === 'StandbyException') {
      found = `a standby NameNode (${f.status ?? 403} StandbyException${said ? `: ${said}` : ''}): point ${WEBHDFS_ENDPOINT_ENV} (or the webhdfs:// URL) at the active NameNode`;
    } else if (f.negotiate || f.status === 401) {
      found = `a demand for Kerberos (${f.status ?? 401}${f.negotiate ? ' WWW-Authenticate: Negotiate' : ''}${said ? `: ${said}` : ''}): this cluster uses SPNEGO, which this tool does not speak (simple authentication only; see docs/cli.md)`;
    } else if (f.netCode !== undefined) {
      found = `${NETWORK_CODES[f.netCode] ?? 'the request failed'} (${f.netCode})${said && NETWORK_CODES[f.netCode] === undefined ? `: ${said}` : ''}`;
    } else if (f.status !== undefined) {
      found = `HTTP ${f.status}${ex ? ` ${ex}` : ''}${said ? `: ${said}` : ''}`;
    } else {
      found = `the request failed (${said})`;
    }
    if (attempts > 1) found += ` after ${attempts} attempts`;
    return new DecodeError({ code, detail: `expected ${what} ${by}, found ${found}`, file: url, ...(offset === undefined ? {} : { offset }), cause: e });
  };

  const head = async (path: string): Promise<HdfsFileInfo | undefined> => {
    try {
      const res = await get(opUrl(path, 'GETFILESTATUS'));
      const body = (await res.json()) as { FileStatus: FileStatus };
      return toInfo(path, body.FileStatus);
    } catch (e) {
      if (e instanceof WebHdfsFailure && (e.status === 404 || e.remote?.exception === 'FileNotFoundException')) return undefined;
      throw describe('GETFILESTATUS', path, e);
    }
  };

  const listDir = async (dir: string): Promise<FileStatus[]> => {
    try {
      const res = await get(opUrl(dir === '/' ? '/' : dir.replace(/\/+$/, ''), 'LISTSTATUS'));
      return ((await res.json()) as { FileStatuses: { FileStatus: FileStatus[] } }).FileStatuses.FileStatus;
    } catch (e) {
      throw describe('LISTSTATUS', dir, e);
    }
  };

  const readOnce = async (path: string, offset: number, length: number): Promise<Uint8Array> => {
    // the NameNode redirects to a DataNode (307); the Location carries the offset and length asked for
    const first = await get(opUrl(path, 'OPEN', { offset: String(offset), length: String(length) }), true);
    let res = first;
    if (first.status === 307) {
      await first.body?.cancel();
      const location = first.headers.get('location');
      if (location === null) throw new WebHdfsFailure(307, undefined, 'a redirect without a Location');
      res = await get(new URL(location, base).toString());
    }
    return readBody(res, length);
  };

  return {
    endpoint: where,
    credentialSource: () => credentials,
    head,
    urlOf,
    async readRange(path, offset, length, etag) {
      if (length === 0) return new Uint8Array(0);
      for (let attempt = 1; ; attempt++) {
        let bytes: Uint8Array;
        try {
          bytes = await readOnce(path, offset, length);
        } catch (e) {
          const broken = e instanceof WebHdfsFailure && (e.netCode !== undefined || e.status === undefined);
          if (broken && attempt < attempts) {
            await new Promise((r) => setTimeout(r, Math.random() * 100 * 2 ** (attempt - 1)));
            continue;
          }
          throw describe('OPEN', path, e, offset, attempt);
        }
        // the bytes count only if the file is still the one pinned (HDFS has no conditional read)
        const now = await head(path);
        const id = now === undefined ? 'no such file any more' : now.etag;
        if (etag !== '' && id !== etag) {
          const url = urlOf(path);
          throw new DecodeError({
            code: 'network',
            file: url,
            offset,
            detail: `expected to read ${url} (${storeWhere([['path', path]], where, credentials)}) as it was when first read (fileId:length:modificationTime ${etag}), found the file changed between reads (now ${id}): it was overwritten or appended to while it was read — read it again once it no longer changes (a mixed read is never used)`,
          });
        }
        return bytes;
      }
    },
    async list(prefix, options = {}) {
      const max = options.maxObjects ?? Number.POSITIVE_INFINITY;
      const objects: HdfsFileInfo[] = [];
      const prefixes: string[] = [];
      const dir = prefix.endsWith('/') ? prefix : `${prefix}/`;
      const queue = [dir];
      while (queue.length > 0 && objects.length < max) {
        const at = queue.shift()!;
        let entries: FileStatus[];
        try {
          entries = await listDir(at);
        } catch (e) {
          // no such folder (the opened URL's): nothing below it, as a prefix of S3 without objects
          if (at === dir && e instanceof DecodeError && e.code === 'missing-file') break;
          throw e;
        }
        entries.sort((a, b) => (a.pathSuffix < b.pathSuffix ? -1 : a.pathSuffix > b.pathSuffix ? 1 : 0));
        for (const s of entries) {
          const child = `${at}${s.pathSuffix}`;
          if (s.type === 'DIRECTORY') {
            if (options.delimiter === '/') prefixes.push(`${child}/`);
            else queue.push(`${child}/`);
          } else {
            objects.push(toInfo(child, s));
            if (objects.length >= max) break;
          }
        }
      }
      return { objects: objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)), prefixes };
    },
  };
}

interface FileStatus {
  pathSuffix: string;
  type: 'FILE' | 'DIRECTORY' | 'SYMLINK';
  length: number;
  modificationTime: number;
  fileId?: number;
}

function toInfo(path: string, s: FileStatus): HdfsFileInfo {
  return { key: path, size: s.length, etag: `${s.fileId ?? 0}:${s.length}:${s.modificationTime}`, directory: s.type === 'DIRECTORY' };
}

function networkFailure(e: unknown): WebHdfsFailure {
  if (e instanceof WebHdfsFailure) return e;
  const err = e as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError')
    return new WebHdfsFailure(undefined, undefined, 'no answer in time (SAVEPOINT_INSPECTOR_HTTP_TIMEOUT sets the seconds)', 'ETIMEDOUT');
  const code = err.code ?? err.cause?.code;
  return new WebHdfsFailure(undefined, undefined, err.cause?.message ?? err.message ?? String(e), code);
}

/** The body of a range answer, into a buffer of exactly `length` bytes: more, fewer or a failed transfer is an error. */
async function readBody(res: Response, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let got = 0;
  if (res.body === null) throw new WebHdfsFailure(res.status, undefined, `the DataNode answered no body for ${length} bytes`, 'EPIPE');
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (got + chunk.length > length) throw new WebHdfsFailure(res.status, undefined, `the DataNode sent more than the ${length} bytes asked for`);
      bytes.set(chunk, got);
      got += chunk.length;
    }
  } catch (e) {
    throw networkFailure(e);
  }
  if (got < length) throw new WebHdfsFailure(undefined, undefined, `the answer ended after ${got} of the ${length} bytes asked for`, 'EPIPE');
  return bytes;
}
