/**
 * Figure 4: the compatibility evaluator on a 1,000-message schema vs `buf breaking` on the same
 * pair of descriptor sets, both as whole processes, timed in alternation (median of 9):
 * `savepoint-inspector compare new.binpb --against old.binpb --root big.M0` (default text output,
 * as buf's; the prebuilt CLI bundle with its code cache, as `bin/savepoint-inspector.mjs` runs it
 * after `npm run build:cli`) and `buf breaking new.binpb --against old.binpb`. For information:
 * the same compare with the JSON report (which holds the schema diff of every reached
 * declaration), `check --no-values` of a small savepoint whose state type is the old root (JSON
 * report; the saved schema then comes from the serializer snapshot, parsed with protobuf-java's
 * rules), the compare through tsx, and the in-process check for 1,000 and 5,000 messages.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkSavepoint } from '../src/core/report';
import { openNodeInput } from '../src/cli/sources';
import { BUF_BIN, buildDescriptorSet } from './generate/build-descriptor-set';
import { ensureBenchSavepoint } from './generate/generate-bench-savepoint';
import { buildCliBundle, TSX_ENV } from './build-cli-bundle';
import { fmtMs, median, timeProcess, timeProcessesAlternated, type Figure } from './measure';

const MESSAGES = 1000;

/** A binary tree of messages (M0 reaches all), 6 fields each; `changed` adds a field to every 10th and renames one in every 50th. */
export function writeLargeSchema(changed: boolean, messages = MESSAGES): string {
  const lines = ['syntax = "proto3";', 'package big;', 'option java_package = "dev.savepointinspector.big";', 'option java_multiple_files = true;', ''];
  for (let i = 0; i < messages; i++) {
    const fields = [
      `  string id = 1;`,
      `  int64 ${changed && i % 50 === 0 ? 'renamed_ts' : 'ts'} = 2;`,
      `  repeated string tags = 3;`,
      `  map<string, int32> counts = 4;`,
    ];
    for (const [n, child] of [
      [5, 2 * i + 1],
      [6, 2 * i + 2],
    ] as const)
      if (child < messages) fields.push(`  M${child} child_${n} = ${n};`);
    if (changed && i % 10 === 0) fields.push(`  bool added_flag = 20;`);
    lines.push(`message M${i} {`, ...fields, '}', '');
  }
  return lines.join('\n');
}

function prepare(workDir: string, messages: number): { sp: string; oldBin: string; newBin: string } {
  mkdirSync(workDir, { recursive: true });
  const oldBin = path.join(workDir, 'old.binpb');
  const newBin = path.join(workDir, 'new.binpb');
  const oldSet = buildDescriptorSet({ 'big/big.proto': writeLargeSchema(false, messages) }, oldBin);
  buildDescriptorSet({ 'big/big.proto': writeLargeSchema(true, messages) }, newBin);
  const sp = path.join(workDir, 'sp');
  ensureBenchSavepoint({
    dir: sp,
    targetBytes: 64 * 1024,
    parallelism: 1,
    type: { javaClass: 'dev.savepointinspector.big.M0', rootFullName: 'big.M0', descriptorSet: oldSet, pool: [new Uint8Array(0)] },
  });
  return { sp, oldBin, newBin };
}

/** The whole check in this process: the first run, then the median of 5 more. */
async function timeInProcess(sp: string, newBin: string): Promise<{ first: number; warm: number }> {
  const bytes = new Uint8Array(readFileSync(newBin));
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const files = await openNodeInput(sp);
    const t0 = performance.now();
    await checkSavepoint({ files, descriptorSet: { name: 'new.binpb', bytes }, tool: { name: 'bench', version: '0' }, target: '0.x', scanValues: false });
    times.push(performance.now() - t0);
  }
  return { first: times[0]!, warm: median(times.slice(1)) };
}

