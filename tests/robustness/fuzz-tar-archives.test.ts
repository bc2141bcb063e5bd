/**
 * Structure-aware fuzzing of tar and tar.gz savepoints (generate-tar-archives.ts): up to 100,000
 * members of one name or 100,000 distinct members, long names and pax paths, damaged headers,
 * sizes near 2^53, cuts. A readable archive must answer (exit 0 or 1) within its bound; any other
 * must end without a hang or an internal error, and exit 2 only with a located message.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSummary, FIXTURE_SAVEPOINT, FULL, makeScratchDir, runFuzzCases, savepointCommand, type FuzzCase } from './fuzz-workspace';
import { generateTarArchive, TAR_SHAPES } from './generate-tar-archives';
import { judgeNoInternalError } from './run-cli-cases';
import { createSeededRandom } from './seeded-random';

const SEED = 0x7a2;
const PER_SHAPE = FULL ? 40 : 5;

describe('fuzz: hostile tar archives', () => {
  it(`${TAR_SHAPES.length * PER_SHAPE} cases: readable ones answer in time, the others without an internal error`, async () => {
    const scratch = makeScratchDir('tar');
    try {
      const files = readdirSync(FIXTURE_SAVEPOINT)
        .sort()
        .map((name) => ({ path: name, bytes: new Uint8Array(readFileSync(path.join(FIXTURE_SAVEPOINT, name))) }));
      const rnd = createSeededRandom(SEED);
      const cases: FuzzCase[] = [];
      let i = 0;
      for (const shape of TAR_SHAPES) {
        for (let k = 0; k < PER_SHAPE; k++, i++) {
          // the first case of a shape is the large one; the others stay small to keep the run short
          const many = k === 0 ? 100_000 : 1 + rnd.int(FULL ? 50_000 : 2_000);
          const generated = generateTarArchive(files, shape, rnd, many);
          const input = path.join(scratch.dir, `case-${i}.tar`);
          const index = i;
          cases.push({
            name: `tar #${index} (seed ${SEED}): ${generated.label}`,
            prepare: () => {
              writeFileSync(input, generated.bytes);
              return savepointCommand(index, input);
            },
            judge: (run) =>
              judgeNoInternalError(run) ??
              (!generated.readable || run.code === 0 || run.code === 1 ? undefined : `exit ${run.code} for a readable archive: ${run.stderr.slice(0, 300)}`),
          });
        }
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('tar fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});
