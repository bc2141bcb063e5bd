/**
 * Structure-aware fuzzing of large descriptor sets in `compare` (generate-descriptor-sets.ts):
 * up to 100,000 reserved ranges or names on the saved side, the new side or both, in every report
 * format. The sets are valid: each case must answer (exit 0 or 1) within its bound, with no
 * internal error — it took minutes (quadratic coverage checks, findings copied per finding) or
 * overflowed the call stack (a spread of 100,000 report lines) before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeSummary, FULL, makeScratchDir, runFuzzCases, type FuzzCase } from './fuzz-workspace';
import {
  DESCRIPTOR_DEFECTS,
  DESCRIPTOR_GROWTHS,
  generateGrownDescriptorSets,
  generateImportChainSet,
  generateInvalidDescriptorSet,
} from './generate-descriptor-sets';
import { REPO_ROOT } from './list-robustness-inputs';
import { judgeBadInputRun, judgeNoInternalError } from './run-cli-cases';
import { createSeededRandom } from './seeded-random';

const SEED = 0xde5c5e7;
const PER_GROWTH = FULL ? 24 : 4;
const FORMATS = ['text', 'json', 'html', 'markdown', 'junit', 'github'];
const BASE = path.join(REPO_ROOT, 'fixtures/schema-changes/field-renamed/old.binpb');
const ROOT = 'fixtures.change.Order';
/**
 * A set with 100,000 reserved ranges added has 100,000 findings: its JSON report is ~68 MB and
 * the HTML one ~37 MB, built whole before they are written, so those cases may grow by more than
 * the default bound (they peaked at ~470 MB of RSS in all on this machine).
 */
const LARGE_REPORT_RSS = 400 * 1024 * 1024;

describe('fuzz: large descriptor sets in compare', () => {
  it(`${DESCRIPTOR_GROWTHS.length * PER_GROWTH} cases answer in time, in every report format`, async () => {
    const scratch = makeScratchDir('descriptors');
    try {
      const base = new Uint8Array(readFileSync(BASE));
      const rnd = createSeededRandom(SEED);
      const cases: FuzzCase[] = [];
      let i = 0;
      for (const growth of DESCRIPTOR_GROWTHS) {
        for (let k = 0; k < PER_GROWTH; k++, i++) {
          const n = k === 0 ? 100_000 : 2_000 + rnd.int(FULL ? 100_000 : 20_000);
          const g = generateGrownDescriptorSets(base, ROOT, growth, n, rnd);
          const format = FORMATS[i % FORMATS.length]!;
          const saved = path.join(scratch.dir, 'saved.binpb');
          const next = path.join(scratch.dir, 'new.binpb');
          cases.push({
            name: `descriptors #${i} (seed ${SEED}): ${g.label}, --format ${format}`,
            prepare: () => {
              writeFileSync(saved, g.saved);
              writeFileSync(next, g.next);
              return ['compare', next, '--against', saved, '--root', ROOT, '--format', format, '--output', path.join(scratch.dir, 'report')];
            },
            judge: (run) =>
              judgeNoInternalError(run, n > 50_000 ? LARGE_REPORT_RSS : undefined) ??
              (run.code === 0 || run.code === 1 ? undefined : `exit ${run.code} for valid sets: ${run.stderr.slice(0, 300)}`),
          });
        }
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('descriptor-set fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });

  const DEFECT_CASES = FULL ? 8 : 2;
  it(`${DESCRIPTOR_DEFECTS.length * DEFECT_CASES} sets protoc would refuse are refused, naming the element, on either side`, async () => {
    const scratch = makeScratchDir('invalid-descriptors');
    try {
      const base = new Uint8Array(readFileSync(BASE));
      const rnd = createSeededRandom(SEED + 1);
      const cases: FuzzCase[] = [];
      let i = 0;
      for (const defect of DESCRIPTOR_DEFECTS) {
        for (let k = 0; k < DEFECT_CASES; k++, i++) {
          const g = generateInvalidDescriptorSet(base, defect, rnd);
          const onNewSide = i % 2 === 0;
          const bad = path.join(scratch.dir, `bad-${i}.binpb`);
          cases.push({
            name: `invalid descriptors #${i} (seed ${SEED + 1}): ${g.label}, on the ${onNewSide ? 'new' : 'saved'} side`,
            prepare: () => {
              writeFileSync(bad, g.bytes);
              return onNewSide ? ['compare', bad, '--against', BASE, '--root', ROOT] : ['compare', BASE, '--against', bad, '--root', ROOT];
            },
            judge: (run) =>
              judgeBadInputRun(run) ??
              (run.stderr.includes('Invalid descriptor set (protoc would refuse it): ') && run.stderr.includes(` / ${g.element}]`)
                ? undefined
                : `not refused as invalid at ${g.element}: ${run.stderr.slice(0, 300)}`),
          });
        }
      }
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('invalid descriptor-set fuzz', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });

  it('a set of 20,000 files in one import chain is compared within the case bound', async () => {
    const scratch = makeScratchDir('import-chain');
    try {
      const chain = generateImportChainSet(FULL ? 50_000 : 20_000);
      const file = path.join(scratch.dir, 'chain.binpb');
      const cases: FuzzCase[] = [
        {
          name: `an import chain of ${FULL ? 50_000 : 20_000} files, compared with itself`,
          prepare: () => (writeFileSync(file, chain.bytes), ['compare', file, '--against', file, '--root', chain.root]),
          judge: (run) => judgeNoInternalError(run) ?? (run.code === 0 ? undefined : `exit ${run.code}: ${run.stderr.slice(0, 300)}`),
          // generous for a busy machine: the quadratic ordering took over 3 minutes for 20,000 files
          boundMs: 90_000,
        },
      ];
      const summary = await runFuzzCases(cases);
      console.log(describeSummary('import-chain descriptor set', summary));
      expect(summary.failures).toEqual([]);
    } finally {
      scratch.remove();
    }
  });
});
