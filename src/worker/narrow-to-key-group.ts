import type { KeyedStreamInput } from '../core/flink';
import { listKeyGroupBlocks } from '../core/flink';
import { sliceSource } from '../core/io';

/** The stream narrowed to one key group's block: one range read of exactly that block. */
export function narrowToKeyGroup(input: KeyedStreamInput, keyGroup: number): KeyedStreamInput | undefined {
  const block = listKeyGroupBlocks(input).find((b) => b.keyGroup === keyGroup);
  if (!block) return undefined;
  return {
    ...input,
    source: sliceSource(input.source, 0, block.end, input.source.name),
    offsets: input.offsets.map((o, i) => (input.range.start + i === keyGroup ? o : 0)),
  };
}
