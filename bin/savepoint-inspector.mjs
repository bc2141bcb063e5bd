#!/usr/bin/env node
// Runs the CLI. Prefers the prebuilt bundle dist-cli/savepoint-inspector.cjs, for `compare`
// dist-cli/savepoint-inspector-compare.cjs (`npm run build:cli`;
// starts in ~0.1 s instead of ~0.5 s of TypeScript compilation, with a V8 code cache: run-cli-bundle.mjs)
// while it is up to date with the sources it was built from. Otherwise, or with SAVEPOINT_INSPECTOR_TSX=1,
// runs src/cli/main.ts through tsx's loader, resolved relative to this file so it works from any working
// directory, from `npm run cli` and as the package's "bin". The npm package (`npm pack`: package.json
// "files") holds the bundle and no sources: there the bundle always runs, with Node alone.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from './check-node-version.mjs';
import { checkBundleFreshness } from './is-bundle-fresh.mjs';

// package.json "engines": one line and exit 2 instead of a syntax error deep in the bundle (check-node-version.mjs)
requireSupportedNode();

const root = fileURLToPath(new URL('..', import.meta.url));
const distDir = `${root}dist-cli`;
// `compare` runs a bundle of its own (the command alone, bin/run-cli-bundle.mjs picks it by the same test)
const [bundle, inputs] =
  process.argv[2] === 'compare' ? ['savepoint-inspector-compare.cjs', 'compare-inputs.json'] : ['savepoint-inspector.cjs', 'inputs.json'];
const packaged = !existsSync(`${root}src/cli/main.ts`);

if (packaged) {
  if (!existsSync(`${distDir}/${bundle}`)) {
    process.stderr.write(`savepoint-inspector: the package is incomplete: ${distDir}/${bundle} is missing (reinstall it)\n`);
    process.exit(3);
  }
  const { runCliBundle } = await import('./run-cli-bundle.mjs');
  await runCliBundle(distDir, process.argv.slice(2));
} else if (process.env.SAVEPOINT_INSPECTOR_TSX !== '1' && checkBundleFreshness(`${distDir}/${bundle}`, distDir, root, inputs) === 'fresh') {
  const { runCliBundle } = await import('./run-cli-bundle.mjs');
  await runCliBundle(distDir, process.argv.slice(2));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
