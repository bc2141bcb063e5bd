/**
 * A server of the object-store tests built from its Go module with `go install` into a cache outside the
 * repository, once per machine, and reused (scripts/ensure-versitygw.ts, scripts/ensure-fake-gcs-server.ts):
 *
 *   $<NAME>_BIN                         a binary to use as it is (no build)
 *   $SAVEPOINT_INSPECTOR_CACHE/<name>-<version>/<binary>
 *                                       the cache (default ~/.cache/savepoint-inspector)
 *
 * Concurrent callers wait on one build (a lock folder). Without `go` nothing is built: the path is
 * undefined and the tests say that they are skipped, and why.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface GoTool {
  /** the cache folder's name and the messages' */
  name: string;
  /** the package `go install` builds, e.g. github.com/versity/versitygw/cmd/versitygw */
  module: string;
  version: string;
  /** the binary `go install` writes (the package's last path element) */
  binary: string;
  /** the environment variable naming a binary to use instead */
  binEnv: string;
  /** how long a cold build may take */
  buildTimeoutMs: number;
}

type Env = Record<string, string | undefined>;

export function goToolCacheDir(tool: GoTool, env: Env = process.env): string {
  const root = env['SAVEPOINT_INSPECTOR_CACHE'] ?? path.join(env['XDG_CACHE_HOME'] ?? path.join(homedir(), '.cache'), 'savepoint-inspector');
  return path.join(root, `${tool.name}-${tool.version}`);
}

/** Whether `go` runs here. */
export function hasGo(): boolean {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The binary, when it is already there (no build). */
export function findGoTool(tool: GoTool, env: Env = process.env): string | undefined {
  const given = env[tool.binEnv];
  if (given) return existsSync(given) ? given : undefined;
  const bin = path.join(goToolCacheDir(tool, env), tool.binary);
  return existsSync(bin) ? bin : undefined;
}

/**
 * The tool's binary: the cached one, or one built now with `go install` (GOTOOLCHAIN=local: never a
 * toolchain download). Undefined when there is none and `go` is absent. A failed build throws with Go's output.
 */
export async function ensureGoTool(
  tool: GoTool,
  env: Env = process.env,
  log = (line: string): void => void process.stderr.write(`${line}\n`),
): Promise<string | undefined> {
  const found = findGoTool(tool, env);
  if (found !== undefined || env[tool.binEnv]) return found;
  if (!hasGo()) return undefined;
  const staleLockMs = tool.buildTimeoutMs + 60 * 1000;
  const dir = goToolCacheDir(tool, env);
  mkdirSync(path.dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'EEXIST') throw e;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > staleLockMs) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() - started > staleLockMs)
        throw new Error(`waited ${Math.round(staleLockMs / 60000)} min for another build of ${tool.name} (${lock})`, { cause: e });
      await new Promise((r) => setTimeout(r, 2000));
      const built = findGoTool(tool, env);
      if (built !== undefined) return built;
    }
  }
  try {
    const again = findGoTool(tool, env);
    if (again !== undefined) return again;
    const tmp = `${dir}.build-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    log(`building ${tool.name} ${tool.version} with go install into ${dir} (once per machine; a few minutes)`);
    await run(tool, { ...env, GOBIN: tmp, GOTOOLCHAIN: 'local' });
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    return path.join(dir, tool.binary);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function run(tool: GoTool, env: Env): Promise<void> {
  const what = `${tool.module}@${tool.version}`;
  return new Promise((resolve, reject) => {
    // from a folder outside any Go module, so that `go install pkg@version` builds that version alone
    const child = spawn('go', ['install', what], { env, cwd: homedir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), tool.buildTimeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`go install ${what} failed (${signal ?? `exit ${code}`}):\n${output.slice(-4000)}`));
    });
  });
}
