/**
 * Duplicated structures in `_metadata` (generate-metadata-handles.ts, generateDuplicatedStructures):
 * an operator listed again, a state listed twice in one handle, a subtask's keyed or operator state
 * handle replaced by a copy of another's. Each is read once: `inspect --json` exits 0, warns about
 * the duplicate, and counts no state above its count in the intact savepoint; `stats --json` warns and
 * counts the same way.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpointMetadata } from '../../src/core/flink/metadata/read-checkpoint-metadata';
import { copyFixtureSavepoint, describeSummary, FULL, makeScratchDir, runFuzzCases, type FuzzCase } from './fuzz-workspace';
import { DUPLICATIONS, generateDuplicatedStructures } from './generate-metadata-handles';
import { CliCaseRunner, judgeNoInternalError, type CliRun } from './run-cli-cases';
import { createSeededRandom } from './seeded-random';

const SEED = 0xd0b1e;
const PER_KIND = FULL ? 30 : 4;

interface Counted {
  warnings: string[];
  operators: { id: string; warnings: string[]; states: { name: string; scope: string; entries: number | null }[] }[];
}
interface StatsCounted {
  warnings?: string[];
  states: { operatorId: string; scope: string; state: string; entries?: number }[];
}
const statsCountsOf = (doc: StatsCounted) => new Map(doc.states.map((s) => [`${s.operatorId}/${s.scope}/${s.state}`, s.entries ?? 0] as const));
const DUPLICATE_WARNING = /listed (more than once|\d+ times)|repeats the subtask/;
const countsOf = (doc: Counted) => new Map(doc.operators.flatMap((o) => o.states.map((s) => [`${o.id}/${s.scope}/${s.name}`, s.entries ?? 0] as const)));

describe('fuzz: duplicated structures in _metadata', () => {
  it(`${DUPLICATIONS.length * PER_KIND} cases are read once, with a warning, never counted twice`, async () => {
    const scratch = makeScratchDir('duplicates');
    try {
      const sp = copyFixtureSavepoint(scratch.dir);
      const original = new Uint8Array(readFileSync(path.join(sp, '_metadata')));
      const model = readCheckpointMetadata(original, '_metadata');
      const trailer = original.subarray(model.properties!.trailerOffset!);
      const baselineRunner = new CliCaseRunner();
      const baselineRun = await baselineRunner.run(['inspect', sp, '--format', 'json'], 60_000);
      await baselineRunner.close();
      const baseline = countsOf(JSON.parse(baselineRun.stdout) as Counted);
      const statsBaselineRunner = new CliCaseRunner();
      const statsBaselineRun = await statsBaselineRunner.run(['stats', sp, '--format', 'json'], 60_000);
      await statsBaselineRunner.close();
      const statsBaseline = statsCountsOf(JSON.parse(statsBaselineRun.stdout) as StatsCounted);
      const judge = (run: CliRun): string | undefined => {
        const why = judgeNoInternalError(run);
        if (why) return why;
        if (run.code !== 0) return `exit ${run.code}: ${run.stderr.slice(0, 300)}`;
        const doc = JSON.parse(run.stdout) as Counted;
        if (!doc.warnings.some((w) => DUPLICATE_WARNING.test(w))) return `no warning about the duplicate: ${JSON.stringify(doc.warnings).slice(0, 300)}`;
        for (const [key, n] of countsOf(doc))
          if (n > (baseline.get(key) ?? 0)) return `${key}: ${n} entries, the intact savepoint has ${baseline.get(key) ?? 0}`;
        return undefined;
      };
      // stats reads the same savepoint: it says so too, and counts nothing twice
      const judgeStats = (run: CliRun): string | undefined => {
        const why = judgeNoInternalError(run);
        if (why) return why;
        if (run.code !== 0) return `exit ${run.code}: ${run.stderr.slice(0, 300)}`;
        const doc = JSON.parse(run.stdout) as StatsCounted;
        if (!(doc.warnings ?? []).some((w) => DUPLICATE_WARNING.test(w)))
          return `stats: no warning about the duplicate: ${JSON.stringify(doc.warnings).slice(0, 300)}`;
        for (const [key, n] of statsCountsOf(doc))
          if (n > (statsBaseline.get(key) ?? 0)) return `stats ${key}: ${n} entries, the intact savepoint has ${statsBaseline.get(key) ?? 0}`;
        return undefined;
      };
      const rnd = createSeededRandom(SEED);
      const cases: FuzzCase[] = [];
      let i = 0;
      for (const kind of DUPLICATIONS) {
        for (let k = 0; k < PER_KIND; k++, i++) {
          const generated = generateDuplicatedStructures(model, trailer, kind, rnd);
          if (!generated) continue;
          cases.push({
            name: `duplicates #${i} (seed ${SEED}): ${generated.label}`,
            prepare: () => (writeFileSync(path.join(sp, '_metadata'), generated.bytes), ['inspect', sp, '--format', 'json']),
            judge,
          });
          cases.push({
            name: `duplicates #${i} (seed ${SEED}), stats: ${generated.label}`,
            prepare: () => (writeFileSync(path.join(sp, '_metadata'), generated.bytes), ['stats', sp, '--format', 'json', '--workers', String(1 + (i % 2))]),
            judge: judgeStats,
          });
        }
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('duplicate fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});
