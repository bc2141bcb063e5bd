/**
 * The mutation suite (`npm run test:robustness`): every real savepoint (committed fixtures and
 * ../shared/flink-savepoints), every snapshot fixture and a sample of the descriptor-set fixtures,
 * truncated, bit-flipped, with hostile length/count fields, swapped and emptied files. Each case
 * must end in success or DecodeErrors naming file and offset (run-mutation-case.ts). Prints
 * `N passed, N failed` alone on a line. ROBUSTNESS_CASES=full runs the large plan;
 * ROBUSTNESS_FAILURES_FILE=<path> writes every failure (input, mutation, stack) to that file.
 */
import { writeFileSync } from 'node:fs';
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
import { listDescriptorSetInputs, listSavepointInputs, listSnapshotInputs, sharedSavepointsExist, SHARED_SAVEPOINTS } from './list-robustness-inputs';
import { runMutationCase } from './run-mutation-case';

const size = process.env['ROBUSTNESS_CASES'] === 'full' ? FULL_SIZE : DEFAULT_SIZE;

function buildAllCases(): MutationCase[] {
  const cases: MutationCase[] = [];
  for (const input of listSavepointInputs()) cases.push(...(input.kind === 'folder' ? buildSavepointFolderCases(input, size) : buildSavepointArchiveCases(input, size)));
  for (const input of listSnapshotInputs()) cases.push(...buildSnapshotCases(input, size));
  cases.push(...buildDescriptorSetCases(listDescriptorSetInputs(), size));
  return cases;
}

describe('mutation suite', () => {
  it(`every mutated input ends in success or a located DecodeError (${size.name} size)`, async () => {
    if (!sharedSavepointsExist) console.log(`note: ${SHARED_SAVEPOINTS} is absent; the shared real savepoints are not mutated in this run`);
    const cases = buildAllCases();
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
    if (dump) writeFileSync(dump, failures.join('\n\n'));
    for (const f of failures.slice(0, 40)) console.error(`FAILED ${f}\n`);
    if (failures.length > 40) console.error(`… and ${failures.length - 40} more failures`);
    console.log(`${cases.length} cases (${size.name}); ${withErrors} ended in DecodeErrors, ${cases.length - withErrors} decoded cleanly`);
    console.log(`${passed} passed, ${failures.length} failed`);
    expect(failures.length, `${failures.length} mutation case(s) failed; see the FAILED lines above`).toBe(0);
  });
});
