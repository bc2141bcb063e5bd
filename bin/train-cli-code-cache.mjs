// Trains the V8 code cache of the prebuilt CLI bundle (run by bin/build-cli.mjs in a process of its own,
// with Node's default flags, as the CLI runs): loads dist-cli/savepoint-inspector.cjs without a cache,
// runs the commands on the repository's fixtures (output discarded), so V8 compiles the functions a
// command uses, and writes the cache of that bytecode (bin/run-cli-bundle.mjs). Inputs that are absent
// are skipped; with none the cache holds the bundle's top level only.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCliBundle, writeCodeCache } from './run-cli-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.resolve(process.argv[2] ?? path.join(root, 'dist-cli'));
const at = (p) => path.join(root, p);
const savepoint = at('fixtures/savepoints/flink-2.3/hashmap/canonical/savepoint');
const rocksdb = at('fixtures/savepoints/flink-2.3/rocksdb/canonical/savepoint');
const changed = at('src/ui/demo-schema/events-changed.binpb');
const pair = (name) => [at(`fixtures/schema-changes/${name}/new.binpb`), '--against', at(`fixtures/schema-changes/${name}/old.binpb`)];
const runs = [
  ['inspect', savepoint, '--format', 'json'],
  ['inspect', rocksdb],
  ['export-schema', savepoint, '--format', 'json'],
  ['dump', savepoint, '--operator', 'int-keyed', '--state', 'last-event', '--limit', '3', '--format', 'json'],
  ['check', savepoint, '--descriptors', changed, '--no-values', '--format', 'json'],
  ['check', savepoint, '--descriptors', changed, '--target', '0.x'],
  ['check', rocksdb, '--descriptors', changed, '--format', 'markdown'],
  ['compare', ...pair('field-renamed'), '--root', 'fixtures.change.Order'],
  ['compare', ...pair('field-added'), '--root', 'fixtures.change.Order', '--format', 'json'],
  ['compare', ...pair('enum-value-added'), '--root', 'fixtures.change.Order', '--target', '0.x', '--format', 'junit'],
];
const failed = [];
/** Runs `list` on the bundle of `kind` and writes its cache; returns how many runs trained it. */
async function train(kind, list) {
  const loaded = loadCliBundle(distDir, { cache: false, kind });
  let trained = 0;
  for (const argv of list) {
    if (!argv.every((a) => !a.startsWith('/') || existsSync(a))) continue;
    let stderr = '';
    const code = await loaded.exports.runCli(argv, { stdout: () => undefined, stderr: (t) => (stderr += t) });
    // 0 and 1 (a verdict) are the runs the cache is meant for; anything else trained an error path instead
    if (code === 0 || code === 1) trained++;
    else failed.push(`${kind}: ${argv[0]} exited ${code}: ${stderr.split('\n')[0]}`);
  }
  writeCodeCache(distDir, loaded);
  return trained;
}
const all = await train('all', runs);
// the compare bundle (bin/run-cli-bundle.mjs) on the compare runs
const compareRuns = runs.filter((argv) => argv[0] === 'compare');
const compare = await train('compare', compareRuns);
console.log(
  `${path.relative(root, distDir) || '.'}/: code cache trained on ${all} of ${runs.length} commands, the compare bundle's on ${compare} of ${compareRuns.length}`,
);
for (const f of failed) console.warn(`  not trained: ${f}`);
