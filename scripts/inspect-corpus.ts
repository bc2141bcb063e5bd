/**
 * Runs `inspect --json` over every savepoint (each folder holding a `_metadata`) under the given folders —
 * by default ../shared/flink-savepoints and ../shared/real-savepoints-defects — one CLI process each, and
 * prints per savepoint how many states were decoded fully, partly, not read (and not scanned), the
 * subtask streams whose states could not be listed, the exit code and the CPU time of the whole process
 * (user + system, from its own start to its exit: startup included). A script, not a test: CPU time
 * depends on the machine and its load (docs/benchmarks.md; no test asserts time).
 *
 *     npx tsx scripts/inspect-corpus.ts [folder …]
 *
 * The CLI runs as `bin/savepoint-inspector.mjs` runs it: the prebuilt bundle when it is fresh
 * (`npm run build:cli`), else the sources through tsx (slower to start; the output says which).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkBundleFreshness } from '../bin/is-bundle-fresh.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const folders =
  process.argv.length > 2 ? process.argv.slice(2) : ['../shared/flink-savepoints', '../shared/real-savepoints-defects'].map((f) => path.resolve(root, f));

/** Every folder under `dir` (itself included) that holds a `_metadata`, sorted. */
function listSavepoints(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    const names = readdirSync(d).sort();
    if (names.includes('_metadata')) out.push(d);
    for (const n of names) if (statSync(path.join(d, n)).isDirectory()) walk(path.join(d, n));
  };
  walk(dir);
  return out;
}

interface Row {
  savepoint: string;
  states: number;
  fully: number;
  partly: number;
  notRead: number;
  notScanned: number;
  streamsNotRead: number;
  exit: number;
  cpuMs: number;
}

const work = mkdtempSync(path.join(tmpdir(), 'inspect-corpus-'));
// a preload that writes the process's own CPU time (since it started) to a file when it exits
const preload = path.join(work, 'cpu.cjs');
writeFileSync(
  preload,
  "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.INSPECT_CORPUS_CPU, String((u.user + u.system) / 1000)); });\n",
);
const cli = path.join(root, 'bin', 'savepoint-inspector.mjs');
const runner =
  checkBundleFreshness(path.join(root, 'dist-cli', 'savepoint-inspector.cjs'), path.join(root, 'dist-cli'), root) === 'fresh'
    ? 'the prebuilt CLI bundle'
    : 'the sources through tsx (run `npm run build:cli` for the bundle)';

const rows: Row[] = [];
try {
  for (const folder of folders) {
    for (const sp of listSavepoints(folder)) {
      const cpuFile = path.join(work, 'cpu.txt');
      rmSync(cpuFile, { force: true });
      const r = spawnSync(process.execPath, ['--require', preload, cli, 'inspect', sp, '--format', 'json'], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, INSPECT_CORPUS_CPU: cpuFile },
      });
      const cpuMs = existsSync(cpuFile) ? Number(readFileSync(cpuFile, 'utf8')) : NaN;
      const name = path.relative(path.dirname(folder), sp);
      let summary = { states: 0, decodedFully: 0, partlyDecoded: 0, notRead: 0, notScanned: 0, streamsNotRead: 0 };
      try {
        summary = (JSON.parse(r.stdout) as { summary: typeof summary }).summary;
      } catch {
        process.stderr.write(`${name}: no JSON (exit ${r.status}): ${r.stderr.trim().split('\n')[0]}\n`);
      }
      rows.push({
        savepoint: name,
        states: summary.states,
        fully: summary.decodedFully,
        partly: summary.partlyDecoded,
        notRead: summary.notRead,
        notScanned: summary.notScanned,
        streamsNotRead: summary.streamsNotRead,
        exit: r.status ?? -1,
        cpuMs,
      });
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const header = ['savepoint', 'states', 'decoded', 'partly', 'not read', 'not scanned', 'streams not listed', 'exit', 'CPU ms'];
const table = rows.map((r) => [r.savepoint, r.states, r.fully, r.partly, r.notRead, r.notScanned, r.streamsNotRead, r.exit, Math.round(r.cpuMs)].map(String));
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
const sum = (k: keyof Row) => rows.reduce((n, r) => n + (r[k] as number), 0);
process.stdout.write(`inspect --json over ${rows.length} savepoints, run by ${runner}; CPU = user + system time of the whole process\n`);
process.stdout.write(`${line(header)}\n${table.map(line).join('\n')}\n`);
process.stdout.write(
  `total: ${sum('states')} states: ${sum('fully')} decoded fully, ${sum('partly')} partly, ${sum('notRead')} not read, ${sum('notScanned')} not scanned; ${sum('streamsNotRead')} streams not listed; ` +
    `${rows.filter((r) => r.exit !== 0).length} non-zero exits; CPU max ${Math.round(Math.max(...rows.map((r) => r.cpuMs)))} ms\n`,
);
