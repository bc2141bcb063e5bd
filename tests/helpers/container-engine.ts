/**
 * A container engine for the test that builds and runs the Dockerfile (tests/cli-bundle/npm-package.test.ts):
 * Debian's `podman` when it is installed, else none (the test then says it was skipped and why).
 *
 * Two facts of the test machines shape it:
 * - No registry is reachable, so the recipe's pinned base (`node:20.19.4-bookworm-slim`) is used when the local
 *   image store holds it, else the recipe is built with `podman build --from` on a stand-in: an image imported
 *   from this machine's own Debian 12 files — its `node` (the version running the tests) with the shared
 *   libraries `ldd` names, npm, `/bin/sh`, `rm` and a `node` user of uid 1000, as the official image has. The
 *   recipe's own steps (COPY of the tarball, the offline `npm install --global`, USER, WORKDIR, ENTRYPOINT) run
 *   unchanged on it.
 * - The kernel here offers cgroup v1 controllers without CAP_SYS_RESOURCE: `crun` refuses that hybrid setup and
 *   podman's default rlimits (nofile 1048576) cannot be set. So `runc` with the cgroupfs manager when runc is
 *   installed, and rlimits no higher than the machine's.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ContainerEngine {
  /** `podman` with the global options this machine needs */
  command: string;
  global: string[];
  /** options for `build` and `run` (rlimits) */
  limits: string[];
}

function which(name: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export function findContainerEngine(): ContainerEngine | undefined {
  if (which('podman') === undefined) return undefined;
  const global = which('runc') === undefined ? [] : ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs'];
  return { command: 'podman', global, limits: ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'] };
}

export function runEngine(engine: ContainerEngine, args: readonly string[], options: { timeout?: number } = {}): SpawnSyncReturns<string> {
  return spawnSync(engine.command, [...engine.global, ...args], { encoding: 'utf8', timeout: options.timeout ?? 300_000 });
}

/**
 * The base image to build the recipe on: `pinned` when the local store has it, else the stand-in of this
 * machine's Node (built once, then kept in the store under a tag naming the Node version).
 */
export function ensureBaseImage(engine: ContainerEngine, pinned: string): { image: string; standIn: boolean } {
  if (runEngine(engine, ['image', 'exists', pinned]).status === 0) return { image: pinned, standIn: false };
  const tag = `localhost/savepoint-inspector-test-node:${process.version.slice(1)}`;
  if (runEngine(engine, ['image', 'exists', tag]).status === 0) return { image: tag, standIn: true };
  const root = mkdtempSync(path.join(tmpdir(), 'container-rootfs-'));
  try {
    const copyWithLibraries = (binary: string): void => {
      const real = realpathSync(binary);
      mkdirSync(path.join(root, path.dirname(binary)), { recursive: true });
      copyFileSync(real, path.join(root, binary));
      chmodSync(path.join(root, binary), 0o755);
      const libraries = execFileSync('ldd', [real], { encoding: 'utf8' }).match(/\/\S+/g) ?? [];
      for (const library of libraries) {
        const at = path.join(root, library);
        if (existsSync(at)) continue;
        mkdirSync(path.dirname(at), { recursive: true });
        copyFileSync(realpathSync(library), at);
      }
    };
    const node = process.execPath;
    copyWithLibraries(node);
    if (node !== '/usr/bin/node' && node !== '/usr/local/bin/node')
      throw new Error(`the stand-in base expects node in /usr/bin or /usr/local/bin, found ${node}`);
    for (const tool of ['/bin/sh', '/bin/rm', '/bin/mkdir', '/usr/bin/env']) copyWithLibraries(tool);
    // npm as Node's installation ships it: <prefix>/lib/node_modules/npm, <prefix>/bin/npm
    const prefix = path.dirname(path.dirname(node));
    const npm = path.join(prefix, 'lib/node_modules/npm');
    if (!existsSync(npm)) throw new Error(`npm not found at ${npm}`);
    cpSync(npm, path.join(root, npm), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(root, prefix, 'bin/npm'));
    for (const dir of ['etc', 'tmp', 'home/node', 'root']) mkdirSync(path.join(root, dir), { recursive: true });
    chmodSync(path.join(root, 'tmp'), 0o1777);
    writeFileSync(path.join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
    writeFileSync(path.join(root, 'etc/group'), 'root:x:0:\nnode:x:1000:\n');
    const archive = path.join(path.dirname(root), `${path.basename(root)}.tar`);
    // the node user owns its home, as in the official image (the tests run as root where podman runs rootful)
    if (process.getuid?.() === 0) chownSync(path.join(root, 'home/node'), 1000, 1000);
    execFileSync('tar', ['-C', root, '-cf', archive, '.'], { stdio: 'pipe' });
    const imported = runEngine(engine, ['import', archive, tag]);
    rmSync(archive, { force: true });
    if (imported.status !== 0) throw new Error(`podman import of the stand-in base failed: ${imported.stderr}`);
    return { image: tag, standIn: true };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
