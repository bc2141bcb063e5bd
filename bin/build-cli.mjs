#!/usr/bin/env node
// `npm run build:cli`: bundles the CLI (src/cli/main.ts) and the parallel scan's worker thread
// (src/cli/scan/scan-worker.ts) with esbuild into dist-cli/ (gitignored), so the CLI starts without
// compiling TypeScript (tsx costs ~0.5 s per process and per worker thread). The worker bundle is
// named scan-worker-entry.mjs next to the CLI bundle, which is the file run-parallel-scan.ts
// starts relative to its own module. dist-cli/inputs.json lists every source file of the bundles:
// bin/savepoint-inspector.mjs runs the bundle only while none of them is newer than it.
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir DIR` (tests build into a temporary folder); default dist-cli/
const outArg = process.argv.indexOf('--outdir');
const outdir = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(root, 'dist-cli');
mkdirSync(outdir, { recursive: true });
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  // bundled CommonJS dependencies may call require() for Node built-ins
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};
const results = await Promise.all([
  build({ ...common, entryPoints: [path.join(root, 'src/cli/main.ts')], outfile: path.join(outdir, 'savepoint-inspector.mjs') }),
  build({ ...common, entryPoints: [path.join(root, 'src/cli/scan/scan-worker.ts')], outfile: path.join(outdir, 'scan-worker-entry.mjs') }),
]);
const inputs = new Set();
for (const r of results) for (const input of Object.keys(r.metafile.inputs)) inputs.add(path.relative(root, path.resolve(input)));
// paths relative to the repository root, the bundles' own sources first (node_modules change only with package-lock.json)
const sources = [...inputs].filter((p) => !p.includes('node_modules/')).sort();
writeFileSync(path.join(outdir, 'inputs.json'), JSON.stringify({ sources: [...new Set([...sources, 'package.json', 'package-lock.json', 'bin/build-cli.mjs'])] }, null, 1) + '\n');
console.log(`${path.relative(root, outdir) || '.'}/: savepoint-inspector.mjs, scan-worker-entry.mjs (${sources.length} source files)`);
