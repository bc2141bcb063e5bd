/**
 * Structure-aware fuzzing of the `_metadata` trailer (the Java-serialized CheckpointProperties):
 * seeded hostile trailers (generate-java-trailers.ts: superclass self-references and cycles,
 * back-references of the wrong kind, dangling handles) spliced into a fixture savepoint and run
 * through every command in-process, each case bounded: exit 2, a located message, no stack.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import { copyFixtureSavepoint, FULL, makeScratchDir, describeSummary, runFuzzCases, savepointCommand, type FuzzCase } from './fuzz-workspace';
import { generateHostileTrailer, TRAILER_FAULTS } from './generate-java-trailers';
import { judgeBadInputRun } from './run-cli-cases';
import { createSeededRandom } from './seeded-random';

const SEED = 0x7a11e2;
const PER_FAULT = FULL ? 60 : 6;

describe('fuzz: hostile Java-serialized trailers of _metadata', () => {
  it(`${TRAILER_FAULTS.length * PER_FAULT} cases end in exit 2 with the offset in _metadata`, async () => {
    const scratch = makeScratchDir('trailer');
    try {
      const sp = copyFixtureSavepoint(scratch.dir);
      const original = new Uint8Array(readFileSync(path.join(sp, '_metadata')));
      const trailerAt = readCheckpointMetadata(original, '_metadata').properties!.trailerOffset!;
      const rnd = createSeededRandom(SEED);
      const cases: FuzzCase[] = [];
      let i = 0;
      for (const fault of TRAILER_FAULTS) {
        for (let k = 0; k < PER_FAULT; k++, i++) {
          const { bytes, label } = generateHostileTrailer(fault, rnd);
          const index = i;
          cases.push({
            name: `trailer #${index} (seed ${SEED}): ${label}`,
            prepare: () => {
              const metadata = new Uint8Array(trailerAt + bytes.length);
              metadata.set(original.subarray(0, trailerAt));
              metadata.set(bytes, trailerAt);
              writeFileSync(path.join(sp, '_metadata'), metadata);
              return savepointCommand(index, sp);
            },
            judge: (run) => judgeBadInputRun(run, /— at [^\n]*sp\/_metadata, offset \d+ \(0x[0-9a-f]+\) \[checkpoint properties\]/),
          });
        }
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('trailer fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});
