/** Decodes raw key/value pairs of one key-group block (or window of one) into StateEntry objects. */
import { ByteReader } from '../io';
import { decodeKeyedEntryInto, planKeyedDecode, type KeyedDecodePlan } from './decode-keyed-entry';
import type { KeyedStateHeader, StateEntry } from './inspection-types';
import type { KeyedStreamInput } from './read-canonical-keyed-entries';
import type { RawKeyedEntry } from './read-key-group-block';

/** What decoding the key-group blocks of one stream needs, made once per stream. */
export interface KeyedBlockDecoding {
  input: KeyedStreamInput;
  header: KeyedStateHeader;
  /** decode plans by state id, made on first use */
  plans: Map<number, KeyedDecodePlan>;
  /** the state ids to decode (undefined: every state) */
  wanted: ReadonlySet<number> | undefined;
  /** bytes of the key-group prefix of every key (2 above max parallelism 128) */
  prefixBytes: number;
}

export function* decodeRawKeyedEntries(d: KeyedBlockDecoding, raw: readonly RawKeyedEntry[], file: string, keyGroup: number): Generator<StateEntry> {
  const { input, header, plans, wanted } = d;
  for (const e of raw) {
    if (wanted !== undefined && !wanted.has(e.stateId)) continue;
    let plan = plans.get(e.stateId);
    if (!plan) {
      plan = planKeyedDecode(header.states[e.stateId]!, header.keySerializer, input.maxParallelism);
      plans.set(e.stateId, plan);
    }
    // one object per entry, in StateEntry's property order (the decoded parts are written into it)
    const entry = decodeKeyedEntryInto(
      { operatorId: input.operatorId, state: plan.state.name, subtask: input.subtask },
      plan,
      new ByteReader(e.key, { file, baseOffset: e.keyOffset }),
      new ByteReader(e.value, { file, baseOffset: e.valueOffset }),
      keyGroup,
    ) as StateEntry;
    entry.file = file;
    entry.keyRange = { offset: e.keyOffset, length: e.key.length };
    entry.valueRange = { offset: e.valueOffset, length: e.value.length };
    yield entry;
  }
}
