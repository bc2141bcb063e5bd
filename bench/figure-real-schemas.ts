/**
 * Figure 7: `compare` on real schema histories vs `buf breaking` (WIRE rules) on the same image pairs,
 * both as whole processes, timed in alternation (median of 9), wall and CPU (user + system, from GNU
 * time when the machine has it): the pairs of ../shared/bench-schemas/ (images written by `buf build`
 * of grpc/grpc-proto and open-telemetry/opentelemetry-proto at consecutive versions, imports and source
 * info included). `compare` runs the prebuilt CLI bundle with every root of the pair's roots.txt (text
 * report, as buf's), once more with the JSON report (schema diffs), and with one root and the JSON
 * report (the command the pair's README measured). Skipped when ../shared/bench-schemas is absent.
 *
 * Runnable alone: `npx tsx bench/figure-real-schemas.ts [runs]` prints the figures without touching
 * docs/benchmarks.md.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildCliBundle } from './build-cli-bundle';
import { BUF_BIN } from './generate/build-descriptor-set';
import { fmtMs, formatFigure, GNU_TIME, median, parseCpuSeconds, timeProcessesAlternated, type Figure, type ProcessSpec } from './measure';

export const BENCH_SCHEMAS = path.resolve(process.cwd(), '../shared/bench-schemas');

/** The single root the pair's README measured (`--format json`), where it names one; else the pair's first root. */
const MEASURED_ROOT: Readonly<Record<string, string>> = { 'grpc-proto-4489ffe-483f11e': 'grpc.service_config.EdsLoadBalancingPolicyConfig' };

/** buf breaking with the WIRE category only (what a restore of serialized state cares about), no buf.yaml needed. */
const BUF_WIRE_CONFIG = JSON.stringify({ version: 'v2', breaking: { use: ['WIRE'] } });

interface Timed {
  ms: number;
  cpuMs: number | undefined;
  stdout: string;
}

export function listBenchSchemaPairs(): { name: string; dir: string; roots: string[] }[] {
  if (!existsSync(BENCH_SCHEMAS)) return [];
  return readdirSync(BENCH_SCHEMAS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(BENCH_SCHEMAS, d.name, 'roots.txt')))
    .map((d) => {
      const dir = path.join(BENCH_SCHEMAS, d.name);
      const roots = readFileSync(path.join(dir, 'roots.txt'), 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
      return { name: d.name, dir, roots };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Alternated whole processes under GNU time (when present): median wall and median CPU per command. */
function timeAlternated(specs: readonly ProcessSpec[], runs: number): Timed[] {
  const timed = existsSync(GNU_TIME);
  const wrapped = specs.map((s) => (timed ? { ...s, cmd: GNU_TIME, args: ['-f', '%U %S', s.cmd, ...s.args] } : s));
  return timeProcessesAlternated(wrapped, runs).map((r) => {
    const cpu = r.stderrs.map(parseCpuSeconds).filter((x): x is number => x !== undefined);
    return { ms: r.ms, cpuMs: cpu.length > 0 ? median(cpu) * 1000 : undefined, stdout: r.stdout };
  });
}

const fmtCpu = (t: Timed): string => (t.cpuMs === undefined ? 'CPU not measured' : `${fmtMs(t.cpuMs)} CPU`);

export function measureRealSchemas(runs = 9, build = true): Figure[] {
  const pairs = listBenchSchemaPairs();
  if (pairs.length === 0)
    return [
      {
        id: '7',
        name: 'compare vs buf breaking on real schema histories',
        value: `skipped: ${BENCH_SCHEMAS} is absent`,
        ratio: '–',
        goal: 'faster than buf breaking',
        met: undefined,
      },
    ];
  // rebuilt right before timing: a source edited since the run started would make bin/ fall back to tsx
  if (build) buildCliBundle();
  const cli = path.resolve(process.cwd(), 'bin/savepoint-inspector.mjs');
  const figures: Figure[] = [];
  for (const [i, pair] of pairs.entries()) {
    const oldBin = path.join(pair.dir, 'old.binpb');
    const newBin = path.join(pair.dir, 'new.binpb');
    const compare = [cli, 'compare', newBin, '--against', oldBin];
    const allRoots = pair.roots.flatMap((r) => ['--root', r]);
    const oneRoot = MEASURED_ROOT[pair.name] ?? pair.roots[0]!;
    const [all, buf, json, one] = timeAlternated(
      [
        { cmd: process.execPath, args: [...compare, ...allRoots], okStatus: [0, 1] },
        { cmd: BUF_BIN, args: ['breaking', newBin, '--against', oldBin, '--config', BUF_WIRE_CONFIG], okStatus: [0, 100] },
        { cmd: process.execPath, args: [...compare, ...allRoots, '--format', 'json'], okStatus: [0, 1] },
        { cmd: process.execPath, args: [...compare, '--root', oneRoot, '--format', 'json'], okStatus: [0, 1] },
      ],
      runs,
    );
    const size = Math.max(readFileSync(oldBin).length, readFileSync(newBin).length);
    const bufFindings = buf!.stdout.split('\n').filter((l) => l.trim() !== '').length;
    const verdicts = all!.stdout.split('\n')[1] ?? '';
    const id = `7${String.fromCharCode(97 + i * 3)}`;
    const next = (k: number) => `7${String.fromCharCode(97 + i * 3 + k)}`;
    figures.push(
      {
        id,
        name: `${pair.name} (images of ${Math.round(size / 1024)} KB): compare --root ×${pair.roots.length} (text) vs buf breaking (WIRE), whole processes, prebuilt CLI bundle, alternated, median of ${runs}`,
        value: `${fmtMs(all!.ms)} wall, ${fmtCpu(all!)} (${verdicts}) vs buf breaking ${fmtMs(buf!.ms)} wall, ${fmtCpu(buf!)} (${bufFindings} findings)`,
        ratio: `${(buf!.ms / all!.ms).toFixed(2)}× buf breaking's speed (wall)${all!.cpuMs && buf!.cpuMs ? `, ${(buf!.cpuMs / all!.cpuMs).toFixed(2)}× (CPU)` : ''}`,
        goal: 'faster than buf breaking',
        met: all!.ms < buf!.ms && (all!.cpuMs === undefined || buf!.cpuMs === undefined || all!.cpuMs < buf!.cpuMs),
      },
      {
        id: next(1),
        name: 'same compare with the JSON report (schema diffs of every root)',
        value: `${fmtMs(json!.ms)} wall, ${fmtCpu(json!)}`,
        ratio: `${(buf!.ms / json!.ms).toFixed(2)}× buf breaking's speed (wall)${json!.cpuMs && buf!.cpuMs ? `, ${(buf!.cpuMs / json!.cpuMs).toFixed(2)}× (CPU)` : ''}`,
        goal: '(information)',
        met: undefined,
      },
      {
        id: next(2),
        name: `compare with one root and the JSON report (${oneRoot}; the command of the pair's README)`,
        value: `${fmtMs(one!.ms)} wall, ${fmtCpu(one!)}`,
        ratio: `${(buf!.ms / one!.ms).toFixed(2)}× buf breaking's speed (wall)${one!.cpuMs && buf!.cpuMs ? `, ${(buf!.cpuMs / one!.cpuMs).toFixed(2)}× (CPU)` : ''}`,
        goal: '(information)',
        met: undefined,
      },
    );
  }
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.argv[2] ?? 9);
  for (const f of measureRealSchemas(runs)) console.log(formatFigure(f));
}
