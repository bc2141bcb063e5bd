// Loads the prebuilt CLI bundle (dist-cli/savepoint-inspector.cjs, bin/build-cli.mjs) with its V8 code
// cache. A cold Node process spends much of a short command compiling and interpreting code it has
// never seen (the bundle's functions are compiled lazily, on first call); the code cache that
// build-cli.mjs trains on fixture inputs holds the bytecode of every function those runs compiled, so a
// command starts with it instead of parsing and compiling each function again (figure 4 of
// docs/benchmarks.md). V8 checks that the cache belongs to this V8 version, these flags and a source of
// this length, and rejects it otherwise (the bundle then compiles as usual). A source of the same length
// would pass that check with another bundle's bytecode, so the cache's manifest records the SHA-256 of the
// very source the trainer compiled, and the loader uses the cache only for a source with that digest
// (a bundle edited, or rebuilt by another build while one trained, compiles as usual).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
 * @returns {{ exports: { runMain(argv: string[]): Promise<void>, runCli(argv: string[], io: { stdout(t: string): void, stderr(t: string): void }): Promise<number> }, script: Script, source: string, cache: 'used' | 'rejected' | 'none' }}
 */
export function loadCliBundle(distDir, options = {}) {
  distDir = path.resolve(distDir);
  const file = path.join(distDir, BUNDLE_NAME);
  const source = readFileSync(file, 'utf8');
  const cachedData = options.cache === false ? undefined : readCodeCache(distDir, source);
  // CommonJS's module wrapper; the bundle's first line is its own (no line offset for stack traces)
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, distDir);
  return { exports: module.exports, script, source, cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used' };
}

/** Runs the CLI from the bundle of `distDir` with this process's arguments and streams. */
export async function runCliBundle(distDir, argv) {
  await loadCliBundle(distDir).exports.runMain(argv);
}

/** Writes the code cache of a loaded (and exercised) bundle, with the manifest that ties it to the source it compiled. */
export function writeCodeCache(distDir, loaded) {
  writeFileSync(path.join(distDir, CODE_CACHE_NAME), loaded.script.createCachedData());
  writeFileSync(path.join(distDir, MANIFEST_NAME), `${JSON.stringify({ sourceSha256: digestOf(loaded.source), node: process.version })}\n`);
}

function readCodeCache(distDir, source) {
  const cacheFile = path.join(distDir, CODE_CACHE_NAME);
  if (!existsSync(cacheFile)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, MANIFEST_NAME), 'utf8'));
    if (manifest.node !== process.version || manifest.sourceSha256 !== digestOf(source)) return undefined;
    return readFileSync(cacheFile);
  } catch {
    return undefined;
  }
}

function digestOf(source) {
  return createHash('sha256').update(source).digest('hex');
}
