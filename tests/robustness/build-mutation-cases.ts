/**
 * Turns the inputs into mutation cases. Savepoints: every file of the input is a target in turn
 * (`_metadata` always with the full per-file budget, state files a seeded sample in the default
 * run, all of them in the full run), plus swapped files (one state file's bytes under another's
 * name) and zero-length files. Snapshots and descriptor sets: the per-file plan on their bytes.
 */
import type { DescriptorSetInput, SavepointArchiveInput, SavepointFolderInput, SnapshotInput } from './list-robustness-inputs';
import { EMPTY_FILE, planFileMutations, type ByteMutation, type MutationBudget } from './plan-mutations';
import { runDescriptorSetPipeline, runSavepointPipeline, runSnapshotPipeline, type NamedBytes, type PipelineOutcome } from './run-decode-pipelines';
import { createSeededRandom, seedFromText } from './seeded-random';

export interface MutationCase {
  input: string;
  /** what was done: `<file> <mutation label>` */
  mutation: string;
  run(): Promise<PipelineOutcome>;
}

export interface SuiteSize {
  name: 'default' | 'full';
  /** budget for `_metadata`, archives, snapshots */
  primary: MutationBudget;
  /** budget for each mutated state file */
  stateFile: MutationBudget;
  /** state files mutated per savepoint folder (Infinity: all) */
  stateFilesPerSavepoint: number;
  swapsPerSavepoint: number;
  emptiesPerSavepoint: number;
  /** descriptor sets mutated (Infinity: all), and their budget */
  descriptorSets: number;
  descriptorBudget: MutationBudget;
}

export const DEFAULT_SIZE: SuiteSize = {
  name: 'default',
  primary: { truncateAllUpTo: 48, truncations: 10, bitFlips: 10, lengthFields: 6, valuesPerField: 1 },
  stateFile: { truncateAllUpTo: 8, truncations: 3, bitFlips: 3, lengthFields: 2, valuesPerField: 1 },
  stateFilesPerSavepoint: 3,
  swapsPerSavepoint: 2,
  emptiesPerSavepoint: 2,
  descriptorSets: 8,
  descriptorBudget: { truncateAllUpTo: 8, truncations: 4, bitFlips: 6, lengthFields: 0, valuesPerField: 1 },
};

export const FULL_SIZE: SuiteSize = {
  name: 'full',
  primary: { truncateAllUpTo: 4096, truncations: 400, bitFlips: 400, lengthFields: 100, valuesPerField: 4 },
  stateFile: { truncateAllUpTo: 512, truncations: 60, bitFlips: 60, lengthFields: 20, valuesPerField: 4 },
  stateFilesPerSavepoint: Infinity,
  swapsPerSavepoint: 12,
  emptiesPerSavepoint: Infinity,
  descriptorSets: Infinity,
  descriptorBudget: { truncateAllUpTo: 64, truncations: 60, bitFlips: 100, lengthFields: 0, valuesPerField: 1 },
};

function replaceFile(files: readonly NamedBytes[], index: number, bytes: Uint8Array): NamedBytes[] {
  return files.map((f, i) => (i === index ? { path: f.path, bytes } : f));
}

function isMetadata(f: NamedBytes): boolean {
  return f.path === '_metadata' || f.path.endsWith('/_metadata');
}

export function buildSavepointFolderCases(input: SavepointFolderInput, size: SuiteSize): MutationCase[] {
  const rng = createSeededRandom(seedFromText(input.name));
  const cases: MutationCase[] = [];
  const indexes = input.files.map((_, i) => i);
  const metadata = indexes.filter((i) => isMetadata(input.files[i]!));
  const states = indexes.filter((i) => !isMetadata(input.files[i]!) && !input.files[i]!.path.endsWith('.json'));
  const picked = rng.sample(states.length, Math.min(states.length, size.stateFilesPerSavepoint)).map((k) => states[k]!);
  const add = (index: number, m: ByteMutation) => {
    const target = input.files[index]!;
    cases.push({
      input: input.name,
      mutation: `${target.path} ${m.label}`,
      run: () => runSavepointPipeline({ kind: 'folder', name: input.name, files: replaceFile(input.files, index, m.apply(target.bytes)) }),
    });
  };
  for (const i of metadata) for (const m of planFileMutations(input.files[i]!.bytes, size.primary, rng)) add(i, m);
  for (const i of picked) for (const m of planFileMutations(input.files[i]!.bytes, size.stateFile, rng)) add(i, m);
  const empties = [...metadata, ...rng.sample(states.length, Math.min(states.length, size.emptiesPerSavepoint - 1)).map((k) => states[k]!)];
  for (const i of empties) add(i, EMPTY_FILE);
  if (states.length >= 2) {
    for (let n = 0; n < Math.min(size.swapsPerSavepoint, states.length * (states.length - 1)); n++) {
      const a = states[rng.int(states.length)]!;
      let b = states[rng.int(states.length - 1)]!;
      if (b === a) b = states[states.length - 1]!;
      const under = input.files[a]!;
      const from = input.files[b]!;
      cases.push({
        input: input.name,
        mutation: `swap: ${from.path} bytes under the name ${under.path}`,
        run: () => runSavepointPipeline({ kind: 'folder', name: input.name, files: replaceFile(input.files, a, from.bytes) }),
      });
    }
  }
  return cases;
}

export function buildSavepointArchiveCases(input: SavepointArchiveInput, size: SuiteSize): MutationCase[] {
  const rng = createSeededRandom(seedFromText(input.name));
  return [...planFileMutations(input.file.bytes, size.primary, rng), EMPTY_FILE].map((m) => ({
    input: input.name,
    mutation: `${input.file.path} ${m.label}`,
    run: () => runSavepointPipeline({ kind: 'archive', file: { path: input.file.path, bytes: m.apply(input.file.bytes) } }),
  }));
}

export function buildSnapshotCases(input: SnapshotInput, size: SuiteSize): MutationCase[] {
  const rng = createSeededRandom(seedFromText(input.name));
  return [...planFileMutations(input.file.bytes, size.primary, rng), EMPTY_FILE].map((m) => ({
    input: input.name,
    mutation: `${input.file.path} ${m.label}`,
    run: () => runSnapshotPipeline({ path: input.file.path, bytes: m.apply(input.file.bytes) }),
  }));
}

export function buildDescriptorSetCases(inputs: readonly DescriptorSetInput[], size: SuiteSize): MutationCase[] {
  const rng = createSeededRandom(seedFromText('descriptor sets'));
  const chosen = rng.sample(inputs.length, Math.min(inputs.length, size.descriptorSets)).map((i) => inputs[i]!);
  const cases: MutationCase[] = [];
  for (const input of chosen) {
    for (const m of [...planFileMutations(input.file.bytes, size.descriptorBudget, rng), EMPTY_FILE]) {
      cases.push({
        input: input.name,
        mutation: `${input.file.path} ${m.label}`,
        run: () =>
          runDescriptorSetPipeline({
            file: { path: input.file.path, bytes: m.apply(input.file.bytes) },
            root: input.root,
            partner: input.partner,
            partnerRoot: input.partnerRoot,
          }),
      });
    }
  }
  return cases;
}
