/**
 * Reads a Flink checkpoint/savepoint `_metadata` file, versions 2–7: header, master
 * states, operator states with their subtask handles, and the V4+ checkpoint-properties trailer.
 * Every error is a DecodeError with file, absolute offset and a logical path such as
 * `operator 6730ef73… / subtask 2 / managed keyed state`.
 */
import { ByteReader, withDecodePath } from '../../io';
import { readCheckpointMetadataHeader } from './read-checkpoint-metadata-header';
import { readCheckpointMetadataMasterState } from './read-checkpoint-metadata-master-state';
import { readCheckpointMetadataOperator } from './read-checkpoint-metadata-operator';
import { readCheckpointProperties } from './read-checkpoint-properties';
import type { CheckpointMetadata, MasterState, OperatorState } from './metadata-types';

/** Smallest operator state: V3/V4 id 16 + parallelism 8 + coordinator 1 + subtask count 4 (V2: chain length 4). */
const MIN_OPERATOR_BYTES = 29;

export function readCheckpointMetadata(bytes: Uint8Array, file = '_metadata'): CheckpointMetadata {
  const r = new ByteReader(bytes, { file });
  const version = readCheckpointMetadataHeader(r);
  const idAt = r.position;
  const checkpointId = r.readI64('checkpoint id');
  if (checkpointId < 0n) throw r.error('invalid-value', `expected a non-negative checkpoint id, found ${checkpointId}`, idAt);

  const masterCount = r.readCount('master states', 8);
  const masterStates: MasterState[] = [];
  for (let i = 0; i < masterCount; i++) {
    masterStates.push(withDecodePath(`master state #${i}`, () => readCheckpointMetadataMasterState(r)));
  }

  const operatorCount = r.readCount('operator states', version >= 5 ? MIN_OPERATOR_BYTES + 4 : version === 2 ? MIN_OPERATOR_BYTES + 3 : MIN_OPERATOR_BYTES);
  const operators: OperatorState[] = [];
  for (let i = 0; i < operatorCount; i++) operators.push(readCheckpointMetadataOperator(r, version, i));

  const trailerAt = r.position;
  const properties = version >= 4 ? readCheckpointProperties(r.readBytes(r.remaining, 'trailer'), file, trailerAt) : null;
  if (version < 4 && !r.atEnd) {
    throw r.error('invalid-value', `expected the end of a version ${version} _metadata file after the last operator state, found ${r.remaining} more bytes`);
  }
  return { version, checkpointId, masterStates, operators, properties, size: bytes.length };
}
