/**
 * Structure-aware fuzzing of the `_metadata` state handles (generate-metadata-handles.ts): values
 * near 2^53 in sizes, segment starts and offsets; repeated operator-state and key-group offsets;
 * and one handle of 300,000 distinct element offsets. Each case runs one command in-process under
 * a bound. A repeated offset is refused where `_metadata` repeats it (exit 2, located in
 * `_metadata`); the other faults may leave a state unreadable — `inspect` and `stats` then list the
 * error and exit 0, as documented — but never hang, crash or end in an internal error.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import { writeCheckpointMetadata } from '../../src/core/flink/metadata/write-checkpoint-metadata';
import type { CheckpointMetadata } from '../../src/core/flink/metadata/metadata-types';
import { copyFixtureSavepoint, FULL, makeScratchDir, describeSummary, runFuzzCases, savepointCommand, type FuzzCase } from './fuzz-workspace';
import { generateHostileHandles, HANDLE_FAULTS } from './generate-metadata-handles';
import { judgeBadInputRun, judgeNoInternalError } from './run-cli-cases';
import { createSeededRandom } from './seeded-random';

const SEED = 0x0ff5e7;
const PER_FAULT = FULL ? 80 : 10;
const IN_METADATA = /— at [^\n]*sp\/_metadata, offset \d+ \(0x[0-9a-f]+\) \[operator [0-9a-f]{8}… \/ subtask \d+ \/ managed (keyed|operator) state/;

describe('fuzz: hostile state handles in _metadata', () => {
  it(`${HANDLE_FAULTS.length * PER_FAULT + 1} cases: repeated offsets refused in _metadata, huge values never an internal error, 300,000 offsets in linear time`, async () => {
    const scratch = makeScratchDir('handles');
    try {
      const sp = copyFixtureSavepoint(scratch.dir);
      const original = new Uint8Array(readFileSync(path.join(sp, '_metadata')));
      const model = readCheckpointMetadata(original, '_metadata');
      const trailer = original.subarray(model.properties!.trailerOffset!);
      const rnd = createSeededRandom(SEED);
      const cases: FuzzCase[] = [];
      let i = 0;
      for (const fault of HANDLE_FAULTS) {
        for (let k = 0; k < PER_FAULT; k++, i++) {
          const generated = generateHostileHandles(model, trailer, fault, rnd);
          if (!generated) continue;
          const index = i;
          cases.push({
            name: `handles #${index} (seed ${SEED}): ${generated.label}`,
            prepare: () => {
              writeFileSync(path.join(sp, '_metadata'), generated.bytes);
              return savepointCommand(index, sp);
            },
            judge: fault === 'huge' ? judgeNoInternalError : (run) => judgeBadInputRun(run, IN_METADATA),
          });
        }
      }
      cases.push(manyOperatorOffsets(sp, model, trailer));
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('handle fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});

/** One list state of 300,000 one-byte elements (appended to its file): inspect must count them in linear time. */
function manyOperatorOffsets(sp: string, model: CheckpointMetadata, trailer: Uint8Array): FuzzCase {
  const n = 300_000;
  return {
    name: `handles: ${n} distinct operator-state offsets`,
    prepare: () => {
      const m = structuredClone(model);
      const h = m.operators
        .flatMap((op) => op.subtasks)
        .map((s) => s.managedOperatorState)
        .find((o) => o?.delegate?.kind === 'relative-file' && o.states.some((e) => e.mode === 'SPLIT_DISTRIBUTE' && e.offsets.length > 0))!;
      const file = h.delegate as { kind: 'relative-file'; relativePath: string; size: number };
      const base = file.size;
      appendFileSync(path.join(sp, file.relativePath), new Uint8Array(n));
      file.size += n;
      h.states.find((e) => e.mode === 'SPLIT_DISTRIBUTE' && e.offsets.length > 0)!.offsets = Array.from({ length: n }, (_, k) => base + k);
      writeFileSync(
        path.join(sp, '_metadata'),
        writeCheckpointMetadata({ version: m.version, checkpointId: m.checkpointId, masterStates: m.masterStates, operators: m.operators, trailer }),
      );
      return ['inspect', sp, '--format', 'json'];
    },
    // about 3 s alone and near 15 s on a busy 2-core machine; a quadratic count (9·10^10 steps) would not end in hours
    boundMs: 90_000,
    judge: (run) =>
      judgeNoInternalError(run) ??
      (run.code === 0 && /"entries": 3000\d\d\b/.test(run.stdout) ? undefined : `expected exit 0 and the ${n} elements counted, found exit ${run.code}`),
  };
}
