#!/usr/bin/env node
// `npm run build:cli`: bundles the CLI (src/cli/bundle-entry.ts, CommonJS so that bin/run-cli-bundle.mjs
// can compile it with a V8 code cache), `compare` alone (src/cli/compare-entry.ts, the same way: the
// bundle bin/savepoint-inspector.mjs runs for that command) and the parallel scan's worker thread (src/cli/scan/scan-worker.ts,
// ESM) with esbuild into dist-cli/ (gitignored), so the CLI starts without compiling TypeScript (tsx
// costs ~0.5 s per process and per worker thread), then trains the code cache in a process of its own
// (bin/train-cli-code-cache.mjs). The worker bundle is named scan-worker-entry.mjs next to the CLI
// bundle, which is the file run-parallel-scan.ts starts relative to its own module (import.meta.url
// in the CommonJS bundle is the bundle file's URL). dist-cli/inputs.json lists every source file of
// the bundles, dist-cli/compare-inputs.json those of the compare bundle: bin/savepoint-inspector.mjs
// runs a bundle only while none of its sources is newer than it.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir DIR` (tests build into a temporary folder); default dist-cli/
const outArg = process.argv.indexOf('--outdir');
const outdir = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(root, 'dist-cli');
mkdirSync(outdir, { recursive: true });
const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', metafile: true, logLevel: 'warning' };
const commonJs = {
  ...common,
  format: 'cjs',
  define: { 'import.meta.url': '__bundleUrl' },
  // the banner comes before esbuild's own "use strict", which then is no directive: keep the bundle strict as the ESM sources are
  banner: { js: "'use strict';\nconst __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
// The compare bundle takes only the modules whose exports `compare` uses: the project's sources are declared
// free of side effects at import (none is imported for one; only the app's CSS is, outside the CLI), so a
// module reached through a folder's facade that the command never calls (Flink's snapshot readers, RocksDB,
// the savepoint scan) is left out instead of evaluated for its top-level tables.
const sourcesDir = path.join(root, 'src') + path.sep;
const sourcesWithoutSideEffects = {
  name: 'sources-without-side-effects',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const r = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: 'resolving' });
      if (r.errors.length > 0 || !r.path.startsWith(sourcesDir)) return undefined;
      return { path: r.path, sideEffects: false };
    });
  },
};
// fflate builds its Huffman tables at import (~5 ms of a compare process's top level), needed only to read a
// jar: in the compare bundle the sources' `import … from 'fflate'` takes a module that requires fflate's own
// CommonJS build on the first call (esbuild's CommonJS wrapper runs a module when it is first required).
// Only the names the sources import are forwarded; a name missing here fails the build.
const lazyFflate = {
  name: 'lazy-fflate',
  setup(b) {
    b.onResolve({ filter: /^fflate$/ }, (args) =>
      args.kind === 'import-statement' && args.importer.startsWith(sourcesDir) ? { path: 'fflate', namespace: 'lazy-fflate' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-fflate' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: [
        'let loaded;',
        "const fflate = () => (loaded ??= require('fflate'));",
        ...['Inflate', 'Gunzip'].map((name) => `export class ${name} { constructor(...args) { return new (fflate().${name})(...args); } }`),
        ...['strFromU8', 'strToU8', 'inflateSync', 'deflateSync'].map((name) => `export function ${name}(...args) { return fflate().${name}(...args); }`),
      ].join('\n'),
    }));
  },
};
// The object-store SDKs (AWS, Azure, Google Cloud: ~7 MB of the bundle's code) are loaded only when a command opens a URL of
// their store (the sources import them with `await import(…)`, src/cli/sources/*/…-store.ts). Bundled inline, every
// process and every scan worker thread parsed them and held their text: `--version` took 110 MB RSS instead of 68 MB and
// each `stats` worker thread parsed a 7 MB bundle. So each SDK is a bundle of its own beside the CLI's (sdk-*.cjs, built
// below), which the CLI and its worker threads require on that first `import()` (relative to the bundle file).
const LAZY_SDKS = {
  '@aws-sdk/client-s3': ['sdk-aws-s3.cjs', 'clientS3'],
  '@azure/storage-blob': ['sdk-azure.cjs', 'storageBlob'],
  '@azure/identity': ['sdk-azure.cjs', 'identity'],
  '@google-cloud/storage': ['sdk-gcs.cjs', 'storage'],
};
// one bundle per store; Azure's two packages in one, so that the credential of @azure/identity and the client of
// @azure/storage-blob share their @azure/core-* modules as they do installed
const SDK_BUNDLES = {
  'sdk-aws-s3.cjs': { clientS3: '@aws-sdk/client-s3' },
  'sdk-azure.cjs': { storageBlob: '@azure/storage-blob', identity: '@azure/identity' },
  'sdk-gcs.cjs': { storage: '@google-cloud/storage' },
};
const lazySdks = {
  name: 'lazy-sdks',
  setup(b) {
    const names = Object.keys(LAZY_SDKS).map((n) => n.replace(/[/@-]/g, (c) => `\\${c}`));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => {
      if (args.kind === 'dynamic-import' && args.importer.startsWith(sourcesDir)) return { path: args.path, namespace: 'lazy-sdk' };
      // a value import of an SDK would put it back into the bundle: the build says so instead
      if (args.kind !== 'dynamic-import') return { errors: [{ text: `${args.path} must be imported with await import(…) (bin/build-cli.mjs: lazy-sdks)` }] };
      return undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-sdk' }, (args) => {
      const [file, name] = LAZY_SDKS[args.path];
      return { resolveDir: root, loader: 'js', contents: `module.exports = require('./${file}').${name};` };
    });
    b.onResolve({ filter: /^\.\/sdk-[\w-]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};
const results = await Promise.all([
  build({ ...commonJs, entryPoints: [path.join(root, 'src/cli/bundle-entry.ts')], outfile: path.join(outdir, 'savepoint-inspector.cjs'), plugins: [lazySdks] }),
  build({
    ...commonJs,
    entryPoints: [path.join(root, 'src/cli/compare-entry.ts')],
    outfile: path.join(outdir, 'savepoint-inspector-compare.cjs'),
    plugins: [sourcesWithoutSideEffects, lazyFflate],
  }),
  build({
    ...common,
    format: 'esm',
    entryPoints: [path.join(root, 'src/cli/scan/scan-worker.ts')],
    outfile: path.join(outdir, 'scan-worker-entry.mjs'),
    // bundled CommonJS dependencies may call require() for Node built-ins
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [lazySdks],
  }),
  ...Object.entries(SDK_BUNDLES).map(([file, packages]) =>
    build({
      ...commonJs,
      sourcemap: false,
      stdin: {
        resolveDir: root,
        loader: 'js',
        contents: `module.exports = { ${Object.entries(packages)
          .map(([name, pkg]) => `${name}: require('${pkg}')`)
          .join(', ')} };`,
      },
      outfile: path.join(outdir, file),
    }),
  ),
]);
// paths relative to the repository root, the bundles' own sources first (node_modules change only with package-lock.json)
const sourcesOf = (list) => {
  const inputs = new Set();
  // (a plugin's module, `namespace:path`, is no file)
  for (const r of list) for (const input of Object.keys(r.metafile.inputs)) if (!/^[\w-]+:/.test(input)) inputs.add(path.relative(root, path.resolve(input)));
  const sources = [...inputs].filter((p) => !p.includes('node_modules/')).sort();
  return [...new Set([...sources, 'package.json', 'package-lock.json', 'bin/build-cli.mjs', 'bin/run-cli-bundle.mjs', 'bin/train-cli-code-cache.mjs'])];
};
// snappy-wasm's module, which the CLI (src/cli/install-snappy-wasm.ts) and its worker threads instantiate from beside the bundle
copyFileSync(path.join(root, 'node_modules/snappy-wasm/es/snappy_bg.wasm'), path.join(outdir, 'snappy_bg.wasm'));
// (the SDK bundles are made of node_modules alone, which package-lock.json stands for)
const sources = sourcesOf(results.slice(0, 3));
writeFileSync(path.join(outdir, 'inputs.json'), JSON.stringify({ sources }, null, 1) + '\n');
writeFileSync(path.join(outdir, 'compare-inputs.json'), JSON.stringify({ sources: sourcesOf([results[1]]) }, null, 1) + '\n');
console.log(
  `${path.relative(root, outdir) || '.'}/: savepoint-inspector.cjs, savepoint-inspector-compare.cjs, scan-worker-entry.mjs, ${Object.keys(SDK_BUNDLES).join(', ')}, snappy_bg.wasm (${sources.length} source files)`,
);
// the separate manifest of earlier builds (the digest now heads the cache file)
rmSync(path.join(outdir, 'savepoint-inspector.code-cache.json'), { force: true });
// a process of its own with Node's default flags, as the CLI runs (V8 rejects a cache made under other flags)
execFileSync(process.execPath, [path.join(root, 'bin/train-cli-code-cache.mjs'), outdir], { stdio: ['ignore', 'inherit', 'inherit'] });
