// Loads the prebuilt CLI bundle (dist-cli/savepoint-inspector.cjs, bin/build-cli.mjs) with its V8 code
// cache. A cold Node process spends much of a short command compiling and interpreting code it has
// never seen (the bundle's functions are compiled lazily, on first call); the code cache that
// build-cli.mjs trains on fixture inputs holds the bytecode of every function those runs compiled, so a
// command starts with it instead of parsing and compiling each function again (figure 4 of
// docs/benchmarks.md). V8 checks that the cache belongs to this V8 version, these flags and a source of
// this length, and rejects it otherwise (the bundle then compiles as usual). A source of the same length
// would pass that check with another bundle's bytecode, so the cache file starts with the SHA-256 of the
// very source the trainer compiled, and the loader uses the cache only for a source with that digest
// (a bundle edited, or rebuilt by another build while one trained, compiles as usual). Digest and
// bytecode are one file, written whole and renamed into place, so two trainers that finish together
// cannot leave one's digest next to the other's bytecode.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

export const BUNDLE_NAME = 'savepoint-inspector.cjs';
export const CODE_CACHE_NAME = 'savepoint-inspector.code-cache';
/**
 * The bundle of `compare` alone (src/cli/compare-entry.ts), with a code cache of its own: a third of the
 * full bundle's source, none of the other commands' module top levels (docs/benchmarks.md, figure 7).
 */
export const COMPARE_BUNDLE_NAME = 'savepoint-inspector-compare.cjs';
export const COMPARE_CODE_CACHE_NAME = 'savepoint-inspector-compare.code-cache';
/**
 * V8 flags a bundle runs under, set in this process before it compiles (no second process: a re-spawn
 * costs more than it saves). `compare` is a short process (~40 ms of its own work on real schema pairs):
 * with V8's default interrupt budget TurboFan starts optimizing its hottest functions on a background
 * thread within milliseconds, work the process ends before it pays back (~20 ms of CPU on the
 * opentelemetry-proto pair, ~30 ms on grpc-proto). A budget 32 times the default (67584) lets such a run
 * end in the interpreter and baseline code while a long one (a large set, a fat jar) still tiers up.
 * The flags are part of V8's code-cache check, so the trainer, which loads the bundle through
 * loadCliBundle, trains the cache under the same flags.
 */
const FLAGS = { all: [], compare: ['--interrupt-budget=2162688'] };
/** @typedef {'all' | 'compare'} BundleKind */
const FILES = { all: { bundle: BUNDLE_NAME, cache: CODE_CACHE_NAME }, compare: { bundle: COMPARE_BUNDLE_NAME, cache: COMPARE_CODE_CACHE_NAME } };

/** The bundle a command line runs: `compare` its own, anything else the full one. @returns {BundleKind} */
export function pickBundle(argv) {
  return argv[0] === 'compare' ? 'compare' : 'all';
}

/** @param {BundleKind} [kind] */
export function bundleFileName(kind = 'all') {
  return FILES[kind].bundle;
}
/** the cache file starts with one JSON line naming the source digest and the Node version, then the bytecode */
const NEWLINE = 0x0a;

/**
 * Compiles and evaluates a bundle of `distDir` as a CommonJS module (the full one unless `options.kind` says `compare`).
 * @param {string} distDir
 * @param {{ cache?: boolean, kind?: BundleKind }} [options] `cache: false` compiles without the code cache (training)
 * @returns {{ exports: { runMain(argv: string[]): Promise<void>, runCli(argv: string[], io: { stdout(t: string): void, stderr(t: string): void }): Promise<number> }, script: Script, source: string, kind: BundleKind, cache: 'used' | 'rejected' | 'none' }}
 */
export function loadCliBundle(distDir, options = {}) {
  distDir = path.resolve(distDir);
  const kind = options.kind ?? 'all';
  const file = path.join(distDir, FILES[kind].bundle);
  for (const flag of FLAGS[kind]) setFlagsFromString(flag);
  // the bytes are hashed as read, then decoded once (hashing the decoded string would encode 1.5 MB to UTF-8 again)
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  const cachedData = options.cache === false ? undefined : readCodeCache(path.join(distDir, FILES[kind].cache), bytes);
  // CommonJS's module wrapper; the bundle's first line is its own (no line offset for stack traces)
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, distDir);
  return { exports: module.exports, script, source, kind, cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used' };
}

/** Runs the CLI from the bundle of `distDir` that `argv` calls for (pickBundle) with this process's arguments and streams. */
export async function runCliBundle(distDir, argv) {
  await loadCliBundle(distDir, { kind: pickBundle(argv) }).exports.runMain(argv);
}

/** Writes the code cache of a loaded (and exercised) bundle, headed by the digest of the source it compiled. */
export function writeCodeCache(distDir, loaded) {
  const header = Buffer.from(`${JSON.stringify({ sourceSha256: digestOf(loaded.source), node: process.version })}\n`);
  const file = path.join(distDir, FILES[loaded.kind].cache);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.concat([header, loaded.script.createCachedData()]));
  renameSync(temporary, file);
}

/** @param {Buffer} sourceBytes the bundle file's bytes (the digest of the UTF-8 source the trainer compiled) */
function readCodeCache(file, sourceBytes) {
  if (!existsSync(file)) return undefined;
  try {
    const bytes = readFileSync(file);
    const end = bytes.indexOf(NEWLINE);
    if (end < 0 || end > 512) return undefined;
    const header = JSON.parse(bytes.subarray(0, end).toString('utf8'));
    if (header.node !== process.version || header.sourceSha256 !== digestOf(sourceBytes)) return undefined;
    return bytes.subarray(end + 1);
  } catch {
    return undefined;
  }
}

/** @param {string | Buffer} source */
function digestOf(source) {
  return createHash('sha256').update(source).digest('hex');
}
