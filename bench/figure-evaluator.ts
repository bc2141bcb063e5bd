/**
 * Figure 4: the compatibility evaluator on a 1,000-message schema vs `buf breaking` on the same
 * pair of descriptor sets, both as whole processes: `savepoint-inspector check <sp> --descriptors
 * new.binpb --no-values` over a small savepoint whose state type is the old root, and
 * `buf breaking new.binpb --against old.binpb`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { BUF_BIN, buildDescriptorSet } from './generate/build-descriptor-set';
import { ensureBenchSavepoint } from './generate/generate-bench-savepoint';
import { fmtMs, timeProcess, type Figure } from './measure';

const MESSAGES = 1000;

/** A binary tree of messages (M0 reaches all), 6 fields each; `changed` adds a field to every 10th and renames one in every 50th. */
export function writeLargeSchema(changed: boolean): string {
  const lines = ['syntax = "proto3";', 'package big;', 'option java_package = "dev.savepointinspector.big";', 'option java_multiple_files = true;', ''];
  for (let i = 0; i < MESSAGES; i++) {
    const fields = [`  string id = 1;`, `  int64 ${changed && i % 50 === 0 ? 'renamed_ts' : 'ts'} = 2;`, `  repeated string tags = 3;`, `  map<string, int32> counts = 4;`];
    for (const [n, child] of [[5, 2 * i + 1], [6, 2 * i + 2]] as const) if (child < MESSAGES) fields.push(`  M${child} child_${n} = ${n};`);
    if (changed && i % 10 === 0) fields.push(`  bool added_flag = 20;`);
    lines.push(`message M${i} {`, ...fields, '}', '');
  }
  return lines.join('\n');
}

export function measureEvaluator(workDir: string): Figure[] {
  mkdirSync(workDir, { recursive: true });
  const oldBin = path.join(workDir, 'old.binpb');
  const newBin = path.join(workDir, 'new.binpb');
  const oldSet = buildDescriptorSet({ 'big/big.proto': writeLargeSchema(false) }, oldBin);
  buildDescriptorSet({ 'big/big.proto': writeLargeSchema(true) }, newBin);
  const sp = path.join(workDir, 'sp');
  ensureBenchSavepoint({ dir: sp, targetBytes: 64 * 1024, parallelism: 1, type: { javaClass: 'dev.savepointinspector.big.M0', rootFullName: 'big.M0', descriptorSet: oldSet, pool: [new Uint8Array(0)] } });
  const cli = path.resolve(process.cwd(), 'bin/savepoint-inspector.mjs');
  const ours = timeProcess(process.execPath, [cli, 'check', sp, '--descriptors', newBin, '--no-values', '--target', '0.x', '--format', 'json'], 3, [0, 1]);
  const buf = timeProcess(BUF_BIN, ['breaking', newBin, '--against', oldBin], 3, [0, 100]);
  const report = JSON.parse(ours.stdout) as unknown;
  const findings = JSON.stringify(report).match(/"ruleId":/g)?.length ?? 0;
  const bufFindings = buf.stdout.split('\n').filter((l) => l.trim() !== '').length;
  return [
    { id: '4', name: `evaluator on a ${MESSAGES}-message schema (whole process: check --no-values)`, value: `${fmtMs(ours.ms)} (${findings} rule results) vs buf breaking ${fmtMs(buf.ms)} (${bufFindings} findings)`, ratio: `${(buf.ms / ours.ms).toFixed(2)}× buf breaking's speed`, goal: 'faster than buf breaking', met: ours.ms < buf.ms },
  ];
}
