/**
 * Figure 11 (issue #29): the bench savepoint read from S3 — versitygw (scripts/ensure-versitygw.ts, the server the
 * object-store tests use) on 127.0.0.1, its posix backend serving the bench folder itself (a scratch root with one
 * link, `bench` → the bench folder, so the savepoint is `s3://bench/sp-2g/` — no upload, no copy).
 * 11a: `check s3://…/savepoint --descriptors new.binpb --no-values` as a whole process of the prebuilt CLI bundle,
 * through a loopback pass-through proxy in front of versitygw that counts the requests and the response bytes
 * (headers not counted), next to the savepoint's total size.
 * 11b: a full `stats` scan from S3 (no proxy) against the same scan of the local folder, whole processes of the
 * prebuilt bundle alternated (local, S3, …), median of each; wall and CPU (user + system, from GNU time) — the
 * CPU is versitygw's too where it says so, as the server runs on the same 2 cores.
 * Skipped with its reason (never a failure of the bench) when versitygw is neither cached nor buildable.
 * `npx tsx bench/figure-s3.ts [savepoint dir] [descriptor set] [runs]` runs it alone.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ensureVersitygw, findVersitygw, hasGo } from '../scripts/ensure-versitygw';
import { freePort, listenOnLoopback, passOn, waitForPort } from '../tests/helpers/loopback-servers';
import { buildCliBundle } from './build-cli-bundle';
import { fmtBytes, fmtMs, GNU_TIME, median, parseCpuSeconds, type Figure } from './measure';

const ACCESS_KEY = 'bench-access';
const SECRET_KEY = 'bench-secret-key';

interface Gateway {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startGateway(bin: string, dir: string): Promise<Gateway> {
  const port = await freePort();
  // its log goes to a file, not a pipe: the stats runs are timed with spawnSync, which blocks this process's event
  // loop, and a pipe nobody drains fills at 64 KiB — versitygw then blocks on its own log and the scan seems to hang
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'versitygw-log-')), 'versitygw.log');
  const log = openSync(logFile, 'w');
  const child = spawn(bin, ['--access', ACCESS_KEY, '--secret', SECRET_KEY, '--port', `127.0.0.1:${port}`, 'posix', dir], {
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  await waitForPort('versitygw', port, child, () => readFileSync(logFile, 'utf8'));
  return {
    port,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A pass-through proxy that counts requests and the bytes of the answers' bodies. */
async function startCountingProxy(
  upstreamPort: number,
): Promise<{ endpoint: string; requests: { method: string; url: string; range?: string }[]; bytes: () => number; close(): Promise<void> }> {
  const requests: { method: string; url: string; range?: string }[] = [];
  let bytes = 0;
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', ...(req.headers.range === undefined ? {} : { range: req.headers.range }) });
    passOn(req, res, upstreamPort, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.on('data', (chunk: Buffer) => (bytes += chunk.length));
      up.pipe(res);
    });
  });
  const { port, close } = await listenOnLoopback(server);
  return { endpoint: `http://127.0.0.1:${port}`, requests, bytes: () => bytes, close };
}

/** The environment of a CLI run against the local gateway: nothing of the machine's own AWS set-up is read. */
function s3Env(endpoint: string, scratch: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('AWS_')) env[k] = v;
  return {
    ...env,
    AWS_ACCESS_KEY_ID: ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: SECRET_KEY,
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_CONFIG_FILE: path.join(scratch, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(scratch, 'no-aws-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

/** One process (asynchronously, so this process's proxy keeps serving); exit status must be in `ok`. */
function runAsync(args: string[], env: NodeJS.ProcessEnv, ok: readonly number[]): Promise<{ stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code === null || !ok.includes(code)) reject(new Error(`node ${args.join(' ')} exited with ${code}: ${stderr.slice(-2000)}`));
      else resolve({ stdout, stderr, ms });
    });
  });
}

/** CPU seconds (user + system) of a process so far, from /proc (Linux), or undefined. */
function procCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return undefined;
  const fields = spawnSync('cat', [`/proc/${pid}/stat`], { encoding: 'utf8' })
    .stdout.replace(/^.*\) /, '')
    .split(' ');
  // after "pid (comm) ": state is field 0, utime field 11, stime field 12 (clock ticks)
  const ticks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

