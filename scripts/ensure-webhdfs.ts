/**
 * The WebHDFS server of the object-store tests (tests/object-stores/webhdfs-*.test.ts): Hadoop's own
 * MiniDFSCluster (org.apache.hadoop:hadoop-client-minicluster, Apache-2.0) started by the small launcher in
 * tests/helpers/hdfs/ (one NameNode, one DataNode, WebHDFS and permission checks on, every listener on
 * 127.0.0.1). Built with Maven from Maven Central into a cache outside the repository, once per machine, and
 * reused:
 *
 *   $SAVEPOINT_INSPECTOR_CACHE/webhdfs-minicluster-<hadoop>-<launcher>/launcher.jar and lib/*.jar
 *                                       the cache (default ~/.cache/savepoint-inspector)
 *
 * `npx tsx scripts/ensure-webhdfs.ts` builds it (.ci/run does, before `npm test`, so that the build does not
 * run beside the test files); the tests' setup calls ensureWebHdfs() too, which builds it when missing.
 * Concurrent callers wait on one build (a lock folder). Without `java` and `mvn` nothing is built: the
 * class path is undefined and the tests say that they are skipped, and why.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HADOOP_VERSION = '3.4.2';
/** bump with any change of tests/helpers/hdfs/ (pom.xml or the launcher), so that the cache is built again */
export const LAUNCHER_VERSION = '0.1.0';
export const LAUNCHER_CLASS = 'dev.savepointinspector.hdfs.WebHdfsServer';
const PROJECT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'tests', 'helpers', 'hdfs');
/** a cold build (Hadoop's ~100 MB of jars from Maven Central) took ~2 minutes here */
const BUILD_TIMEOUT_MS = 20 * 60 * 1000;
const STALE_LOCK_MS = BUILD_TIMEOUT_MS + 60 * 1000;

type Env = Record<string, string | undefined>;

export function webHdfsCacheDir(env: Env = process.env): string {
  const root = env['SAVEPOINT_INSPECTOR_CACHE'] ?? path.join(env['XDG_CACHE_HOME'] ?? path.join(homedir(), '.cache'), 'savepoint-inspector');
  return path.join(root, `webhdfs-minicluster-${HADOOP_VERSION}-${LAUNCHER_VERSION}`);
}

function runs(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether `java` runs here (the server needs it, built or not). */
export function hasJava(): boolean {
  return runs('java', ['-version']);
}

/** Whether `mvn` runs here (the build needs it). */
export function hasMaven(): boolean {
  return runs('mvn', ['-v']);
}

/** The java class path of the built server (launcher jar and its dependencies), when it is there (no build). */
export function findWebHdfs(env: Env = process.env): string | undefined {
  const dir = webHdfsCacheDir(env);
  const jar = path.join(dir, 'launcher.jar');
  if (!existsSync(jar) || !existsSync(path.join(dir, 'lib'))) return undefined;
  return [
    jar,
    ...readdirSync(path.join(dir, 'lib'))
      .filter((n) => n.endsWith('.jar'))
      .sort()
      .map((n) => path.join(dir, 'lib', n)),
  ].join(path.delimiter);
}

/**
 * The server's class path: the cached build, or one built now with Maven. Undefined when there is none and
 * `java` or `mvn` is absent. A failed build throws with Maven's output.
 */
export async function ensureWebHdfs(env: Env = process.env, log = (line: string): void => void process.stderr.write(`${line}\n`)): Promise<string | undefined> {
  const found = findWebHdfs(env);
  if (found !== undefined) return found;
  if (!hasJava() || !hasMaven()) return undefined;
  const dir = webHdfsCacheDir(env);
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
      else if (Date.now() - started > STALE_LOCK_MS)
        throw new Error(`waited ${Math.round(STALE_LOCK_MS / 60000)} min for another build of the WebHDFS server (${lock})`, { cause: e });
      await new Promise((r) => setTimeout(r, 2000));
      const built = findWebHdfs(env);
      if (built !== undefined) return built;
    }
  }
  try {
    const again = findWebHdfs(env);
    if (again !== undefined) return again;
    const tmp = `${dir}.build-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    log(`building the WebHDFS test server (Hadoop ${HADOOP_VERSION} MiniDFSCluster) with Maven into ${dir} (once per machine; a few minutes)`);
    await run(
      'mvn',
      [
        '-B',
        '-q',
        '-f',
        path.join(PROJECT, 'pom.xml'),
        `-Dwebhdfs.build.dir=${path.join(tmp, 'target')}`,
        'package',
        'dependency:copy-dependencies',
        `-DoutputDirectory=${path.join(tmp, 'lib')}`,
        '-DincludeScope=runtime',
      ],
      env,
    );
    renameSync(path.join(tmp, 'target', `webhdfs-minicluster-${LAUNCHER_VERSION}.jar`), path.join(tmp, 'launcher.jar'));
    rmSync(path.join(tmp, 'target'), { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
    return findWebHdfs(env);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], env: Env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, cwd: PROJECT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`mvn package (tests/helpers/hdfs, Hadoop ${HADOOP_VERSION}) failed (${signal ?? `exit ${code}`}):\n${output.slice(-4000)}`));
    });
  });
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cp = await ensureWebHdfs();
  if (cp === undefined) console.log('WebHDFS server: not built (no java or mvn here); the WebHDFS tests in tests/object-stores/ will say they are skipped');
  else console.log(`WebHDFS server: ${webHdfsCacheDir()}`);
}
