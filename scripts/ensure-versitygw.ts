/**
 * The S3-compatible server of the object-store tests (tests/object-stores/): Versity's S3 gateway,
 * versitygw (Apache-2.0), which checks request signatures and serves byte ranges. Built from its Go
 * module with `go install` into a cache outside the repository, once per machine, and reused:
 *
 *   $VERSITYGW_BIN                      a binary to use as it is (no build)
 *   $SAVEPOINT_INSPECTOR_CACHE/versitygw-<version>/versitygw
 *                                       the cache (default ~/.cache/savepoint-inspector)
 *
 * `npx tsx scripts/ensure-versitygw.ts` builds it (.ci/run does, before `npm test`, so that the build does not
 * run beside the test files); the tests' setup calls ensureVersitygw() too, which builds it when missing.
 * Concurrent callers wait on one build (a lock folder). Without `go` nothing is built: the path is
 * undefined and the tests say that they are skipped, and why.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const VERSITYGW_MODULE = 'github.com/versity/versitygw/cmd/versitygw';
export const VERSITYGW_VERSION = 'v1.8.0';
/** a cold build (module download and compile) took ~12 minutes on a 2-core machine */
const BUILD_TIMEOUT_MS = 30 * 60 * 1000;
const STALE_LOCK_MS = BUILD_TIMEOUT_MS + 60 * 1000;

type Env = Record<string, string | undefined>;

export function versitygwCacheDir(env: Env = process.env): string {
  const root = env['SAVEPOINT_INSPECTOR_CACHE'] ?? path.join(env['XDG_CACHE_HOME'] ?? path.join(homedir(), '.cache'), 'savepoint-inspector');
  return path.join(root, `versitygw-${VERSITYGW_VERSION}`);
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
export function findVersitygw(env: Env = process.env): string | undefined {
  const given = env['VERSITYGW_BIN'];
  if (given) return existsSync(given) ? given : undefined;
  const bin = path.join(versitygwCacheDir(env), 'versitygw');
  return existsSync(bin) ? bin : undefined;
}

/**
 * The versitygw binary: the cached one, or one built now with `go install` (GOTOOLCHAIN=local: never a
 * toolchain download). Undefined when there is none and `go` is absent. A failed build throws with Go's output.
 */
export async function ensureVersitygw(env: Env = process.env, log = (line: string): void => void process.stderr.write(`${line}\n`)): Promise<string | undefined> {
  const found = findVersitygw(env);
  if (found !== undefined || env['VERSITYGW_BIN']) return found;
  if (!hasGo()) return undefined;
  const dir = versitygwCacheDir(env);
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
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() - started > STALE_LOCK_MS) throw new Error(`waited ${Math.round(STALE_LOCK_MS / 60000)} min for another build of versitygw (${lock})`, { cause: e });
      await new Promise((r) => setTimeout(r, 2000));
      const built = findVersitygw(env);
      if (built !== undefined) return built;
    }
  }
  try {
    const again = findVersitygw(env);
    if (again !== undefined) return again;
    const tmp = `${dir}.build-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    log(`building versitygw ${VERSITYGW_VERSION} with go install into ${dir} (once per machine; a few minutes)`);
    await run('go', ['install', `${VERSITYGW_MODULE}@${VERSITYGW_VERSION}`], { ...env, GOBIN: tmp, GOTOOLCHAIN: 'local' });
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    return path.join(dir, 'versitygw');
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], env: Env): Promise<void> {
  return new Promise((resolve, reject) => {
    // from a folder outside any Go module, so that `go install pkg@version` builds that version alone
    const child = spawn(cmd, args, { env, cwd: homedir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`go install ${VERSITYGW_MODULE}@${VERSITYGW_VERSION} failed (${signal ?? `exit ${code}`}):\n${output.slice(-4000)}`));
    });
  });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bin = await ensureVersitygw();
  if (bin === undefined) console.log('versitygw: not built (no go here); the S3 tests in tests/object-stores/ will say they are skipped');
  else console.log(`versitygw: ${bin}`);
}
