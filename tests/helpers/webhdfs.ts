/**
 * A real HDFS with WebHDFS for the object-store tests: Hadoop's MiniDFSCluster (scripts/ensure-webhdfs.ts
 * builds the launcher in tests/helpers/hdfs/ once per machine) on 127.0.0.1, permissions on, its superuser
 * ADMIN (the launcher runs with HADOOP_USER_NAME=ADMIN). Also uploads through WebHDFS's own write
 * operations (CREATE with its DataNode redirect, SETPERMISSION), and a loopback proxy in front of the
 * NameNode that also carries the DataNode's redirected reads (it rewrites the Location header to itself), so
 * that it can break a read mid-body, as the S3 tests' proxy does.
 *
 * Startup takes tens of seconds on a busy 2-core machine (~25 s measured with the JVM flags below, ~70 s
 * without them), so each test file starts one cluster in its beforeAll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureWebHdfs, findWebHdfs, hasJava, hasMaven, LAUNCHER_CLASS } from '../../scripts/ensure-webhdfs';
import { filesBelow, listenOnLoopback, passOn } from './loopback-servers';

/** the HDFS superuser (the user the NameNode runs as), who uploads the fixtures */
export const ADMIN = 'sp-admin';
/** the user the commands under test read as (HADOOP_USER_NAME), not a superuser: permissions apply */
export const READER = 'sp-reader';

/** Whether the WebHDFS tests can run: java, and a built server or mvn to build it. */
export function canRunWebHdfs(): boolean {
  return hasJava() && (findWebHdfs() !== undefined || hasMaven());
}

export interface RunningHdfs {
  /** the NameNode's WebHDFS address, http://127.0.0.1:PORT */
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts MiniDFSCluster (building the launcher first when missing); resolves once WebHDFS answers. */
export async function startWebHdfs(): Promise<RunningHdfs> {
  const classPath = await ensureWebHdfs();
  if (classPath === undefined) throw new Error('the WebHDFS server is not built and java or mvn is absent');
  const dir = mkdtempSync(path.join(tmpdir(), 'webhdfs-'));
  // C1 only and the serial collector: startup ~3x faster on a loaded machine, and the cluster does little work
  const child = spawn('java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx512m', '-cp', classPath, LAUNCHER_CLASS, path.join(dir, 'data')], {
    env: { ...process.env, HADOOP_USER_NAME: ADMIN },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (d) => (output = (output + String(d)).slice(-20_000)));
  const port = await new Promise<number>((resolve, reject) => {
    let line = '';
    const timer = setTimeout(() => reject(new Error(`MiniDFSCluster did not start within 5 min:\n${output}`)), 5 * 60 * 1000);
    child.stdout!.on('data', (d) => {
      line += String(d);
      const m = /webhdfs-ready http=127\.0\.0\.1:(\d+)/.exec(line);
      if (m !== null) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`MiniDFSCluster exited (${code}) before it was ready:\n${output}`));
    });
  });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  // the launcher shuts the cluster down when its stdin closes; killed if that takes too long
  child.stdin!.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

function opUrl(endpoint: string, file: string, op: string, extra: Record<string, string> = {}, user = ADMIN): string {
  return `${endpoint}/webhdfs/v1${file.split('/').map(encodeURIComponent).join('/')}?${new URLSearchParams({ op, 'user.name': user, ...extra }).toString()}`;
}

