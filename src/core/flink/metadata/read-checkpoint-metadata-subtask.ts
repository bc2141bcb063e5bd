/**
 * Reads one subtask state body of `_metadata`: (V2) the unused duration and legacy task state count,
 * operator handles behind i32 presence flags, the two keyed handles, the channel state lists (V3+) and
 * (V7) the reference-checkpoint marker.
 */
import { type ByteReader, withDecodePath } from '../../io';
import { readChannelStateHandle, type ChannelDirection } from './read-channel-state-handle';
import { readKeyedStateHandle } from './read-keyed-state-handle';
import { readOperatorStateHandle } from './read-operator-state-handle';
import type { ChannelStateHandle, OperatorStateHandle, SubtaskState } from './metadata-types';

export function readCheckpointMetadataSubtask(r: ByteReader, version: number, index: number): SubtaskState {
  if (version === 2) readLegacyFields(r);
  const managedOperatorState = withDecodePath('managed operator state', () => readOptionalOperatorHandle(r, 'managed operator state'));
  const rawOperatorState = withDecodePath('raw operator state', () => readOptionalOperatorHandle(r, 'raw operator state'));
  const managedKeyedState = withDecodePath('managed keyed state', () => readKeyedStateHandle(r));
  const rawKeyedState = withDecodePath('raw keyed state', () => readKeyedStateHandle(r));
  const inputChannelStates = version === 2 ? [] : withDecodePath('input channel state', () => readChannelList(r, version, 'input'));
  const resultSubpartitionStates = version === 2 ? [] : withDecodePath('result subpartition state', () => readChannelList(r, version, 'output'));
  const subtask: SubtaskState = {
    index,
    finished: false,
    managedOperatorState,
    rawOperatorState,
    managedKeyedState,
    rawKeyedState,
    inputChannelStateCount: inputChannelStates.length,
    resultSubpartitionStateCount: resultSubpartitionStates.length,
    inputChannelStates,
    resultSubpartitionStates,
  };
  if (version >= 7) {
    const at = r.position;
    const marker = r.readU8('reference checkpoint marker');
    if (marker > 1) throw r.error('invalid-value', `expected reference checkpoint marker 0 or 1, found ${marker}`, at);
    if (marker === 1) subtask.referenceCheckpointId = r.readI64('reference checkpoint id');
  }
  return subtask;
}

/** V2: "duration" (written as -1, unused) and the number of legacy task states (0; Flink ≤ 1.1's `Checkpointed`). */
function readLegacyFields(r: ByteReader): void {
  r.readI64('unused duration');
  const at = r.position;
  const legacy = r.readI32('number of legacy task states');
  if (legacy !== 0) {
    throw r.error(
      'unsupported-version',
      `expected 0 legacy task states in a version 2 subtask state, found ${legacy} (state of Flink ≤ 1.1's Checkpointed interface, which Flink no longer restores)`,
      at,
    );
  }
}

function readOptionalOperatorHandle(r: ByteReader, what: string): OperatorStateHandle | null {
  const at = r.position;
  const flag = r.readI32(`presence flag of ${what}`);
  if (flag === 0) return null;
  if (flag !== 1) throw r.error('invalid-value', `expected presence flag 0 or 1 for ${what}, found ${flag}`, at);
  return readOperatorStateHandle(r);
}

function readChannelList(r: ByteReader, version: number, direction: ChannelDirection): ChannelStateHandle[] {
  // V1 body: subtask index, 2 info ints, offset count, size, handle code = at least 25 bytes
  const n = r.readCount(direction === 'input' ? 'input channel state handles' : 'result subpartition state handles', 25);
  const out: ChannelStateHandle[] = [];
  for (let i = 0; i < n; i++) out.push(withDecodePath(`#${i}`, () => readChannelStateHandle(r, version, direction)));
  return out;
}
