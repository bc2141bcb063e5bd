import { ByteReader, decodeSnappyFramed, type ByteSource } from '../io';
import { throwIfCancelled, type CancelSignal } from './cancel-signal';
import { decodeKeyedEntry, planKeyedDecode, type KeyedDecodePlan } from './decode-keyed-entry';
import type { KeyedStateHeader, StateEntry } from './inspection-types';
import { readKeyGroupBlock } from './read-key-group-block';
import type { KeyGroupRange } from './types';

export interface KeyedStreamInput {
  operatorId: string;
  subtask: number;
  maxParallelism: number;
  /** the handle's bytes (byte 0 = stream start) */
  source: ByteSource;
  /** file named in errors and byte ranges, and the absolute offset of source byte 0 in it */
  file: string;
  baseOffset: number;
  range: KeyGroupRange;
  /** one per key group of the range; 0 = no data */
  offsets: number[];
}

export interface KeyedReadOptions {
  /** only this state's entries */
  state?: string;
  signal?: CancelSignal;
}

/** Non-zero offsets as [keyGroup, offset, end) blocks, in offset order; end = next block or the stream end. */
export function listKeyGroupBlocks(input: Pick<KeyedStreamInput, 'range' | 'offsets' | 'source'>): { keyGroup: number; offset: number; end: number }[] {
  const blocks = input.offsets
    .map((offset, i) => ({ keyGroup: input.range.start + i, offset }))
    .filter((b) => b.offset !== 0)
    .sort((a, b) => a.offset - b.offset);
  return blocks.map((b, i) => ({ ...b, end: i + 1 < blocks.length ? blocks[i + 1]!.offset : input.source.size }));
}

/** Where the header of a keyed stream must end: the first non-zero offset, or the stream end (spec §3.1). */
export function computeKeyedHeaderFence(input: Pick<KeyedStreamInput, 'range' | 'offsets' | 'source'>): number {
  const first = listKeyGroupBlocks(input)[0];
  return first ? first.offset : input.source.size;
}

/**
 * Streams the entries of a canonical keyed state stream (spec §3.2–§3.4): one block per non-zero
 * key-group offset, read with one range read per block (Snappy-framed per block when the header
 * says so), decoded per state with the header's serializers.
 */
export async function* readCanonicalKeyedEntries(input: KeyedStreamInput, header: KeyedStateHeader, options: KeyedReadOptions = {}): AsyncGenerator<StateEntry> {
  const plans = new Map<number, KeyedDecodePlan>();
  const wanted = options.state === undefined ? undefined : header.states.findIndex((s) => s.name === options.state);
  if (wanted === -1) return;
  for (const block of listKeyGroupBlocks(input)) {
    throwIfCancelled(options.signal);
    const raw = await input.source.read(block.offset, block.end - block.offset);
    const absolute = input.baseOffset + block.offset;
    const r = header.compressed
      ? new ByteReader(decodeSnappyFramed(raw, { identifier: 'required', file: input.file }).data, { file: `${input.file} (Snappy block at ${absolute})`, baseOffset: 0 })
      : new ByteReader(raw, { file: input.file, baseOffset: absolute });
    const prefixBytes = input.maxParallelism > 128 ? 2 : 1;
    for (const e of readKeyGroupBlock(r, header.states.length, prefixBytes)) {
      if (wanted !== undefined && e.stateId !== wanted) continue;
      let plan = plans.get(e.stateId);
      if (!plan) {
        plan = planKeyedDecode(header.states[e.stateId]!, header.keySerializer, input.maxParallelism);
        plans.set(e.stateId, plan);
      }
      const decoded = decodeKeyedEntry(
        plan,
        new ByteReader(e.key, { file: r.file ?? input.file, baseOffset: e.keyOffset }),
        new ByteReader(e.value, { file: r.file ?? input.file, baseOffset: e.valueOffset }),
        block.keyGroup,
      );
      yield {
        operatorId: input.operatorId,
        state: plan.state.name,
        subtask: input.subtask,
        ...decoded,
        file: r.file ?? input.file,
        keyRange: { offset: e.keyOffset, length: e.key.length },
        valueRange: { offset: e.valueOffset, length: e.value.length },
      };
    }
  }
}
