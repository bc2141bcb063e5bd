/**
 * The behaviour-preservation harness: runs the CLI in-process over every savepoint input this repository
 * and ../shared hold (folders, archives, lone `_metadata` files) and records a SHA-256 of each command's
 * exit code, stdout and stderr:
 * - `check --format json` against every descriptor set of fixtures/ and the demo schema, at both target lines;
 * - `inspect --json`, `stats --json` (1 and 2 workers) and `dump --json` of every state of every input;
 * - `diff --format json --values` of each fixture savepoint of Flink 1.20 against the same case of Flink 2.3, and of
 *   each fixtures/diff-pairs case against the savepoint it pairs with.
 *
 *   npm run digests -- verify            compare with scripts/output-digests.json (exit 1 on a difference)
 *   npm run digests -- record            write scripts/output-digests.json anew (after an intended change)
 *   npm run digests -- verify --only stats   one family (check, inspect, stats, dump, diff)
 *
 * ../shared/real-savepoints-defects is left out: those inputs show open reader defects whose output is meant to
 * change (one of them takes minutes to inspect). Cases whose inputs are absent (no ../shared) are skipped and counted. Refactors that promise identical
 * output run `verify` before they land; a change that means to alter output records anew and says so.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/cli/run-cli';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const digestFile = join(root, 'scripts/output-digests.json');
const shared = resolve(root, '../shared');

interface Case {
  family: 'check' | 'inspect' | 'stats' | 'dump' | 'diff';
  name: string;
  argv: string[];
}

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** Savepoint inputs: every folder with a `_metadata`, every archive next to one, as paths relative to the repo. */
function listSavepointInputs(): string[] {
  const files = [...walk(join(root, 'fixtures/savepoints')), ...walk(join(shared, 'flink-savepoints'))];
  const inputs = new Set<string>();
  for (const f of files) {
    if (f.endsWith('/_metadata')) inputs.add(dirname(f));
    else if (/\.(zip|tar|tar\.gz|tgz)$/.test(f)) inputs.add(f);
  }
  return [...inputs].map((p) => relative(root, p)).sort();
}

function listDescriptorSets(): string[] {
  return [...walk(join(root, 'fixtures/schema-changes')), ...walk(join(root, 'src/ui/demo-schema'))]
    .filter((f) => f.endsWith('.binpb'))
    .map((p) => relative(root, p))
    .sort();
}

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

async function listCases(): Promise<Case[]> {
  const cases: Case[] = [];
  const savepoints = listSavepointInputs();
  const sets = listDescriptorSets();
  for (const sp of savepoints) {
    cases.push({ family: 'inspect', name: `inspect ${sp}`, argv: ['inspect', sp, '--format', 'json'] });
    for (const w of ['1', '2']) cases.push({ family: 'stats', name: `stats ${sp} w${w}`, argv: ['stats', sp, '--format', 'json', '--workers', w] });
    for (const set of sets) {
      for (const target of ['0.x', '1.x'])
        cases.push({
          family: 'check',
          name: `check ${sp} ${set} ${target}`,
          argv: ['check', sp, '--descriptors', set, '--target', target, '--format', 'json', '--workers', '1'],
        });
    }
    // dump every state that inspect names
    const inspected = await run(['inspect', sp, '--format', 'json', '--headers-only']);
    if (inspected.code !== 0) continue;
    const doc = JSON.parse(inspected.stdout) as { operators: { id: string; states: { name: string }[] }[] };
    for (const op of doc.operators) {
      for (const st of op.states)
        cases.push({
          family: 'dump',
          name: `dump ${sp} ${op.id} ${st.name}`,
          argv: ['dump', sp, '--operator', op.id, '--state', st.name, '--format', 'json', '--limit', '50'],
        });
    }
  }
  cases.push(...listDiffCases());
  return cases;
}

/** `diff` pairs: the same case written by Flink 1.20 and 2.3, and each diff-pairs case against the savepoint it pairs with (its manifest's diffPairOf). */
function listDiffCases(): Case[] {
  const cases: Case[] = [];
  const diff = (older: string, newer: string): Case => ({
    family: 'diff',
    name: `diff ${older} ${newer}`,
    argv: ['diff', older, newer, '--format', 'json', '--values'],
  });
  for (const f of walk(join(root, 'fixtures/savepoints/flink-1.20'))) {
    if (!f.endsWith('/_metadata')) continue;
    const older = relative(root, dirname(f));
    const newer = older.replace('/flink-1.20/', '/flink-2.3/');
    if (existsSync(join(root, newer, '_metadata'))) cases.push(diff(older, newer));
  }
  for (const f of walk(join(root, 'fixtures/diff-pairs'))) {
    if (!f.endsWith('/manifest.json')) continue;
    const pairOf = (JSON.parse(readFileSync(f, 'utf8')) as { diffPairOf?: string }).diffPairOf;
    if (pairOf !== undefined) cases.push(diff(join('fixtures', pairOf, 'savepoint'), relative(root, join(dirname(f), 'savepoint'))));
  }
  return cases;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const mode = args[0];
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  if (mode !== 'record' && mode !== 'verify') {
    console.error('usage: output-digests (record|verify) [--only check|inspect|stats|dump|diff]');
    process.exit(2);
  }
  process.chdir(root);
  const cases = (await listCases()).filter((c) => only === undefined || c.family === only);
  const recorded: Record<string, string> = existsSync(digestFile) ? (JSON.parse(readFileSync(digestFile, 'utf8')) as Record<string, string>) : {};
  const now: Record<string, string> = {};
  let differ = 0;
  let missing = 0;
  const started = Date.now();
  for (const [i, c] of cases.entries()) {
    const r = await run(c.argv);
    const digest = createHash('sha256').update(`${r.code}\u0000${r.stdout}\u0000${r.stderr}`).digest('hex');
    now[c.name] = digest;
    if (mode === 'verify') {
      const want = recorded[c.name];
      if (want === undefined) missing++;
      else if (want !== digest) {
        differ++;
        console.log(`DIFFERS: ${c.name}\n  ${c.argv.join(' ')}\n  exit ${r.code}; stderr: ${r.stderr.slice(0, 300)}`);
      }
    }
    if ((i + 1) % 250 === 0) process.stderr.write(`${i + 1}/${cases.length} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  const perFamily = new Map<string, number>();
  for (const c of cases) perFamily.set(c.family, (perFamily.get(c.family) ?? 0) + 1);
  const counts = [...perFamily].map(([f, n]) => `${f} ${n}`).join(', ');
  if (mode === 'record') {
    const merged = only === undefined ? now : { ...recorded, ...now };
    const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : 1)));
    writeFileSync(digestFile, `${JSON.stringify(sorted, null, 1)}\n`);
    console.log(`recorded ${cases.length} cases (${counts}) in ${relative(root, digestFile)}`);
    return;
  }
  const notRun = Object.keys(recorded).filter((k) => !(k in now) && (only === undefined || k.startsWith(`${only} `))).length;
  console.log(
    `${cases.length - differ - missing} identical, ${differ} differ, ${missing} new (not recorded), ${notRun} recorded but not run (inputs absent) — ${counts}`,
  );
  if (!existsSync(shared)) console.log('../shared is absent: its savepoints were not run');
  process.exit(differ > 0 ? 1 : 0);
}

await main();
