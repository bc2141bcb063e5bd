/**
 * Figure 6: the same savepoint read by Flink's State Processor API (the reader job
 * dev.savepointinspector.fixtures.bench.StateProcessorReader in fixtures/flink-writer, profile
 * bench-state-processor, Flink 2.3.0, HashMapStateBackend: restores every key group, deserializes
 * both Protobuf ValueStates of every key with the 0.x serializer, counts values and serialized
 * bytes) vs our CLI's `stats` (prebuilt bundle, 2 worker threads: reads every value and scans it
 * structurally against the saved schema). Both are timed as whole processes; the counts must agree.
 * Skipped (with the reason) when java or the built reader job is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fmtBytes, fmtMs, timeProcess, type Figure } from './measure';
import type { BenchSavepointManifest } from './generate/generate-bench-savepoint';
import { buildCliBundle } from './build-cli-bundle';

const WRITER_DIR = path.resolve(process.cwd(), 'fixtures/flink-writer');
const FLINK_VERSION = '2.3.0';
const READER_CLASS = 'dev.savepointinspector.fixtures.bench.StateProcessorReader';
export const BUILD_READER_COMMAND = `cd fixtures/flink-writer && mvn -B -T 1 -Pflink-2,bench-state-processor package dependency:build-classpath -Dmdep.outputFile=target/bench-flink-${FLINK_VERSION}/classpath.txt`;
/** heap for the reader: HashMapStateBackend holds every restored value as a Java object */
const READER_HEAP = '-Xmx8g';

const NAME = 'Flink State Processor API reader vs our CLI `stats` on the same savepoint (whole processes)';
const GOAL = 'faster';

interface ReaderOutput {
  keys: number;
  values: number;
  bytes: number;
  jobMs: number;
  parallelism: number;
}
interface CliStats {
  states: { protobuf?: { values: number; totalPayloadBytes: number } }[];
}

/** The reader job's classpath, or why it cannot run. */
export function findStateProcessorReader(): { classpath: string } | { skip: string } {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) return { skip: 'java is not available' };
  const target = path.join(WRITER_DIR, `target/bench-flink-${FLINK_VERSION}`);
  const cls = path.join(target, 'classes', ...READER_CLASS.split('.')) + '.class';
  const cpFile = path.join(target, 'classpath.txt');
  if (!existsSync(cls) || !existsSync(cpFile))
    return { skip: `the reader job is not built (${path.relative(process.cwd(), cls)} absent; needs mvn: ${BUILD_READER_COMMAND})` };
  return { classpath: `${path.join(target, 'classes')}:${readFileSync(cpFile, 'utf8').trim()}` };
}

export function skippedStateProcessorFigure(reason: string): Figure {
  return { id: '6', name: NAME, value: 'skipped', ratio: reason, goal: GOAL, met: undefined };
}

/** `dir` must be generated with `gencodeDescriptors` (else the 0.x serializer refuses the schema). */
export function measureStateProcessor(dir: string, manifest: BenchSavepointManifest, classpath: string): Figure[] {
  buildCliBundle(); // fresh right before timing, or bin/ would fall back to tsx
  const cli = path.resolve(process.cwd(), 'bin/savepoint-inspector.mjs');
  const ours = timeProcess(process.execPath, [cli, 'stats', dir, '--format', 'json', '--workers', '2'], 1);
  const stats = JSON.parse(ours.stdout) as CliStats;
  const ourValues = stats.states.reduce((s, x) => s + (x.protobuf?.values ?? 0), 0);
  const ourBytes = stats.states.reduce((s, x) => s + (x.protobuf?.totalPayloadBytes ?? 0), 0);
  const flink = timeProcess('java', [READER_HEAP, '-XX:ActiveProcessorCount=2', '-cp', classpath, READER_CLASS, dir, '2'], 1);
  const lines = flink.stdout.trim().split('\n');
  const read = JSON.parse(lines[lines.length - 1]!) as ReaderOutput;
  if (read.values !== ourValues || read.bytes !== ourBytes || read.values !== manifest.entries) {
    throw new Error(
      `figure 6: the State Processor API read ${read.values} values / ${read.bytes} bytes, our CLI ${ourValues} / ${ourBytes}, the generator wrote ${manifest.entries} values`,
    );
  }
  const ratio = flink.ms / ours.ms;
  return [
    {
      id: '6',
      name: `${NAME}, ${fmtBytes(manifest.totalBytes)}, ${read.values} Protobuf values (${fmtBytes(read.bytes)})`,
      value: `State Processor API ${fmtMs(flink.ms)} (job alone ${fmtMs(read.jobMs)}, parallelism 2) vs CLI ${fmtMs(ours.ms)} (2 workers)`,
      ratio: `our CLI is ${ratio.toFixed(2)}× faster (whole processes; job alone ${(read.jobMs / ours.ms).toFixed(2)}×)`,
      goal: GOAL,
      met: ratio > 1,
    },
  ];
}
