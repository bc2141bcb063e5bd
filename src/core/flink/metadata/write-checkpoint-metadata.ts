/**
 * Writes a `_metadata` file from the model, the inverse of readCheckpointMetadata.
 * The V4+ trailer is written as given (raw Java serialization bytes). Used to build synthetic
 * savepoints and byte-exact test inputs.
 */
import { ByteWriter } from '../../io';
import { METADATA_MAGIC } from './read-checkpoint-metadata-header';
import { MASTER_STATE_MAGIC } from './read-checkpoint-metadata-master-state';
import { writeChannelStateHandle, writeKeyedStateHandle, writeOperatorStateHandle, writeStreamHandle } from './write-state-handle';
import type { MasterState, OperatorState, SubtaskState } from './metadata-types';

export interface CheckpointMetadataToWrite {
  version: number;
  checkpointId: bigint;
  masterStates?: MasterState[];
  operators: OperatorState[];
  /** V4+: the raw trailer bytes (a Java-serialized CheckpointProperties) */
  trailer?: Uint8Array;
}

export function writeCheckpointMetadata(m: CheckpointMetadataToWrite): Uint8Array {
  const w = new ByteWriter();
  w.u32(METADATA_MAGIC).i32(m.version).i64(m.checkpointId);
  const masters = m.masterStates ?? [];
  w.i32(masters.length);
  for (const s of masters) {
    const payload = new ByteWriter().i32(s.version).utf(s.name).i32(s.data.length).bytes(s.data).finish();
    w.u32(MASTER_STATE_MAGIC).i32(payload.length).bytes(payload);
  }
  w.i32(m.operators.length);
  for (const op of m.operators) writeOperator(w, op, m.version);
  if (m.trailer) w.bytes(m.trailer);
  return w.finish();
}

function writeOperator(w: ByteWriter, op: OperatorState, version: number): void {
  if (version >= 5) w.utf(op.name ?? '').utf(op.uid ?? '');
  for (let i = 0; i < 32; i += 2) w.u8(parseInt(op.id.slice(i, i + 2), 16));
  w.i32(op.parallelism).i32(op.maxParallelism);
  if (version === 2)
    w.i32(1); // the unused chain length
  else writeStreamHandle(w, op.coordinatorState);
  if (op.fullyFinished) {
    w.i32(-1);
    return;
  }
  w.i32(op.subtasks.length);
  for (const s of op.subtasks) {
    if (s.finished) {
      w.i32(-(s.index + 1));
      continue;
    }
    w.i32(s.index);
    writeSubtask(w, s, version);
  }
}

function writeSubtask(w: ByteWriter, s: SubtaskState, version: number): void {
  if (version === 2) w.i64(-1).i32(0); // unused duration, no legacy task states
  for (const h of [s.managedOperatorState, s.rawOperatorState]) {
    w.i32(h === null ? 0 : 1);
    if (h !== null) writeOperatorStateHandle(w, h);
  }
  writeKeyedStateHandle(w, s.managedKeyedState);
  writeKeyedStateHandle(w, s.rawKeyedState);
  for (const list of version === 2 ? [] : [s.inputChannelStates ?? [], s.resultSubpartitionStates ?? []]) {
    w.i32(list.length);
    for (const h of list) writeChannelStateHandle(w, h, version);
  }
  if (version >= 7) {
    if (s.referenceCheckpointId === undefined) w.u8(0);
    else w.u8(1).i64(s.referenceCheckpointId);
  }
}
