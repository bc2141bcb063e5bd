/**
 * Figure 12 (issue #30): the value scan past one machine. The job `savepoint-inspector scan-job` generates (State Processor
 * API, Flink 2.3, HashMapStateBackend as the savepoint was written, the fixtures' 0.1.0 serializer built from
 * fixtures/flink-writer as fixtures/scan-job/run.mjs builds it) run on a MiniCluster of 1 and of 2 TaskManagers
 * (fixtures/scan-job/MiniClusterRun.java: MiniClusterConfiguration numTaskManagers N, one slot each, parallelism N, N
 * shards) against the CLI's `stats` over the same savepoint (the 2 GiB bench state written with gencode descriptors,
 * `sp-2g-gencode`, removed after the figure unless `--keep`; prebuilt bundle, one worker), and the CLI split into 2
 * key-group shards in 2 concurrent processes (`stats --key-groups 0-63` and `64-127`) against 1 process: whole processes,
 * a ratio per doubling, and on paper what N machines give (t(N) = a + b/N fitted through the 1 and 2 measurements: a the
 * part that does not split — JVM and cluster start, `_metadata`, the headers —, b the part that does). Every run must
 * count the generator's values (the job's `valuesScanned`, the CLI's entries).
 * Skipped with its reason (never a failure of the bench) when java or mvn is absent.
 * `npx tsx bench/figure-scan-job.ts [bench dir] [size, e.g. 256MiB]` runs it alone (default: $BENCH_DIR or
 * /tmp/bench-savepoints, the 2 GiB savepoint `npm run bench` uses).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchSavepoint, BENCH_STATES, type BenchSavepointManifest } from './generate/generate-bench-savepoint';
import { buildDescriptorSet } from './generate/build-descriptor-set';
import { parseByteSize } from './generate/parse-byte-size';
import { buildCliBundle } from './build-cli-bundle';
import { fmtBytes, fmtMs, GiB, type Figure } from './measure';

const REPO = process.cwd();
const WRITER_DIR = path.join(REPO, 'fixtures/flink-writer');
const LAUNCHER = path.join(REPO, 'fixtures/scan-job/MiniClusterRun.java');
const SERIALIZER = { group: 'io.github.flink-gcp', artifact: 'flink-datastream-protobuf', version: '0.1.0-SNAPSHOT' };
/** bench/generate's max parallelism (key groups 0…127) */
const BENCH_MAX_PARALLELISM = 128;
const NAME = 'the generated State Processor API job (`scan-job`) vs the CLI';
const GOAL = 'a ratio per doubling (information)';
const ADD_OPENS = [
  'java.lang',
  'java.lang.reflect',
  'java.lang.invoke',
  'java.math',
  'java.io',
  'java.net',
  'java.nio',
  'sun.nio.ch',
  'java.text',
  'java.time',
  'java.util',
  'java.util.concurrent',
  'java.util.concurrent.atomic',
  'java.util.concurrent.locks',
].map((p) => `--add-opens=java.base/${p}=ALL-UNNAMED`);

/** java and mvn, or why the figure is skipped. */
export function findScanJobTools(): { ok: true } | { skip: string } {
  for (const [tool, arg] of [
    ['java', '-version'],
    ['mvn', '-v'],
  ] as const) {
    const r = spawnSync(tool, [arg], { encoding: 'utf8' });
    if (r.error || r.status !== 0) return { skip: `${tool} is not available (the generated job is a Maven project run on Flink)` };
  }
  return { ok: true };
}

export function skippedScanJobFigure(reason: string): Figure {
  return { id: '12', name: NAME, value: 'skipped', ratio: reason, goal: GOAL, met: undefined };
}

