/**
 * Reads one operator state of `_metadata`: V5+ name/uid, the 16-byte operator id,
 * parallelism, max parallelism, coordinator state (V3+) or the unused "chain length" 1 (V2, Flink 1.3–1.10:
 * MetadataV2Serializer / SavepointV2Serializer), then the subtask entries.
 */
import { type ByteReader, withDecodePath, formatHex } from '../../io';
import { MAX_KEY_GROUPS } from './read-handle-primitives';
import { readCheckpointMetadataSubtask } from './read-checkpoint-metadata-subtask';
import { readStreamHandle } from './read-stream-handle';
import type { OperatorState, SubtaskState } from './metadata-types';

/** Path segment used in errors: `operator 6730ef73…`. */
export function formatOperatorPathSegment(id: string): string {
  return `operator ${id.slice(0, 8)}…`;
}

export function readCheckpointMetadataOperator(r: ByteReader, version: number, ordinal: number): OperatorState {
  let name: string | undefined;
  let uid: string | undefined;
  if (version >= 5) {
    withDecodePath(`operator #${ordinal}`, () => {
      name = r.readUtf('operator name');
      uid = r.readUtf('operator uid');
    });
  }
  const id = withDecodePath(`operator #${ordinal}`, () => readOperatorId(r));
  return withDecodePath(formatOperatorPathSegment(id), () => {
    const parallelismAt = r.position;
    const parallelism = r.readI32('operator parallelism');
    const maxParallelism = r.readI32('operator max parallelism');
    if (parallelism < 1 || maxParallelism < parallelism || maxParallelism > MAX_KEY_GROUPS) {
      throw r.error(
        'invalid-value',
        `expected 1 <= parallelism <= max parallelism <= ${MAX_KEY_GROUPS}, found parallelism ${parallelism} and max parallelism ${maxParallelism}`,
        parallelismAt,
      );
    }
    const coordinatorAt = r.position;
    if (version === 2) readChainLength(r);
    const coordinatorState = version === 2 ? null : withDecodePath('coordinator state', () => readStreamHandle(r));
    if (coordinatorState !== null && coordinatorState.kind !== 'inline') {
      throw r.error('invalid-value', `expected the coordinator state to be null or inline (code 1), found a ${coordinatorState.kind} handle`, coordinatorAt);
    }
    const countAt = r.position;
    const count = r.readI32('number of subtask states');
    const op: OperatorState = { id, parallelism, maxParallelism, coordinatorState, fullyFinished: false, subtasks: [] };
    if (name) op.name = name;
    if (uid) op.uid = uid;
    if (count < 0 && version > 2) {
      if (coordinatorState !== null) {
        throw r.error('invalid-value', 'expected no coordinator state for a fully finished operator (subtask count -1), found one', coordinatorAt);
      }
      op.fullyFinished = true;
      return op;
    }
    r.checkCount(count, 'subtask states', 4, parallelism, countAt);
    op.subtasks = readSubtasks(r, version, count, parallelism);
    return op;
  });
}

/** V2: the "chain length" of pre-1.3 savepoints, always written as 1 since. */
function readChainLength(r: ByteReader): void {
  const at = r.position;
  const chainLength = r.readI32('chain length');
  if (chainLength !== 1) {
    throw r.error(
      'invalid-value',
      `expected the unused chain length 1 of a version 2 operator state, found ${chainLength} (a pre-Flink-1.3 chained operator state)`,
      at,
    );
  }
}

function readOperatorId(r: ByteReader): string {
  return formatHex(r.readBytes(16, 'operator id (16 bytes)'));
}

function readSubtasks(r: ByteReader, version: number, count: number, parallelism: number): SubtaskState[] {
  const seen = new Set<number>();
  const subtasks: SubtaskState[] = [];
  for (let i = 0; i < count; i++) {
    const at = r.position;
    const stored = r.readI32(`subtask index of subtask entry #${i}`);
    const finished = stored < 0 && version > 2;
    const index = finished ? -stored - 1 : stored;
    if (index >= parallelism || seen.has(index)) {
      const why = index >= parallelism ? `below the parallelism ${parallelism}` : 'not seen before';
      throw r.error('invalid-value', `expected a subtask index ${why}, found ${index}${finished ? ` (stored as ${stored}, finished)` : ''}`, at);
    }
    seen.add(index);
    if (finished) {
      subtasks.push(emptyFinishedSubtask(index));
    } else {
      subtasks.push(withDecodePath(`subtask ${index}`, () => readCheckpointMetadataSubtask(r, version, index)));
    }
  }
  return subtasks;
}

function emptyFinishedSubtask(index: number): SubtaskState {
  return {
    index,
    finished: true,
    managedOperatorState: null,
    rawOperatorState: null,
    managedKeyedState: null,
    rawKeyedState: null,
    inputChannelStateCount: 0,
    resultSubpartitionStateCount: 0,
  };
}