async function expectOk(res: Response, what: string): Promise<void> {
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`);
}

/** Writes a file (its folders made as needed, overwriting), as ADMIN: CREATE at the NameNode, then the bytes to the DataNode it redirects to. */
export async function putFile(endpoint: string, file: string, body: Uint8Array): Promise<void> {
  const first = await fetch(opUrl(endpoint, file, 'CREATE', { overwrite: 'true' }), { method: 'PUT', redirect: 'manual' });
  await first.body?.cancel();
  const location = first.headers.get('location');
  if (first.status !== 307 || location === null) throw new Error(`CREATE ${file}: HTTP ${first.status}, no redirect`);
  // node:http, not fetch: the DataNode answers a PUT with "100 Continue" first, which undici's fetch takes for a bad response
  await new Promise<void>((resolve, reject) => {
    // agent: false: a fresh connection for each upload, never a kept-alive one the DataNode may have closed meanwhile (socket hang up)
    const req = http.request(
      location,
      { method: 'PUT', agent: false, headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += String(d)));
        res.on('end', () => ((res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`CREATE ${file}: HTTP ${res.statusCode} ${text}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** SETPERMISSION, as ADMIN (e.g. '000': nobody but the superuser may read). */
export async function setPermission(endpoint: string, file: string, permission: string): Promise<void> {
  await expectOk(await fetch(opUrl(endpoint, file, 'SETPERMISSION', { permission }), { method: 'PUT' }), `SETPERMISSION ${file}`);
}

/** Uploads every file below `dir` to `target` + its path relative to `dir` ('/'-separated). */
export async function uploadFolder(endpoint: string, dir: string, target: string): Promise<number> {
  const files = filesBelow(dir);
  for (const { file, relative } of files) await putFile(endpoint, `${target}${relative}`, readFileSync(file));
  return files.length;
}

/** What the proxy does with one request: pass it on, or break the answer mid-body. */
export type HdfsFaultAction = 'pass' | 'reset-mid-body';

export interface HdfsFaultProxy {
  /** http://127.0.0.1:PORT, in front of the NameNode */
  endpoint: string;
  readonly requests: { method: string; url: string; op: string; path: string; dataNode: boolean }[];
  setRule(rule: (req: { method: string; op: string; path: string; dataNode: boolean }) => HdfsFaultAction | Promise<HdfsFaultAction>): void;
  close(): Promise<void>;
}

/**
 * A proxy on 127.0.0.1 in front of the NameNode at `nameNodePort`. A 307 to a DataNode
 * (`http://127.0.0.1:DN/webhdfs/v1/…`) is rewritten to `http://127.0.0.1:PROXY/__dn/DN/webhdfs/v1/…`, so the
 * DataNode's read passes the proxy too; the rule sees each request's WebHDFS op, path and whether it goes to
 * the DataNode.
 */
export async function startHdfsFaultProxy(nameNodePort: number): Promise<HdfsFaultProxy> {
  let rule: (req: { method: string; op: string; path: string; dataNode: boolean }) => HdfsFaultAction | Promise<HdfsFaultAction> = () => 'pass';
  const requests: HdfsFaultProxy['requests'] = [];
  let self = '';
  const server = http.createServer((req, res) => {
    void (async () => {
      let url = req.url ?? '/';
      const method = req.method ?? 'GET';
      let port = nameNodePort;
      const dn = /^\/__dn\/(\d+)(\/.*)$/.exec(url);
      if (dn !== null) {
        port = Number(dn[1]);
        url = dn[2]!;
        req.url = url;
      }
      const parsed = new URL(url, 'http://x');
      const info = {
        method,
        op: (parsed.searchParams.get('op') ?? '').toUpperCase(),
        path: decodeURIComponent(parsed.pathname.replace(/^\/webhdfs\/v1/, '')),
        dataNode: dn !== null,
      };
      requests.push({ ...info, url });
      let action: HdfsFaultAction;
      try {
        action = await rule(info);
      } catch (e) {
        // a rule that fails (e.g. its own upload) answers 502 with why, so the test sees it: never an unhandled rejection
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`fault proxy rule failed: ${String(e)}`);
        return;
      }
      passOn(req, res, port, (up) => {
        const headers = { ...up.headers };
        if (typeof headers.location === 'string') headers.location = headers.location.replace(/^http:\/\/(127\.0\.0\.1|localhost):(\d+)\//, `${self}/__dn/$2/`);
        if (action === 'reset-mid-body' && (up.statusCode ?? 0) < 300) {
          res.writeHead(up.statusCode ?? 502, headers);
          let sent = false;
          up.on('data', (chunk: Buffer) => {
            if (sent) return;
            sent = true;
            // half of the first chunk, then the connection is cut
            res.write(chunk.subarray(0, Math.max(1, chunk.length >> 1)), () => req.socket.destroy());
          });
          up.on('end', () => {
            if (!sent) req.socket.destroy();
          });
          return;
        }
        res.writeHead(up.statusCode ?? 502, headers);
        up.pipe(res);
      });
    })();
  });
  const { port, close } = await listenOnLoopback(server);
  self = `http://127.0.0.1:${port}`;
  return {
    endpoint: self,
    requests,
    setRule(r) {
      rule = r;
    },
    close,
  };
}