export async function measureEvaluator(workDir: string): Promise<Figure[]> {
  const { sp, oldBin, newBin } = prepare(workDir, MESSAGES);
  // rebuilt right before timing: a source edited since the run started would make bin/ fall back to tsx
  buildCliBundle();
  const cli = path.resolve(process.cwd(), 'bin/savepoint-inspector.mjs');
  const compare = [cli, 'compare', newBin, '--against', oldBin, '--root', 'big.M0'];
  const check = [cli, 'check', sp, '--descriptors', newBin, '--no-values', '--target', '0.x', '--format', 'json'];
  const [ours, buf, oursJson, checkJson] = timeProcessesAlternated(
    [
      { cmd: process.execPath, args: compare, okStatus: [0, 1] },
      { cmd: BUF_BIN, args: ['breaking', newBin, '--against', oldBin], okStatus: [0, 100] },
      { cmd: process.execPath, args: [...compare, '--format', 'json'], okStatus: [0, 1] },
      { cmd: process.execPath, args: check, okStatus: [0, 1] },
    ],
    9,
  );
  const tsx = timeProcess(process.execPath, compare, 3, [0, 1], TSX_ENV);
  const findings = (JSON.parse(oursJson!.stdout) as { states: { findings: unknown[] }[] }).states[0]!.findings.length;
  const checkFindings = JSON.stringify(JSON.parse(checkJson!.stdout)).match(/"ruleId":/g)?.length ?? 0;
  const bufFindings = buf!.stdout.split('\n').filter((l) => l.trim() !== '').length;
  const inProcess1k = await timeInProcess(sp, newBin);
  const large = prepare(path.join(workDir, 'm5000'), 5 * MESSAGES);
  const inProcess5k = await timeInProcess(large.sp, large.newBin);
  return [
    {
      id: '4',
      name: `evaluator on a ${MESSAGES}-message schema, whole processes on the same pair of descriptor sets (compare --root big.M0, text; prebuilt CLI bundle; alternated, median of 9)`,
      value: `${fmtMs(ours!.ms)} (${findings} findings, 1.x rules) vs buf breaking ${fmtMs(buf!.ms)} (${bufFindings} findings)`,
      ratio: `${(buf!.ms / ours!.ms).toFixed(2)}× buf breaking's speed`,
      goal: 'faster than buf breaking',
      met: ours!.ms < buf!.ms,
    },
    {
      id: '4b',
      name: 'same compare with the JSON report (schema diff of every reached declaration)',
      value: fmtMs(oursJson!.ms),
      ratio: `${(buf!.ms / oursJson!.ms).toFixed(2)}× buf breaking's speed`,
      goal: '(information)',
      met: undefined,
    },
    {
      id: '4c',
      name: 'check --no-values --target 0.x of a savepoint whose state type is the old root (JSON report; the saved schema read from the serializer snapshot)',
      value: `${fmtMs(checkJson!.ms)} (${checkFindings} rule results)`,
      ratio: `${(buf!.ms / checkJson!.ms).toFixed(2)}× buf breaking's speed`,
      goal: '(information)',
      met: undefined,
    },
    {
      id: '4d',
      name: 'same compare through tsx (TypeScript sources, SAVEPOINT_INSPECTOR_TSX=1)',
      value: fmtMs(tsx.ms),
      ratio: `the bundle is ${(tsx.ms / ours!.ms).toFixed(2)}× faster`,
      goal: '(information)',
      met: undefined,
    },
    {
      id: '4e',
      name: 'in-process check (checkSavepoint, --no-values, 0.x): 1,000 and 5,000 messages',
      value: `1,000: ${fmtMs(inProcess1k.first)} first, ${fmtMs(inProcess1k.warm)} warm; 5,000: ${fmtMs(inProcess5k.first)} first, ${fmtMs(inProcess5k.warm)} warm`,
      ratio: `5× the schema costs ${(inProcess5k.warm / inProcess1k.warm).toFixed(1)}× (warm)`,
      goal: '(information) linear',
      met: undefined,
    },
  ];
}