interface Timed {
  ms: number;
  cpuS: number | undefined;
  serverCpuS: number | undefined;
}

/** One `stats` process; undefined when it did not end within `timeoutMs` (killed: a stall must not hang the bench). */
function timeStats(args: string[], env: NodeJS.ProcessEnv, server: Gateway | undefined, timeoutMs?: number): Timed | undefined {
  const timed = existsSync(GNU_TIME);
  const serverBefore = procCpuSeconds(server?.child.pid);
  const t0 = performance.now();
  const r = spawnSync(timed ? GNU_TIME : process.execPath, timed ? ['-f', '%U %S', process.execPath, ...args] : args, {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(timeoutMs === undefined ? {} : { timeout: timeoutMs, killSignal: 'SIGKILL' as const }),
  });
  const ms = performance.now() - t0;
  if (r.signal !== null && timeoutMs !== undefined) return undefined;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(-2000)}`);
  const serverAfter = procCpuSeconds(server?.child.pid);
  return {
    ms,
    cpuS: timed ? parseCpuSeconds(r.stderr) : undefined,
    serverCpuS: serverBefore !== undefined && serverAfter !== undefined ? serverAfter - serverBefore : undefined,
  };
}

function folderBytes(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const n of readdirSync(dir)) {
    const s = statSync(path.join(dir, n));
    if (s.isFile()) {
      bytes += s.size;
      files++;
    }
  }
  return { bytes, files };
}

const loadAverage = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** Figure 11 over the savepoint folder `savepointDir`, read as `s3://bench/<its name>/` (`newDescriptors`: the check's new schema). */
export async function measureS3(savepointDir: string, newDescriptors: string, log: (s: string) => void = console.log, runs = 3): Promise<Figure[]> {
  const bin = findVersitygw() ?? (hasGo() ? await ensureVersitygw(process.env, log) : undefined);
  if (bin === undefined) {
    log('figure 11 SKIPPED: no versitygw in ~/.cache/savepoint-inspector and no `go` to build it (scripts/ensure-versitygw.ts)');
    return [];
  }
  const dir = path.resolve(savepointDir);
  // versitygw's posix backend serves each subfolder of its root as a bucket: a scratch root holding one link, `bench`,
  // to the bench folder (the savepoint's parent) makes that folder the bucket and the savepoint's folder the key prefix
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-s3-'));
  const root = path.join(scratch, 'root');
  mkdirSync(root);
  symlinkSync(path.dirname(dir), path.join(root, 'bench'));
  const url = `s3://bench/${path.basename(dir)}/`;
  const { bytes: totalBytes, files } = folderBytes(dir);
  buildCliBundle(); // fresh right before timing, or bin/ would fall back to tsx
  const cli = path.resolve(process.cwd(), 'bin/savepoint-inspector.mjs');
  const gw = await startGateway(bin, root);
  try {
    // 11a: the verdict, requests and bytes counted by the proxy
    const proxy = await startCountingProxy(gw.port);
    let check: { stdout: string; stderr: string; ms: number };
    const loadA = loadAverage();
    try {
      check = await runAsync(
        [cli, 'check', url, '--descriptors', newDescriptors, '--no-values', '--target', '0.x', '--format', 'json'],
        s3Env(proxy.endpoint, scratch),
        [0, 1],
      );
    } finally {
      await proxy.close();
    }
    const reqs = proxy.requests;
    const gets = reqs.filter((r) => r.method === 'GET' && r.range !== undefined).length;
    const heads = reqs.filter((r) => r.method === 'HEAD').length;
    const other = reqs.length - gets - heads;
    const read = proxy.bytes();
    log(`  11a: ${reqs.length} requests, ${read} bytes: ${reqs.map((r) => `${r.method} ${r.url}${r.range ? ` ${r.range}` : ''}`).join('; ')}`);
    // 11b: stats, local vs S3 (straight to versitygw), alternated
    const local = [] as Timed[];
    const remote = [] as Timed[];
    const env = s3Env(`http://127.0.0.1:${gw.port}`, scratch);
    const loadB = loadAverage();
    let stalledAfterMs: number | undefined;
    for (let i = 0; i < runs && stalledAfterMs === undefined; i++) {
      const l = timeStats([cli, 'stats', dir], process.env, undefined)!;
      local.push(l);
      // a stalled S3 scan is killed after 10× the local scan (at least 2 min) and reported, the bench goes on
      // (whole milliseconds: spawnSync refuses a fractional timeout, which a local scan above 12 s made)
      const limit = Math.max(120_000, Math.round(10 * l.ms));
      const r = timeStats([cli, 'stats', url], env, gw, limit);
      if (r === undefined) stalledAfterMs = limit;
      else remote.push(r);
    }
    const loadAfter = loadAverage();
    const med = (xs: Timed[], k: keyof Timed): number | undefined => {
      const v = xs.map((x) => x[k]).filter((x): x is number => x !== undefined);
      return v.length === xs.length ? median(v) : undefined;
    };
    const lMs = med(local, 'ms')!;
    const rMs = stalledAfterMs ?? med(remote, 'ms')!;
    const lCpu = med(local, 'cpuS');
    const rCpu = med(remote, 'cpuS');
    const gwCpu = med(remote, 'serverCpuS');
    const cpuText = (c: number | undefined) => (c === undefined ? '' : `, ${c.toFixed(1)} s CPU`);
    const ratio = rMs / lMs;
    return [
      {
        id: '11a',
        name: `\`check s3://…/savepoint --descriptors new.binpb --no-values\` against versitygw on loopback (posix backend serving the bench folder), whole process of the prebuilt bundle; requests and response bytes counted by a pass-through proxy (load average ${loadA})`,
        value: `${reqs.length} requests (${gets} ranged GET, ${heads} HEAD${other ? `, ${other} other` : ''}), ${fmtBytes(read)} read, ${fmtMs(check.ms)} wall`,
        ratio: `${((100 * read) / totalBytes).toFixed(5)} % of the savepoint's ${fmtBytes(totalBytes)} in ${files} files (\`_metadata\` + ${files - 1} state files)`,
        goal: 'kilobytes in a handful of requests (issue #29)',
        met: read < 1024 * 1024 && reqs.length <= 4 * files,
      },
      {
        id: '11b',
        name: `full \`stats\` scan from S3 (versitygw on loopback, no proxy) vs the same scan of the local folder, ${fmtBytes(totalBytes)}, whole processes of the prebuilt bundle, alternated, median of ${runs} (load average ${loadB} before, ${loadAfter} after)`,
        value:
          stalledAfterMs === undefined
            ? `${fmtMs(rMs)} wall${cpuText(rCpu)} in the CLI${gwCpu === undefined ? '' : ` + ${gwCpu.toFixed(1)} s in versitygw`}`
            : `did not finish: killed after ${fmtMs(stalledAfterMs)} (run ${local.length})`,
        ratio: `${stalledAfterMs === undefined ? ratio.toFixed(2) : `> ${ratio.toFixed(1)}`}× the local scan (${fmtMs(lMs)} wall${cpuText(lCpu)})${rCpu !== undefined && lCpu !== undefined ? `; CPU ${(rCpu / lCpu).toFixed(2)}× (CLI only)` : ''}`,
        goal: '≤ 1.5× local (issue #29)',
        met: stalledAfterMs === undefined && ratio <= 1.5,
      },
    ];
  } finally {
    await gw.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('figure-s3.ts')) {
  const root = process.env['BENCH_DIR'] ?? '/tmp/bench-savepoints';
  void measureS3(
    process.argv[2] ?? path.join(root, 'sp-2g'),
    process.argv[3] ?? path.join(root, 'bench-events-new.binpb'),
    console.log,
    Number(process.argv[4] ?? 3),
  ).then((fs) => {
    for (const f of fs) console.log(`${f.id} ${f.name}: ${f.value} (${f.ratio}; goal ${f.goal})${f.met ? ' — goal met' : ' — goal NOT met'}`);
  });
}
