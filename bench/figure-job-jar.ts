/**
 * Figure 9: the new job's JAR as the schema (issue 18). Writes a ~100 MiB fat jar with ~26,000
 * entries outside the repo (the relocated fixture job jar's entries — generated classes, the
 * flink-datastream-protobuf serializer, a relocated protobuf-java — plus 26,000 incompressible
 * filler classes in library packages), then times the extraction in-process (warm, median of 5)
 * and `compare --job-jar` as a whole CLI process, and counts the bytes read: only the central
 * directory and the candidate classes are read, not the jar.
 *
 *   npx tsx bench/figure-job-jar.ts [dir]    (standalone; also figure 9 of `npm run bench`)
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import type { ByteSource } from '../src/core/io';
import { extractJobJarSchema } from '../src/core/jar';
import { openNodeFileSource } from '../src/cli/sources';
import { fmtBytes, fmtMs, formatFigure, timeAsync, timeProcess, type Figure } from './measure';

const FILLERS = 26_000;
const FILLER_BYTES = 4_000;

export function ensureFatJar(dir: string): string {
  const file = path.join(dir, 'fat-job.jar');
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const entries: Zippable = {};
  for (const [name, bytes] of Object.entries(unzipSync(new Uint8Array(readFileSync(path.resolve('fixtures/job-jars/jars/relocated-4.36.2.jar')))))) entries[name] = bytes;
  for (let i = 0; i < FILLERS; i++) entries[`org/example/lib/p${i % 200}/Filler${i}.class`] = [randomBytes(FILLER_BYTES), { level: 0 }];
  writeFileSync(file, zipSync(entries, { level: 6 }));
  return file;
}

function countingSource(source: ByteSource, counter: { bytes: number; reads: number }): ByteSource {
  return {
    name: source.name,
    size: source.size,
    read: async (offset, length) => {
      counter.bytes += length;
      counter.reads++;
      return source.read(offset, length);
    },
  };
}

export async function measureJobJar(root: string): Promise<Figure[]> {
  const jar = ensureFatJar(path.join(root, 'job-jar'));
  const size = statSync(jar).size;
  const counter = { bytes: 0, reads: 0 };
  const first = await extractJobJarSchema(countingSource(await openNodeFileSource(jar), counter));
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push((await timeAsync(async () => extractJobJarSchema(await openNodeFileSource(jar)))).ms);
  times.sort((a, b) => a - b);
  const inProcess = times[2]!;
  const cli = timeProcess('npx', ['tsx', 'src/cli/main.ts', 'compare', '--job-jar', jar, '--against', path.resolve('fixtures/job-jars/jars/thin-4.36.2.binpb'), '--root', 'fixtures.events.Event', '--format', 'json'], 3, [0, 1]);
  return [
    {
      id: '9a',
      name: `job jar schema extraction, ${fmtBytes(size)} jar with ${first.stats.entries} entries (in-process, warm, median of 5)`,
      value: fmtMs(inProcess),
      ratio: `${first.stats.classesRead} classes inflated; ${fmtBytes(counter.bytes)} read in ${counter.reads} reads (${((100 * counter.bytes) / size).toFixed(2)} % of the jar)`,
      goal: '< 1 s (CLI)',
      met: inProcess < 1000,
    },
    {
      id: '9b',
      name: '`compare --job-jar <fat jar> --against <set>` as a whole process (tsx, median of 3; includes hashing the jar for the report)',
      value: fmtMs(cli.ms),
      ratio: 'tsx start-up included (~0.5–1 s)',
      goal: 'informational',
      met: true,
    },
  ];
}

if (process.argv[1]?.endsWith('figure-job-jar.ts')) {
  void measureJobJar(process.argv[2] ?? '/tmp/bench-savepoints').then((figures) => {
    for (const f of figures) console.log(formatFigure(f));
  });
}
