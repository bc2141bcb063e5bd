/**
 * Sampling of very large states: read every n-th key group only, or only the first N entries of
 * each state. Key-group sampling narrows a keyed stream to the chosen key groups' blocks, each
 * read with exactly its own byte range, so the bytes read shrink with the sample.
 */
import { DecodeError, sliceSource } from '../../io';
import { listKeyGroupBlocks } from './read-canonical-keyed-entries';
import type { KeyedStreamInput } from './keyed-stream-types';

export type StateSample =
  /** key groups whose number is a multiple of `every` (0, n, 2n, …); operator state is read whole */
  | { kind: 'key-groups'; every: number }
  /** the first `count` entries of each state (subtasks in index order) */
  | { kind: 'first-entries'; count: number };

/** What a sampled read covered, for showing the sample size next to the figures. */
export interface SampleCoverage {
  sample: StateSample;
  /** key groups with data that were read / that exist, over the keyed streams visited */
  keyGroupsRead: number;
  keyGroupsWithData: number;
}

export function checkStateSample(sample: StateSample): void {
  const n = sample.kind === 'key-groups' ? sample.every : sample.count;
  const what = sample.kind === 'key-groups' ? 'a key-group sampling interval' : 'a per-state entry count';
  if (!Number.isSafeInteger(n) || n < 1) throw new DecodeError({ code: 'invalid-value', detail: `expected ${what} of at least 1, found ${n}` });
}

/** Key groups with data in the stream, and the sub-streams to read under the sample (one per chosen key group). */
export function listSampledKeyedInputs(
  input: KeyedStreamInput,
  sample: StateSample | undefined,
): { inputs: KeyedStreamInput[]; keyGroupsWithData: number; keyGroupsRead: number } {
  const blocks = listKeyGroupBlocks(input);
  if (sample?.kind !== 'key-groups') return { inputs: [input], keyGroupsWithData: blocks.length, keyGroupsRead: blocks.length };
  const chosen = blocks.filter((b) => b.keyGroup % sample.every === 0);
  const inputs = chosen.map((b) => narrowToBlock(input, b));
  return { inputs, keyGroupsWithData: blocks.length, keyGroupsRead: chosen.length };
}

/** The stream narrowed to one key group's block (undefined when the key group holds no data): one range read of exactly that block. */
export function narrowKeyedInputToKeyGroup(input: KeyedStreamInput, keyGroup: number): KeyedStreamInput | undefined {
  const block = listKeyGroupBlocks(input).find((b) => b.keyGroup === keyGroup);
  return block === undefined ? undefined : narrowToBlock(input, block);
}

/** The stream narrowed to some key groups (those with data), in block order. */
export function narrowKeyedInputToKeyGroups(
  input: KeyedStreamInput,
  keyGroups: Iterable<number>,
): { inputs: KeyedStreamInput[]; keyGroupsWithData: number; keyGroupsRead: number } {
  const inputs = [...new Set(keyGroups)].flatMap((kg) => narrowKeyedInputToKeyGroup(input, kg) ?? []);
  const offsetOf = (i: KeyedStreamInput) => Math.max(...i.offsets);
  inputs.sort((a, b) => offsetOf(a) - offsetOf(b));
  return { inputs, keyGroupsWithData: inputs.length, keyGroupsRead: inputs.length };
}

/**
 * The stream narrowed to a key-group shard (inclusive), under a key-group sample when given: the
 * shard's blocks with data only, counted as the key groups with data (so the counts of a split add up
 * to the whole stream's). Blocks next to each other in the stream are read as one range (the offsets
 * outside the shard zeroed, the source cut after the shard's last block); a shard whose blocks are not
 * contiguous in the stream is read block by block.
 */
export function narrowKeyedInputToKeyGroupRange(
  input: KeyedStreamInput,
  range: { start: number; end: number },
  sample: StateSample | undefined,
): { inputs: KeyedStreamInput[]; keyGroupsWithData: number; keyGroupsRead: number } {
  const all = listKeyGroupBlocks(input);
  const inRange = (kg: number) => kg >= range.start && kg <= range.end;
  const first = all.findIndex((b) => inRange(b.keyGroup));
  const blocks = all.filter((b) => inRange(b.keyGroup));
  if (blocks.length === 0) return { inputs: [], keyGroupsWithData: 0, keyGroupsRead: 0 };
  if (sample?.kind === 'key-groups') {
    const chosen = blocks.filter((b) => b.keyGroup % sample.every === 0);
    return { inputs: chosen.map((b) => narrowToBlock(input, b)), keyGroupsWithData: blocks.length, keyGroupsRead: chosen.length };
  }
  const contiguous = blocks.every((b, i) => all[first + i] === b);
  if (!contiguous) return { inputs: blocks.map((b) => narrowToBlock(input, b)), keyGroupsWithData: blocks.length, keyGroupsRead: blocks.length };
  const last = blocks[blocks.length - 1]!;
  const narrowed: KeyedStreamInput = {
    ...input,
    source: last.end === input.source.size ? input.source : sliceSource(input.source, 0, last.end, input.source.name),
    offsets: input.offsets.map((o, i) => (inRange(input.range.start + i) ? o : 0)),
  };
  return { inputs: [narrowed], keyGroupsWithData: blocks.length, keyGroupsRead: blocks.length };
}

function narrowToBlock(input: KeyedStreamInput, block: { keyGroup: number; end: number }): KeyedStreamInput {
  return {
    ...input,
    // the block is the only non-zero offset and ends where the source ends: one exact range read
    source: sliceSource(input.source, 0, block.end, input.source.name),
    offsets: input.offsets.map((o, i) => (input.range.start + i === block.keyGroup ? o : 0)),
  };
}