function run(cmd: string, args: string[], cwd: string): void {
  execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The fixtures' 0.1.0 serializer (Flink 2 adapter) in a folder laid out as a Maven repository (as fixtures/scan-job/run.mjs builds it). */
function buildSerializerRepo(work: string): string {
  const repo = path.join(work, 'serializer-repo');
  if (existsSync(path.join(repo, ...SERIALIZER.group.split('.'), SERIALIZER.artifact, SERIALIZER.version))) return repo;
  const cpFile = path.join(work, 'writer-classpath.txt');
  run('mvn', ['-B', '-q', '-Pflink-2', 'dependency:build-classpath', `-Dmdep.outputFile=${cpFile}`], WRITER_DIR);
  const sources = ['src/main/java/io/github/flink/gcp/protobuf', 'src/main/java-flink2/io/github/flink/gcp/protobuf']
    .map((d) => path.join(WRITER_DIR, d))
    .filter((d) => existsSync(d))
    .flatMap((d) => readdirSync(d).map((f) => path.join(d, f)));
  const classes = path.join(work, 'serializer-classes');
  run('javac', ['--release', '17', '-d', classes, '-cp', readFileSync(cpFile, 'utf8').trim(), ...sources], REPO);
  const jar = path.join(work, `${SERIALIZER.artifact}.jar`);
  run('jar', ['cf', jar, '-C', classes, '.'], REPO);
  run(
    'mvn',
    [
      '-B',
      '-q',
      'install:install-file',
      `-Dfile=${jar}`,
      `-DgroupId=${SERIALIZER.group}`,
      `-DartifactId=${SERIALIZER.artifact}`,
      `-Dversion=${SERIALIZER.version}`,
      '-Dpackaging=jar',
      '-DgeneratePom=true',
      `-DlocalRepositoryPath=${repo}`,
    ],
    work,
  );
  return repo;
}

/** Generates the project with the CLI, compiles it and the MiniCluster launcher: the class path to run it with. */
function buildJob(work: string, savepoint: string, descriptors: string, serializerRepo: string): string {
  const project = path.join(work, 'project');
  rmSync(project, { recursive: true, force: true });
  const cli = path.join(REPO, 'bin/savepoint-inspector.mjs');
  const coordinates = `${SERIALIZER.group}:${SERIALIZER.artifact}:${SERIALIZER.version}`;
  execFileSync(process.execPath, [cli, 'scan-job', savepoint, '--descriptors', descriptors, '--serializer', coordinates, '--output', project, '--quiet'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const cpFile = path.join(project, 'target', 'classpath.txt');
  run(
    'mvn',
    ['-B', '-q', 'compile', 'dependency:build-classpath', `-Dserializer.repo=${serializerRepo}`, `-Dmdep.outputFile=${cpFile}`, '-Dmdep.includeScope=compile'],
    project,
  );
  const classpath = [path.join(project, 'target', 'classes'), readFileSync(cpFile, 'utf8').trim()].join(path.delimiter);
  const launcher = path.join(project, 'target', 'launcher');
  run('javac', ['--release', '17', '-d', launcher, '-cp', classpath, LAUNCHER], REPO);
  return [launcher, classpath].join(path.delimiter);
}

interface Timed {
  ms: number;
  stdouts: string[];
}

/** Processes started together; the wall time until the last one ends. */
async function timeTogether(commands: readonly { cmd: string; args: string[] }[]): Promise<Timed> {
  const t0 = performance.now();
  const stdouts = await Promise.all(
    commands.map(
      (c) =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(c.cmd, c.args, { stdio: ['ignore', 'pipe', 'pipe'] });
          let out = '';
          let err = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
          child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
          child.on('error', reject);
          child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${c.cmd} ${c.args.join(' ')} exited with ${code}: ${err.slice(-2000)}`))));
        }),
    ),
  );
  return { ms: performance.now() - t0, stdouts };
}

interface JobRun {
  ms: number;
  jobMs: number;
  values: number;
  taskManagers: number;
}

/** The job on a MiniCluster of `n` TaskManagers (parallelism n, n shards): whole process, the job alone, and the values it scanned. */
async function runJob(classpath: string, savepoint: string, work: string, n: number, heap: string): Promise<JobRun> {
  const output = path.join(work, `value-scans-${n}`);
  const report = path.join(work, `minicluster-${n}.json`);
  rmSync(output, { recursive: true, force: true });
  mkdirSync(output, { recursive: true });
  const args = [
    heap,
    '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
    ...ADD_OPENS,
    '-cp',
    classpath,
    'MiniClusterRun',
    '--task-managers',
    String(n),
    '--report',
    report,
    '--',
  ];
  const jobArgs = ['--savepoint', savepoint, '--output', output, '--parallelism', String(n), '--shards', String(n)];
  const t = await timeTogether([{ cmd: 'java', args: [...args, ...jobArgs] }]);
  const r = JSON.parse(readFileSync(report, 'utf8')) as { taskmanagers: { taskmanagers: unknown[] }; job: { duration: number; state: string } };
  if (r.job.state !== 'FINISHED') throw new Error(`figure 12: the job on ${n} TaskManagers ended ${r.job.state}`);
  let values = 0;
  for (const f of readdirSync(output).filter((x) => x.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(path.join(output, f), 'utf8')) as { states: { result: { valuesScanned?: number } | null }[] };
    for (const s of doc.states) values += s.result?.valuesScanned ?? 0;
  }
  return { ms: t.ms, jobMs: r.job.duration, values, taskManagers: r.taskmanagers.taskmanagers.length };
}

/** The entries of the bench states in `stats --format json` (a whole run or a --key-groups shard file). */
function statsEntries(stdout: string): number {
  const doc = JSON.parse(stdout) as { states: { state: string; entries?: number; protobuf?: { values: number } }[] };
  return doc.states.filter((s) => (BENCH_STATES as readonly string[]).includes(s.state)).reduce((sum, s) => sum + (s.protobuf?.values ?? s.entries ?? 0), 0);
}

/** t(N) = a + b/N through (1, t1) and (2, t2): on paper, N machines of this one's speed (each its own cores and disk). */
export function onPaper(t1: number, t2: number, ns: readonly number[]): { a: number; b: number; at: { n: number; ms: number }[] } {
  const b = 2 * (t1 - t2);
  const a = t1 - b;
  return { a, b, at: ns.map((n) => ({ n, ms: a + b / n })) };
}

export async function measureScanJob(root: string, descriptors: string, log: (s: string) => void, targetBytes = 2 * GiB, keep = false): Promise<Figure[]> {
  const tools = findScanJobTools();
  if ('skip' in tools) {
    log(`figure 12 skipped: ${tools.skip}`);
    return [skippedScanJobFigure(tools.skip)];
  }
  // the 2 GiB savepoint's state, with the descriptors as protoc's Java gencode embeds them: the HashMapStateBackend restores
  // every value with the saved 0.x serializer, which refuses a message class whose schema differs from the saved one
  // ("Generated class has a different Protobuf schema" with sp-2g's buf-built descriptors)
  const dir = path.join(root, targetBytes === 2 * GiB ? 'sp-2g-gencode' : `sp-scan-job-${targetBytes}`);
  const manifest: BenchSavepointManifest = ensureBenchSavepoint({ dir, targetBytes, parallelism: 16, gencodeDescriptors: true });
  try {
    return await measureOn(dir, manifest, root, descriptors, log);
  } finally {
    if (!keep && targetBytes === 2 * GiB) rmSync(dir, { recursive: true, force: true });
  }
}

async function measureOn(dir: string, manifest: BenchSavepointManifest, root: string, descriptors: string, log: (s: string) => void): Promise<Figure[]> {
  const work = path.join(root, 'scan-job');
  mkdirSync(work, { recursive: true });
  log('  building the fixtures serializer, the generated project and the MiniCluster launcher (not timed) …');
  buildCliBundle();
  const classpath = buildJob(work, dir, descriptors, buildSerializerRepo(work));
  // HashMapStateBackend: every restored value is a Java object on the heap (figure 6 gives 8 GiB for 1 GiB of state)
  const heap = `-Xmx${Math.max(2, Math.ceil((6 * manifest.totalBytes) / GiB))}g`;
  const cli = path.join(REPO, 'bin/savepoint-inspector.mjs');
  const stats = (extra: string[]) => ({ cmd: process.execPath, args: [cli, 'stats', dir, '--format', 'json', '--workers', '1', ...extra] });
  const half = BENCH_MAX_PARALLELISM / 2;
  // alternated: job 1, job 2, CLI 1, CLI 2 — a slow stretch of the shared machine hits one of each rather than one side
  log('  the job on 1 TaskManager …');
  const job1 = await runJob(classpath, dir, work, 1, heap);
  log(`    ${fmtMs(job1.ms)}; on 2 TaskManagers …`);
  const job2 = await runJob(classpath, dir, work, 2, heap);
  log(`    ${fmtMs(job2.ms)}; the CLI's stats in 1 process …`);
  const cli1 = await timeTogether([stats([])]);
  log(`    ${fmtMs(cli1.ms)}; in 2 processes of one shard each …`);
  const cli2 = await timeTogether([stats(['--key-groups', `0-${half - 1}`]), stats(['--key-groups', `${half}-${BENCH_MAX_PARALLELISM - 1}`])]);
  log(`    ${fmtMs(cli2.ms)}`);
  const counts = { job1: job1.values, job2: job2.values, cli1: statsEntries(cli1.stdouts[0]!), cli2: cli2.stdouts.reduce((s, o) => s + statsEntries(o), 0) };
  for (const [k, v] of Object.entries(counts))
    if (v !== manifest.entries) throw new Error(`figure 12: ${k} counted ${v} values, the generator wrote ${manifest.entries}`);
  const paperJob = onPaper(job1.ms, job2.ms, [4, 8, 16, 64]);
  const paperCli = onPaper(cli1.ms, cli2.ms, [4, 8, 16, 64]);
  const at = (p: ReturnType<typeof onPaper>) => p.at.map((x) => `N=${x.n}: ${fmtMs(Math.max(0, x.ms))}`).join(', ');
  // a ≤ 0: the doubling measured 2× or more (noise, or the heap of one JVM under more pressure than two halves'): no part
  // that does not split was measured, so the fit bounds nothing
  const bound = (p: ReturnType<typeof onPaper>) =>
    p.a > 0 ? `at most ${((p.a + p.b) / p.a).toFixed(1)}×` : `no bound measured (a ≤ 0: the doubling gave ≥ 2×)`;
  const size = `${fmtBytes(manifest.totalBytes)}, ${manifest.entries} Protobuf values`;
  return [
    {
      id: '12a',
      name: `${NAME}: the job on 1 TaskManager vs \`stats\` in 1 process, ${size}`,
      value: `job ${fmtMs(job1.ms)} (job alone ${fmtMs(job1.jobMs)}) vs CLI ${fmtMs(cli1.ms)}`,
      ratio: `the CLI is ${(job1.ms / cli1.ms).toFixed(2)}× faster (whole processes; job alone ${(job1.jobMs / cli1.ms).toFixed(2)}×)`,
      goal: 'faster',
      met: job1.ms > cli1.ms,
    },
    {
      id: '12b',
      name: `${NAME}: one doubling — the job on 2 TaskManagers vs 1 (MiniCluster, parallelism 2 vs 1), ${size}`,
      value: `${fmtMs(job2.ms)} (job alone ${fmtMs(job2.jobMs)}) vs ${fmtMs(job1.ms)} (${fmtMs(job1.jobMs)})`,
      ratio: `${(job1.ms / job2.ms).toFixed(2)}× per doubling (job alone ${(job1.jobMs / job2.jobMs).toFixed(2)}×)`,
      goal: GOAL,
      met: undefined,
    },
    {
      id: '12c',
      name: `${NAME}: one doubling — the CLI in 2 key-group shards in 2 processes (\`stats --key-groups\`) vs 1 process, ${size}`,
      value: `${fmtMs(cli2.ms)} vs ${fmtMs(cli1.ms)}`,
      ratio: `${(cli1.ms / cli2.ms).toFixed(2)}× per doubling; vs the job on 2 TaskManagers: the CLI is ${(job2.ms / cli2.ms).toFixed(2)}× faster`,
      goal: GOAL,
      met: undefined,
    },
    {
      id: '12d',
      name: `${NAME}: on paper, N machines (t(N) = a + b/N through the 1 and 2 measurements; a: what does not split)`,
      value: `job a = ${fmtMs(paperJob.a)}, b = ${fmtMs(paperJob.b)}: ${at(paperJob)}; CLI a = ${fmtMs(paperCli.a)}, b = ${fmtMs(paperCli.b)}: ${at(paperCli)}`,
      ratio: `job: ${bound(paperJob)}; CLI: ${bound(paperCli)} over 1 machine, however many`,
      goal: GOAL,
      met: undefined,
    },
  ];
}

/** A standalone run: `npx tsx bench/figure-scan-job.ts [bench dir] [size]`. */
async function main(): Promise<void> {
  const root = process.argv[2] ?? process.env['BENCH_DIR'] ?? '/tmp/bench-savepoints';
  const size = process.argv[3] ? parseByteSize(process.argv[3]) : 2 * GiB;
  mkdirSync(root, { recursive: true });
  const proto = readFileSync(new URL('./generate/bench-events.proto', import.meta.url), 'utf8').replace(
    'repeated int32 samples = 9;',
    'repeated int32 samples = 9;\n  string region = 10;',
  );
  const descriptors = path.join(root, 'bench-events-new.binpb');
  if (!existsSync(descriptors)) writeFileSync(descriptors, buildDescriptorSet({ 'bench/bench_events.proto': proto }));
  const load = os.loadavg().map((l) => l.toFixed(2));
  const figures = await measureScanJob(root, descriptors, (s) => console.log(s), size);
  console.log(
    `load average before the run: ${load.join(', ')}; after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  console.log(JSON.stringify(figures, null, 2));
}

if (process.argv[1]?.endsWith('figure-scan-job.ts')) {
  void main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
