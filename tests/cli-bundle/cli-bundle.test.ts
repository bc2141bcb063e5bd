/**
 * The prebuilt CLI bundle (`npm run build:cli`, bin/build-cli.mjs): bin/savepoint-inspector.mjs runs
 * it only while it is fresh (tests/bin/is-bundle-fresh.test.ts), with the V8 code cache trained at
 * build time (bin/run-cli-bundle.mjs), and the bundle (with its bundled scan worker) answers exactly
 * like the TypeScript sources: `check` and `compare` reports and `stats` with two worker threads, with
 * the cache and without it. `compare` runs the bundle of that command alone
 * (savepoint-inspector-compare.cjs, its own cache), which answers as the full bundle and the sources do.
 *
 * Not part of the unit run: it builds the bundle (esbuild, then a process that trains the code cache)
 * into a temporary folder, seconds of work that timed the unit run out under load. `npm test` runs it
 * as a step of its own (`npm run test:cli-bundle`, vitest.cli-bundle.config.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSnappyWasm } from '../../src/cli/install-snappy-wasm';
import { runCli } from '../../src/cli/run-cli';
import { buildDescriptorSet } from '../conformance/build-descriptor-set';
import { ACCOUNT as AZURE_ACCOUNT, ACCOUNT_KEY as AZURE_KEY, startAzurite, uploadFolder as uploadAzureFolder } from '../helpers/azurite';
import { requireCommitted } from '../helpers/committed-data';
import { canRunFakeGcsServer, startFakeGcsServer, uploadFolder as uploadGcsFolder } from '../helpers/fake-gcs-server';
import { ACCESS_KEY, canRunVersitygw, createBucket, SECRET_KEY, startVersitygw, uploadFolder as uploadS3Folder } from '../helpers/versitygw';

const ROOT = process.cwd();
const SAVEPOINT = path.resolve(ROOT, 'fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const PROTO_DIR = path.resolve(ROOT, 'fixtures/flink-writer/src/main/proto');

requireCommitted(SAVEPOINT, PROTO_DIR);

// the object-store servers are built from their Go modules (tests/helpers/versitygw.ts, fake-gcs-server.ts); Azurite comes from npm
const STORES = canRunVersitygw() && canRunFakeGcsServer();
if (!STORES)
  console.warn('tests/cli-bundle/cli-bundle.test.ts: the object-store case is SKIPPED — no versitygw/fake-gcs-server binary and no `go` to build them');

describe('the bundled CLI answers like the TypeScript sources', () => {
  let dir = '';
  let out = '';
  let descriptors = '';
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cli-bundle-'));
    out = path.join(dir, 'dist-cli');
    execFileSync(process.execPath, [path.join(ROOT, 'bin/build-cli.mjs'), '--outdir', out], { stdio: 'pipe' });
    const events = await readFile(path.join(PROTO_DIR, 'fixtures/events.proto'), 'utf8');
    const common = await readFile(path.join(PROTO_DIR, 'fixtures/common.proto'), 'utf8');
    descriptors = path.join(dir, 'sint.binpb');
    writeFileSync(
      descriptors,
      await buildDescriptorSet({ 'fixtures/events.proto': events.replace('  int64 id = 1;', '  sint64 id = 1;'), 'fixtures/common.proto': common }),
    );
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const inProcess = async (args: string[]): Promise<{ code: number; stdout: string }> => {
    let stdout = '';
    const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: () => undefined });
    return { code, stdout };
  };
  const inProcessAll = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { code, stdout, stderr };
  };
  // as bin/savepoint-inspector.mjs runs a fresh bundle: through the loader, with the code cache (a file, not -e: worker threads inherit the flags)
  const bundled = (args: string[], env: NodeJS.ProcessEnv = process.env): { code: number | null; stdout: string; stderr: string } => {
    const runner = path.join(dir, 'run.mjs');
    if (!existsSync(runner))
      writeFileSync(
        runner,
        `import { runCliBundle } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'bin/run-cli-bundle.mjs')).href)};\nawait runCliBundle(${JSON.stringify(out)}, process.argv.slice(2));\n`,
      );
    const r = spawnSync(process.execPath, [runner, ...args], { encoding: 'utf8', cwd: ROOT, env });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  // the bundle run directly: no code cache
  const direct = (args: string[]): { code: number | null; stdout: string; stderr: string } => {
    const r = spawnSync(process.execPath, [path.join(out, 'savepoint-inspector.cjs'), ...args], { encoding: 'utf8', cwd: ROOT });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  // one bundle of the two, whatever the command (the full bundle runs compare too)
  const bundledAs = (kind: 'all' | 'compare', args: string[]): { code: number | null; stdout: string; stderr: string } => {
    const probe = `import { loadCliBundle } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'bin/run-cli-bundle.mjs')).href)}; await loadCliBundle(process.argv[1], { kind: process.argv[2] }).exports.runMain(process.argv.slice(3));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe, out, kind, ...args], { encoding: 'utf8', cwd: ROOT });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const cacheStateOf = (kind: 'all' | 'compare'): string => {
    const probe = `import { loadCliBundle } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'bin/run-cli-bundle.mjs')).href)}; process.stdout.write(loadCliBundle(process.argv[1], { kind: process.argv[2] }).cache);`;
    return spawnSync(process.execPath, ['--input-type=module', '-e', probe, out, kind], { encoding: 'utf8' }).stdout;
  };
  const withoutTimestamp = (json: string): unknown => {
    const report = JSON.parse(json) as Record<string, unknown>;
    delete report['generatedAt'];
    return report;
  };

  it('lists its sources (including the scan worker) for the freshness check', () => {
    const { sources } = JSON.parse(readFileSync(path.join(out, 'inputs.json'), 'utf8')) as { sources: string[] };
    expect(sources).toContain('src/cli/bundle-entry.ts');
    expect(sources).toContain('bin/run-cli-bundle.mjs');
    expect(sources).toContain('src/cli/scan/scan-worker.ts');
    expect(sources).toContain('src/core/compat/rules/evaluate-schema-change.ts');
    expect(sources.every((s) => existsSync(path.join(ROOT, s)))).toBe(true);
    const compareSources = (JSON.parse(readFileSync(path.join(out, 'compare-inputs.json'), 'utf8')) as { sources: string[] }).sources;
    expect(compareSources).toContain('src/cli/compare-entry.ts');
    expect(compareSources).toContain('src/core/compat/rules/evaluate-schema-change.ts');
    expect(compareSources).toContain('bin/run-cli-bundle.mjs');
    expect(compareSources).not.toContain('src/cli/bundle-entry.ts');
    expect(compareSources.every((s) => sources.includes(s))).toBe(true);
  });

  it('the compare bundle holds compare alone: none of the other commands, nor the savepoint readers', () => {
    const source = readFileSync(path.join(out, 'savepoint-inspector-compare.cjs'), 'utf8');
    expect(source).toContain('// src/cli/commands/compare.ts');
    for (const absent of ['src/cli/commands/check.ts', 'src/cli/commands/export.ts', 'src/core/flink/', 'hyparquet-writer', 'apache-arrow'])
      expect(source).not.toContain(`// ${absent}`);
    // only compare is known to it; the launcher never runs it for another command
    const other = bundledAs('compare', ['inspect', SAVEPOINT]);
    expect([other.code, other.stderr.split('\n')[0]]).toEqual([2, "savepoint-inspector: unknown command 'inspect'"]);
  }, 60_000);

  it('check: the same exit code and JSON report, 0.x and 1.x', async () => {
    for (const target of ['0.x', '1.x']) {
      const args = ['check', SAVEPOINT, '--descriptors', descriptors, '--target', target, '--format', 'json'];
      const expected = await inProcess(args);
      expect(expected.code).toBe(1); // sint64 id: incompatible under both lines
      for (const actual of [bundled(args), direct(args)]) {
        expect(actual.stderr).toBe('');
        expect(actual.code).toBe(expected.code);
        expect(withoutTimestamp(actual.stdout)).toEqual(withoutTimestamp(expected.stdout));
      }
    }
  }, 60_000);

  it("RocksDB native state: the bundle decompresses Snappy blocks with snappy-wasm's module from beside it, to the same dump and stats", async () => {
    expect(existsSync(path.join(out, 'snappy_bg.wasm'))).toBe(true);
    expect(findSnappyWasm(pathToFileURL(path.join(out, 'savepoint-inspector.cjs')).href)).toBe(path.join(out, 'snappy_bg.wasm'));
    const native = path.join(ROOT, 'fixtures/savepoints/flink-1.20/rocksdb/native/savepoint');
    for (const args of [
      ['dump', native, '--operator', '6d821971c3bfd7ae2c972e89d7414f7c', '--state', 'events-by-name'],
      ['stats', native, '--workers', '2', '--json'],
    ]) {
      const expected = await inProcessAll(args);
      expect(expected.code).toBe(0);
      const actual = bundled(args);
      expect([actual.code, actual.stdout, actual.stderr]).toEqual([expected.code, expected.stdout, expected.stderr]);
    }
  }, 60_000);

  it('compare: the same report in every format', async () => {
    const pair = (side: string) => path.join(ROOT, 'fixtures/schema-changes/field-type-changed', `${side}.binpb`);
    for (const format of ['text', 'json', 'junit']) {
      const args = ['compare', pair('new'), '--against', pair('old'), '--root', 'fixtures.change.Order', '--format', format];
      const expected = await inProcess(args);
      // bundled: the compare bundle, as the launcher picks it; then the full bundle, and the compare bundle run directly (no cache)
      const direct = spawnSync(process.execPath, [path.join(out, 'savepoint-inspector-compare.cjs'), ...args], { encoding: 'utf8', cwd: ROOT });
      for (const actual of [bundled(args), bundledAs('all', args), { code: direct.status, stdout: direct.stdout, stderr: direct.stderr }]) {
        expect([actual.code, actual.stdout, actual.stderr]).toEqual([expected.code, expected.stdout, '']);
      }
    }
    // job jars: the compare bundle loads fflate (inflating the class files) on the first jar only
    const jar = (name: string) => path.join(ROOT, 'fixtures/job-jars/jars', name);
    for (const args of [
      ['compare', '--job-jar', jar('thin-4.36.2.jar'), '--against', jar('json-name-4.36.2.jar'), '--root', 'fixtures.events.Event', '--format', 'json'],
      ['compare', '--job-jar', jar('relocated-4.36.2.jar'), '--against', jar('shaded-3.25.9.jar'), '--root', 'fixtures.events.Event'],
    ]) {
      const expected = await inProcessAll(args);
      expect(expected.code === 0 || expected.code === 1).toBe(true);
      const actual = bundled(args);
      expect([actual.code, actual.stdout, actual.stderr]).toEqual([expected.code, expected.stdout, expected.stderr]);
    }
    // usage errors and --help name the command and its usage as the full CLI does
    for (const args of [
      ['compare', '--help'],
      ['compare', '--against'],
      ['compare', 'x.binpb', '--against', 'y.binpb'],
    ]) {
      const expected = await inProcessAll(args);
      const actual = bundled(args);
      expect([actual.code, actual.stdout, actual.stderr]).toEqual([expected.code, expected.stdout, expected.stderr]);
    }
  }, 60_000);

  const checkCacheOf = (kind: 'all' | 'compare', name: string): void => {
    const cacheState = (): string => cacheStateOf(kind);
    const bundled = (args: string[]) => bundledAs(kind, args);
    expect(existsSync(path.join(out, `${name}.code-cache`))).toBe(true);
    expect(cacheState()).toBe('used');
    // the same bundle touched: still its cache
    const bundle = path.join(out, `${name}.cjs`);
    const t = Date.now() / 1000;
    utimesSync(bundle, t + 5, t + 5);
    expect(cacheState()).toBe('used');
    // an edit of the same length (which V8's own check lets through): compiled without the cache, and it runs the edited code
    const source = readFileSync(bundle, 'utf8');
    expect(source.includes('? "Schema" : "Savepoint"')).toBe(true);
    writeFileSync(bundle, source.replace('? "Schema" : "Savepoint"', '? "SCHEMA" : "Savepoint"'));
    expect(cacheState()).toBe('none');
    const pair = (side: string) => path.join(ROOT, 'fixtures/schema-changes/field-renamed', `${side}.binpb`);
    expect(bundled(['compare', pair('new'), '--against', pair('old'), '--root', 'fixtures.change.Order']).stdout.split('\n')[0]).toBe(
      'SCHEMA compatibility: INCOMPATIBLE',
    );
    writeFileSync(bundle, source);
    expect(cacheState()).toBe('used');
    // another build replaces the bundle (same length) while a trainer exercises the old one: the cache it writes is the old source's
    const race = path.join(dir, 'race.mjs');
    writeFileSync(
      race,
      [
        `import { readFileSync, writeFileSync } from 'node:fs';`,
        `import { loadCliBundle, writeCodeCache } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'bin/run-cli-bundle.mjs')).href)};`,
        `const loaded = loadCliBundle(process.argv[2], { cache: false, kind: ${JSON.stringify(kind)} });`,
        `writeFileSync(process.argv[3], readFileSync(process.argv[3], 'utf8').replace('? "Schema" : "Savepoint"', '? "SCHEMA" : "Savepoint"'));`,
        `writeCodeCache(process.argv[2], loaded);`,
      ].join('\n'),
    );
    execFileSync(process.execPath, [race, out, bundle]);
    expect(cacheState()).toBe('none');
    expect(bundled(['compare', pair('new'), '--against', pair('old'), '--root', 'fixtures.change.Order']).stdout.split('\n')[0]).toBe(
      'SCHEMA compatibility: INCOMPATIBLE',
    );
    writeFileSync(bundle, source);
    execFileSync(process.execPath, [path.join(ROOT, 'bin/train-cli-code-cache.mjs'), out]);
    expect(cacheState()).toBe('used');
  };

  it('starts with the trained code cache, and never with the cache of another source (each bundle its own)', () => {
    for (const [kind, name] of [
      ['all', 'savepoint-inspector'],
      ['compare', 'savepoint-inspector-compare'],
    ] as const)
      checkCacheOf(kind, name);
  }, 120_000);

  it('stats with 2 worker threads: the bundled worker gives the same statistics', async () => {
    const args = ['stats', SAVEPOINT, '--workers', '2', '--format', 'json'];
    const expected = await inProcess(args);
    const actual = bundled(args);
    expect(actual.stderr).toBe('');
    expect(actual.code).toBe(expected.code);
    const parsed = JSON.parse(actual.stdout) as { workers: number; errors: unknown[] };
    expect(parsed.workers).toBe(2);
    expect(parsed.errors).toEqual([]);
    expect(parsed).toEqual(JSON.parse(expected.stdout));
  }, 60_000);

  it.skipIf(!STORES)(
    "object-store URLs: each store's SDK is a bundle of its own beside the CLI's, loaded on the first URL of that store by the CLI and by its worker threads",
    async () => {
      // none of the SDKs is in the CLI's bundle or its worker's: a command that opens no URL neither parses nor holds them
      const cli = readFileSync(path.join(out, 'savepoint-inspector.cjs'), 'utf8');
      const worker = readFileSync(path.join(out, 'scan-worker-entry.mjs'), 'utf8');
      for (const pkg of ['@aws-sdk/client-s3', '@azure/storage-blob', '@azure/identity', '@google-cloud/storage', '@smithy/', '@azure/core-rest-pipeline']) {
        expect(cli).not.toContain(`// node_modules/${pkg}`);
        expect(worker).not.toContain(`// node_modules/${pkg}`);
      }
      for (const [file, pkg] of [
        ['sdk-aws-s3.cjs', '@aws-sdk/client-s3'],
        ['sdk-azure.cjs', '@azure/storage-blob'],
        ['sdk-azure.cjs', '@azure/identity'],
        ['sdk-gcs.cjs', '@google-cloud/storage'],
      ] as const)
        expect([file, pkg, readFileSync(path.join(out, file), 'utf8').includes(`node_modules/${pkg}/`)]).toEqual([file, pkg, true]);

      // and each is found and used: the same savepoint from versitygw, Azurite and fake-gcs-server, through the bundle and
      // through the sources, `inspect` in the CLI's process and `stats` in two worker threads
      const gw = await startVersitygw();
      const azurite = await startAzurite();
      const gcs = await startFakeGcsServer();
      const scratch = mkdtempSync(path.join(tmpdir(), 'cli-bundle-stores-'));
      const saved = { ...process.env };
      try {
        await createBucket(gw.client, 'savepoints');
        await uploadS3Folder(gw.client, 'savepoints', SAVEPOINT, 'sp/');
        await azurite.client.getContainerClient('savepoints').create();
        await uploadAzureFolder(azurite.client, 'savepoints', SAVEPOINT, 'sp/');
        await gcs.storage.createBucket('savepoints');
        await uploadGcsFolder(gcs.storage, 'savepoints', SAVEPOINT, 'sp/');
        const env: NodeJS.ProcessEnv = {
          AWS_ACCESS_KEY_ID: ACCESS_KEY,
          AWS_SECRET_ACCESS_KEY: SECRET_KEY,
          AWS_ENDPOINT_URL_S3: gw.endpoint,
          AWS_CONFIG_FILE: path.join(scratch, 'no-aws-config'),
          AWS_SHARED_CREDENTIALS_FILE: path.join(scratch, 'no-aws-credentials'),
          AWS_EC2_METADATA_DISABLED: 'true',
          AZURE_STORAGE_BLOB_ENDPOINT: azurite.endpoint,
          AZURE_STORAGE_KEY: AZURE_KEY,
          STORAGE_EMULATOR_HOST: gcs.endpoint,
        };
        for (const k of Object.keys(process.env)) if (/^(AWS_|AZURE_|STORAGE_EMULATOR_HOST|GOOGLE_)/.test(k)) delete process.env[k];
        Object.assign(process.env, env);
        for (const url of ['s3://savepoints/sp', `abfss://savepoints@${AZURE_ACCOUNT}.dfs.core.windows.net/sp`, 'gs://savepoints/sp']) {
          for (const args of [
            ['inspect', url],
            ['stats', url, '--workers', '2', '--format', 'json'],
          ]) {
            const expected = await inProcessAll(args);
            expect([url, args[0], expected.code]).toEqual([url, args[0], 0]);
            const actual = bundled(args, { ...process.env });
            expect([url, args[0], actual.code, actual.stderr]).toEqual([url, args[0], 0, expected.stderr]);
            expect(actual.stdout).toBe(expected.stdout);
          }
        }
      } finally {
        for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
        Object.assign(process.env, saved);
        rmSync(scratch, { recursive: true, force: true });
        await Promise.all([gw.stop(), azurite.stop(), gcs.stop()]);
      }
    },
    300_000,
  );
});
