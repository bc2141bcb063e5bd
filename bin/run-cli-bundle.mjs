// Loads the prebuilt CLI bundle (dist-cli/savepoint-inspector.cjs, bin/build-cli.mjs) with its V8 code
// cache. A cold Node process spends much of a short command compiling and interpreting code it has
// never seen (the bundle's functions are compiled lazily, on first call); the code cache that
// build-cli.mjs trains on fixture inputs holds the bytecode of every function those runs compiled, so a
// command starts with it instead of parsing and compiling each function again (figure 4 of
// docs/benchmarks.md). V8 checks that the cache belongs to this V8 version, these flags and a source of
// this length, and rejects it otherwise (the bundle then compiles as usual); the cache's manifest also
// records the bundle's size and modification time, so a bundle replaced or edited after training never
// runs with a cache of another bundle.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

export const BUNDLE_NAME = 'savepoint-inspector.cjs';
export const CODE_CACHE_NAME = 'savepoint-inspector.code-cache';
const MANIFEST_NAME = `${CODE_CACHE_NAME}.json`;

/**
 * Compiles and evaluates the bundle of `distDir` as a CommonJS module.
 * @param {string} distDir
 * @param {{ cache?: boolean }} [options] `cache: false` compiles without the code cache (training)
 * @returns {{ exports: { runMain(argv: string[]): Promise<void>, runCli(argv: string[], io: { stdout(t: string): void, stderr(t: string): void }): Promise<number> }, script: Script, cache: 'used' | 'rejected' | 'none' }}
 */
export function loadCliBundle(distDir, options = {}) {
  distDir = path.resolve(distDir);
  const file = path.join(distDir, BUNDLE_NAME);
  const source = readFileSync(file, 'utf8');
  const cachedData = options.cache === false ? undefined : readCodeCache(distDir, file);
  // CommonJS's module wrapper; the bundle's first line is its own (no line offset for stack traces)
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, distDir);
  return { exports: module.exports, script, cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used' };
}

/** Runs the CLI from the bundle of `distDir` with this process's arguments and streams. */
export async function runCliBundle(distDir, argv) {
  await loadCliBundle(distDir).exports.runMain(argv);
}

/** Writes the code cache of a loaded (and exercised) bundle, with the manifest that ties it to the bundle file. */
export function writeCodeCache(distDir, script) {
  const file = path.join(distDir, BUNDLE_NAME);
  const { size, mtimeMs } = statSync(file);
  writeFileSync(path.join(distDir, CODE_CACHE_NAME), script.createCachedData());
  writeFileSync(path.join(distDir, MANIFEST_NAME), `${JSON.stringify({ bundleSize: size, bundleMtimeMs: mtimeMs, node: process.version })}\n`);
}

function readCodeCache(distDir, file) {
  const cacheFile = path.join(distDir, CODE_CACHE_NAME);
  if (!existsSync(cacheFile)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, MANIFEST_NAME), 'utf8'));
    const { size, mtimeMs } = statSync(file);
    if (manifest.bundleSize !== size || manifest.bundleMtimeMs !== mtimeMs || manifest.node !== process.version) return undefined;
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}
