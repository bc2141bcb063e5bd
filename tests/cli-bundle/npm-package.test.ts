/**
 * The npm package (package.json "files", "bin", "prepack"): `npm pack` builds the app and the CLI bundle
 * and packs them without sources, tests or fixtures; the tarball installs offline into an empty project
 * (it has no runtime dependencies: the bundle holds them) and `npx savepoint-inspector` runs there with
 * Node alone — `--version`, `check`, `compare`, `export` answering as the sources do, and `serve` serving
 * the packed app behind its token; the Dockerfile's install step run as written on the same tarball (into a
 * temporary prefix); and, where a container engine is installed (Debian's podman), the image built from the
 * Dockerfile and run (tests/helpers/container-engine.ts: the pinned base, or a stand-in of this machine's Node
 * where no registry is reachable).
 *
 * In the CLI-bundle suite (`npm run test:cli-bundle`): packing runs `vite build` and the bundle build in
 * the repository (dist/ and dist-cli/, both gitignored build outputs), a minute of work on a busy machine.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli';
import { buildContentSecurityPolicy, metaContentSecurityPolicy } from '../../vite-plugins/content-security-policy';
import { requireCommitted } from '../helpers/committed-data';
import { ensureBaseImage, findContainerEngine, runEngine } from '../helpers/container-engine';
import { expandArgs, parseDockerfile } from '../helpers/parse-dockerfile';

const ROOT = process.cwd();
const SAVEPOINT = requireCommitted(path.resolve(ROOT, 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint'));
const DESCRIPTORS = requireCommitted(path.resolve(ROOT, 'src/ui/demo-schema/events-changed.binpb'));
const PAIR = path.resolve(ROOT, 'fixtures/schema-changes/field-type-changed');
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
// npm's own variables of an `npm test` run (dry-run, prefix, …) must not reach the npm commands run here
const engine = findContainerEngine();
if (engine === undefined)
  console.log(
    'container test skipped: no container engine (podman) on this machine; the Dockerfile is checked by tests/ci/dockerfile.test.ts and its install step run below',
  );
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

describe('the npm package runs with Node alone', () => {
  let dir = '';
  let tarball = '';
  let project = '';
  let files: string[] = [];
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'npm-package-'));
    execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: ROOT, stdio: 'pipe', env: cleanEnv });
    tarball = path.join(dir, `${packageJson.name}-${packageJson.version}.tgz`);
    files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => f.replace(/^package\//, ''));
    project = path.join(dir, 'project');
    execFileSync('mkdir', [project]);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'probe', version: '1.0.0', private: true }));
    // offline: nothing but the tarball itself is needed
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'pipe', env: cleanEnv });
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const npx = (args: string[]): { code: number | null; stdout: string; stderr: string } => {
    const r = spawnSync('npx', ['--offline', '--no-install', 'savepoint-inspector', ...args], { cwd: project, encoding: 'utf8', env: cleanEnv });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const inProcess = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { code, stdout, stderr };
  };

  it('packs the built app, the CLI bundle, the README, license, changelog and docs, and nothing else', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'bin/savepoint-inspector.mjs',
      'dist-cli/savepoint-inspector.cjs',
      'dist-cli/savepoint-inspector-compare.cjs',
      'dist-cli/scan-worker-entry.mjs',
      'dist-cli/snappy_bg.wasm',
      'dist-cli/sdk-aws-s3.cjs',
      'dist-cli/sdk-azure.cjs',
      'dist-cli/sdk-gcs.cjs',
      'dist/index.html',
      'docs/cli.md',
    ]) {
      expect(files).toContain(needed);
    }
    expect(files.filter((f) => /^(src|tests|fixtures|e2e|bench|scripts|vite-plugins)\//.test(f) || f.endsWith('.map') || f.endsWith('.ts'))).toEqual([]);
    // every file the README links to is in the package
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const docLinks = [...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]);
    expect(docLinks.length).toBeGreaterThan(0);
    for (const link of docLinks) expect(files).toContain(link);
    // no runtime dependency to fetch: the bundle holds every library it uses
    const installed = JSON.parse(readFileSync(path.join(project, 'node_modules/savepoint-inspector/package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(installed.dependencies ?? {}).toEqual({});
    expect(readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['savepoint-inspector']);
  });

  it('--version prints the package version', () => {
    expect(npx(['--version'])).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
  });

  it('check (JSON and SARIF), compare and export answer as the sources do', async () => {
    const withoutTimestamp = (json: string): unknown => ({ ...(JSON.parse(json) as Record<string, unknown>), generatedAt: undefined });
    for (const target of ['0.x', '1.x']) {
      const args = ['check', SAVEPOINT, '--descriptors', DESCRIPTORS, '--target', target, '--format', 'json'];
      const expected = await inProcess(args);
      const actual = npx(args);
      expect([actual.code, actual.stderr]).toEqual([expected.code, expected.stderr]);
      expect(withoutTimestamp(actual.stdout)).toEqual(withoutTimestamp(expected.stdout));
    }
    const sarif = ['check', SAVEPOINT, '--descriptors', DESCRIPTORS, '--target', '0.x', '--format', 'sarif'];
    const expectedSarif = await inProcess(sarif);
    expect(expectedSarif.stdout).toContain('"version": "2.1.0"');
    expect(npx(sarif)).toEqual(expectedSarif);
    const compare = ['compare', path.join(PAIR, 'new.binpb'), '--against', path.join(PAIR, 'old.binpb'), '--root', 'fixtures.change.Order'];
    const expectedCompare = await inProcess(compare);
    expect(expectedCompare.code).toBe(1);
    expect(npx(compare)).toEqual(expectedCompare);
    const exportTo = (file: string): string[] => [
      'export',
      SAVEPOINT,
      '--operator',
      'long-broadcast',
      '--state',
      'long-last-event',
      '--format',
      'jsonl',
      '--output',
      file,
      '--quiet',
    ];
    const expectedExport = await inProcess(exportTo(path.join(dir, 'sources.jsonl')));
    const actualExport = npx(exportTo(path.join(dir, 'package.jsonl')));
    expect(actualExport.code).toBe(0);
    expect(actualExport.stdout).toBe(expectedExport.stdout.replace('sources.jsonl', 'package.jsonl'));
    const rows = readFileSync(path.join(dir, 'package.jsonl'), 'utf8');
    expect(rows.trim().split('\n')).toHaveLength(4);
    expect(rows).toBe(readFileSync(path.join(dir, 'sources.jsonl'), 'utf8'));
  }, 120_000);

  it('serve: the packed app on 127.0.0.1, behind the printed token, with the CSP; a port in use is refused', async () => {
    const bin = path.join(project, 'node_modules/.bin/savepoint-inspector');
    const child: ChildProcess = spawn(bin, ['serve', '--port', '0'], { cwd: project, env: cleanEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64}/.exec(out);
          if (m) resolve(m[0]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toBe(readFileSync(path.join(project, 'node_modules/savepoint-inspector/dist/index.html'), 'utf8'));
      // connect-src names the companion's own loopback origin (its object-store API), nothing else
      expect(page.headers.get('content-security-policy')).toBe(buildContentSecurityPolicy(null, new URL(url).origin));
      const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
      const script = /src="(?:\.?\/)?(assets\/[^"]+\.js)"/.exec(html)![1]!;
      const origin = new URL(url).origin;
      const asset = await fetch(`${origin}/${script}`, { headers: { cookie } });
      expect([asset.status, asset.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
      expect((await fetch(`${origin}/${script}`)).status).toBe(403);
      // the static build's policy is in the page too; its offline copy is for static hosts, not here
      expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${metaContentSecurityPolicy()}" />`);
      expect((await fetch(`${origin}/service-worker.js`, { headers: { cookie } })).status).toBe(404);
      expect((await fetch(`${origin}/`)).status).toBe(403);
      // a port in use: a clear message, exit 2
      const port = new URL(url).port;
      expect(npx(['serve', '--port', port])).toEqual({
        code: 2,
        stdout: '',
        stderr: `savepoint-inspector serve: port ${port} on 127.0.0.1 is in use: choose another with --port N, or --port 0 for a free one\n`,
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
  it("the Dockerfile's install step installs the tarball, and the installed CLI runs from there as the image's entry point would", async () => {
    const instructions = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    const run = instructions.filter((i) => i.keyword === 'RUN');
    expect(run).toHaveLength(1);
    // the step as written, with the tarball where COPY puts it and the global prefix in a temporary folder
    const copied = path.join(dir, 'docker-tmp');
    execFileSync('mkdir', ['-p', copied]);
    execFileSync('cp', [tarball, copied]);
    const prefix = path.join(dir, 'docker-prefix');
    const step = expandArgs(instructions, run[0]!.args)
      .replaceAll('/tmp/', `${copied}/`)
      .replace('npm install --global', `npm install --global --prefix ${prefix}`)
      .replace('npm cache clean --force', 'true');
    execFileSync('bash', ['-c', step], { cwd: dir, stdio: 'pipe', env: cleanEnv });
    expect(readdirSync(copied)).toEqual([]);
    const entry = JSON.parse(instructions.find((i) => i.keyword === 'ENTRYPOINT')!.args) as string[];
    const bin = path.join(prefix, 'bin', entry[0]!);
    const cli = (args: string[]) => spawnSync(bin, args, { cwd: dir, encoding: 'utf8', env: cleanEnv });
    expect(cli(['--version']).stdout).toBe(`${packageJson.version}\n`);
    const args = ['check', SAVEPOINT, '--descriptors', DESCRIPTORS, '--target', '0.x', '--format', 'sarif'];
    const expected = await inProcess(args);
    const actual = cli(args);
    expect({ code: actual.status, stdout: actual.stdout, stderr: actual.stderr }).toEqual(expected);
  }, 120_000);

  // a container engine on the machine (Debian's podman): the recipe built and run for real
  it.skipIf(engine === undefined)(
    'the Dockerfile builds into an image whose entry point runs check as the package does, as the non-root user',
    async () => {
      const e = engine!;
      const instructions = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
      const base = ensureBaseImage(e, instructions[0]!.args);
      if (base.standIn)
        console.log(
          `container test: ${instructions[0]!.args} is not in the local image store and no registry is reachable; built on ${base.image} (this machine's Node and Debian files)`,
        );
      // the build context as .dockerignore leaves it: the recipe and the tarball
      const context = path.join(dir, 'container-context');
      execFileSync('mkdir', ['-p', context]);
      for (const f of ['Dockerfile', '.dockerignore']) execFileSync('cp', [path.join(ROOT, f), context]);
      execFileSync('cp', [tarball, context]);
      const image = `localhost/savepoint-inspector-test:${packageJson.version}-${process.pid}`;
      const built = runEngine(e, ['build', ...e.limits, ...(base.standIn ? ['--from', base.image] : []), '-t', image, context]);
      expect(built.status, built.stderr).toBe(0);
      try {
        const run = (args: string[], options: string[] = []) => {
          const r = runEngine(e, ['run', '--rm', ...e.limits, ...options, image, ...args]);
          return { code: r.status, stdout: r.stdout, stderr: r.stderr };
        };
        expect(run(['--version'])).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
        expect(run(['-p', 'process.getuid() + ":" + process.getgid()'], ['--entrypoint', 'node'])).toEqual({ code: 0, stdout: '1000:1000\n', stderr: '' });
        // the inputs mounted read-only at their own paths, so the report names them as the in-process run does
        const mounts = [SAVEPOINT, DESCRIPTORS].flatMap((p) => ['-v', `${p}:${p}:ro`]);
        for (const format of ['text', 'sarif']) {
          const args = ['check', SAVEPOINT, '--descriptors', DESCRIPTORS, '--target', '0.x', '--format', format];
          const expected = await inProcess(args);
          expect(expected.code).toBe(1);
          expect(run(args, mounts)).toEqual(expected);
        }
      } finally {
        runEngine(e, ['rmi', '--force', image]);
      }
    },
    600_000,
  );
});
