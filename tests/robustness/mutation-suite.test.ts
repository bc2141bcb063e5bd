/**
 * The mutation suite (`npm run test:robustness`): every real savepoint (committed fixtures and
 * ../shared/flink-savepoints), every snapshot fixture and a sample of the descriptor-set fixtures,
 * truncated, bit-flipped, with hostile length/count fields, swapped and emptied files. Each case
 * must end in success or DecodeErrors naming file and offset (run-mutation-case.ts). The shared real
 * savepoints are a test of their own, declared NEEDS_SHARED (skipped, and counted, when ../shared is absent).
 * Each test prints `N passed, N failed` alone on a line. ROBUSTNESS_CASES=full runs the large plan;
 * ROBUSTNESS_FAILURES_FILE=<path> writes every failure (input, mutation, stack) to that file.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildDescriptorSetCases,
  buildSavepointArchiveCases,
  buildSavepointFolderCases,
  buildSnapshotCases,
  DEFAULT_SIZE,
  FULL_SIZE,
  type MutationCase,
} from './build-mutation-cases';
import { listDescriptorSetInputs, listSavepointInputs, listSnapshotInputs, SHARED_SAVEPOINTS } from './list-robustness-inputs';
import { NEEDS_SHARED } from '../helpers/shared-savepoints';
import { runMutationCase } from './run-mutation-case';

const size = process.env['ROBUSTNESS_CASES'] === 'full' ? FULL_SIZE : DEFAULT_SIZE;

function buildAllCases(): MutationCase[] {
  const cases: MutationCase[] = [];
  for (const input of listSavepointInputs())
    cases.push(...(input.kind === 'folder' ? buildSavepointFolderCases(input, size) : buildSavepointArchiveCases(input, size)));
  for (const input of listSnapshotInputs()) cases.push(...buildSnapshotCases(input, size));
  cases.push(...buildDescriptorSetCases(listDescriptorSetInputs(), size));
  return cases;
}

// ROBUSTNESS_FAILURES_FILE: the failures of this run (both tests append to it)
if (process.env['ROBUSTNESS_FAILURES_FILE']) writeFileSync(process.env['ROBUSTNESS_FAILURES_FILE'], '');

/** Runs the cases; every failure is printed, and the suite's `N passed, N failed` line. */
async function runCases(cases: readonly MutationCase[], label: string): Promise<void> {
  expect(cases.length).toBeGreaterThan(0);
  let passed = 0;
  let withErrors = 0;
  const failures: string[] = [];
  for (const c of cases) {
    const result = await runMutationCase(c);
    if (result.ok) passed++;
    else failures.push(result.failure!);
    if (result.decodeErrors > 0) withErrors++;
  }
  const dump = process.env['ROBUSTNESS_FAILURES_FILE'];
  if (dump) appendFileSync(dump, failures.map((f) => `${f}\n\n`).join(''));
  for (const f of failures.slice(0, 40)) console.error(`FAILED ${f}\n`);
  if (failures.length > 40) console.error(`… and ${failures.length - 40} more failures`);
  console.log(`${label}: ${cases.length} cases (${size.name}); ${withErrors} ended in DecodeErrors, ${cases.length - withErrors} decoded cleanly`);
  console.log(`${passed} passed, ${failures.length} failed`);
  expect(failures.length, `${failures.length} mutation case(s) failed; see the FAILED lines above`).toBe(0);
}

/** the cases of the shared real savepoints (named `shared/flink-savepoints/…`): skipped, and counted, without ../shared */
const isShared = (c: MutationCase) => c.input.startsWith('shared/');

describe('mutation suite', () => {
  it(`every mutated committed input ends in success or a located DecodeError (${size.name} size)`, async () => {
    await runCases(
      buildAllCases().filter((c) => !isShared(c)),
      'committed inputs',
    );
  });

  it(`every mutated shared real savepoint (${SHARED_SAVEPOINTS}) ends in success or a located DecodeError (${size.name} size)`, NEEDS_SHARED, async () => {
    await runCases(buildAllCases().filter(isShared), 'shared real savepoints');
  });
});
