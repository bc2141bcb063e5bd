/**
 * Byte layouts of the Kafka connector's state (flink-connector-kafka 3.x/4.x) and the Flink envelopes around
 * them, read from Flink's and the connector's sources (docs/flink-formats.md, "Connector state"):
 * - SimpleVersionedSerialization.writeVersionAndSerialize: int32 version, int32 length, `length` bytes;
 * - KafkaPartitionSplitSerializer v0: modified-UTF topic, int32 partition, int64 starting offset, int64
 *   stopping offset (Long.MIN_VALUE: none);
 * - SourceCoordinator checkpoint: int32 coordinator serde version (0 or 1), int32 enumerator serializer
 *   version, int32 length, the enumerator's bytes (version 0 then holds the split assignment, not read here);
 * - KafkaSourceEnumStateSerializer v1: int32 count, (UTF topic, int32 partition)*; v2: int32 count, (UTF
 *   topic, int32 partition, int32 status: 0 assigned, 1 unassigned-initial)*, boolean initial discovery finished;
 *   v3 (connector 5.0): int32 count, int32 split serializer version, (int32 length, split v0, int32 status)*, boolean;
 * - KafkaWriterStateSerializer v1: UTF transactional id prefix; v2 (4.0.x, 5.0.x): then int32 owned subtask id,
 *   int32 total owned subtasks, int32 TransactionOwnership ordinal, int32 count, (UTF id, int64 checkpoint)*.
 * Every reader reads exactly its bytes: a layout that ends early or leaves bytes over is an error.
 */
import { ByteReader, DecodeError } from '../../io';
import type { KafkaEnumeratorSplitView, KafkaEnumeratorView, KafkaSplitView, KafkaTopicPartitionRef } from '../savepoint/connector-types';

const LONG_MIN = -(2n ** 63n);

/** SimpleVersionedSerialization's envelope: the version and a reader over exactly the serialized bytes. */
export function readVersionedEnvelope(r: ByteReader, what: string): { version: number; payload: ByteReader } {
  const version = r.readI32(`serializer version of ${what}`);
  const at = r.position;
  const length = r.readI32(`length of ${what}`);
  if (length < 0) throw r.error('invalid-value', `expected a length ≥ 0 of ${what}, found ${length}`, at);
  if (length !== r.remaining) {
    throw r.error('invalid-value', `expected ${what} to fill its ${r.remaining}-byte element after version and length, found length ${length}`, at);
  }
  return { version, payload: r.subReader(length, what) };
}

function expectEnd(r: ByteReader, what: string): void {
  if (r.remaining !== 0) throw r.error('invalid-value', `expected ${what} to end here, found ${r.remaining} more bytes`);
}

/** Whether `bytes` have the exact shape of a KafkaPartitionSplit v0 (UTF topic, int, long, long and nothing more). */
export function hasKafkaSplitShape(payload: ByteReader): boolean {
  if (payload.remaining < 2) return false;
  const start = payload.position;
  const n = payload.readU16();
  payload.seek(start);
  return payload.remaining === 2 + n + 4 + 8 + 8;
}

/** KafkaPartitionSplitSerializer (version 0 only: the connector's only version, 1.12 to 4.x). */
export function readKafkaSplit(payload: ByteReader, version: number, subtask: number): KafkaSplitView {
  if (version !== 0) {
    throw payload.error('unsupported-version', `expected KafkaPartitionSplitSerializer version 0, found version ${version}`);
  }
  const topic = payload.readUtf('topic of the Kafka split');
  const partitionAt = payload.position;
  const partition = payload.readI32('partition of the Kafka split');
  if (partition < 0) throw payload.error('invalid-value', `expected a partition ≥ 0 in the Kafka split of topic "${topic}", found ${partition}`, partitionAt);
  const startAt = payload.position;
  const starting = payload.readI64('starting offset of the Kafka split');
  const stopAt = payload.position;
  const stopping = payload.readI64('stopping offset of the Kafka split');
  expectEnd(payload, `the Kafka split of ${topic}-${partition}`);
  const startMarker = starting === -2n ? 'earliest' : starting === -1n ? 'latest' : starting === -3n ? 'committed' : undefined;
  if (starting < 0n && startMarker === undefined) {
    throw payload.error(
      'invalid-value',
      `expected a starting offset ≥ 0 or a marker (-1 latest, -2 earliest, -3 committed) in the Kafka split of ${topic}-${partition}, found ${starting}`,
      startAt,
    );
  }
  const stopMarker = stopping === -1n ? 'latest' : stopping === -3n ? 'committed' : undefined;
  if (stopping < 0n && stopping !== LONG_MIN && stopMarker === undefined) {
    throw payload.error(
      'invalid-value',
      `expected a stopping offset ≥ 0, a marker (-1 latest, -3 committed) or none (Long.MIN_VALUE) in the Kafka split of ${topic}-${partition}, found ${stopping}`,
      stopAt,
    );
  }
  return {
    topic,
    partition,
    subtask,
    startingOffset: starting.toString(),
    ...(startMarker ? { startingOffsetMarker: startMarker } : {}),
    stoppingOffset: stopping === LONG_MIN ? null : stopping.toString(),
    ...(stopMarker ? { stoppingOffsetMarker: stopMarker } : {}),
  };
}

/** The SourceCoordinator's checkpoint: its serde version and the enumerator's versioned bytes. */
export function readSourceCoordinatorEnvelope(r: ByteReader): { coordinatorSerdeVersion: number; enumVersion: number; enumerator: ByteReader } {
  const coordinatorSerdeVersion = r.readI32('source coordinator serde version');
  if (coordinatorSerdeVersion !== 0 && coordinatorSerdeVersion !== 1) {
    throw r.error('not-recognised', `expected a source coordinator's state (serde version 0 or 1), found version ${coordinatorSerdeVersion}`, r.position - 4);
  }
  const enumVersion = r.readI32('enumerator serializer version');
  const at = r.position;
  const length = r.readI32('length of the enumerator state');
  if (length < 0 || length > r.remaining) {
    throw r.error('invalid-value', `expected an enumerator state length between 0 and the ${r.remaining} bytes left, found ${length}`, at);
  }
  const enumerator = r.subReader(length, 'enumerator state');
  // serde version 1 ends with the enumerator; version 0 goes on with the coordinator context's split assignment (not read)
  if (coordinatorSerdeVersion === 1) expectEnd(r, 'the source coordinator state after the enumerator state');
  return { coordinatorSerdeVersion, enumVersion, enumerator };
}

/** KafkaSourceEnumStateSerializer versions 1, 2 and 3 (version 0, the per-reader split assignment of connector ≤ 1.13, is not decoded). */
export function readKafkaEnumState(r: ByteReader, version: number, coordinatorSerdeVersion: number): KafkaEnumeratorView {
  if (version !== 1 && version !== 2 && version !== 3) {
    throw r.error('unsupported-version', `expected KafkaSourceEnumStateSerializer version 1, 2 or 3, found version ${version}`);
  }
  const count = r.readCount('partitions of the Kafka enumerator state', version === 1 ? 6 : 10);
  const splitVersionAt = r.position;
  const splitVersion = version === 3 ? r.readI32('split serializer version of the Kafka enumerator state') : 0;
  if (splitVersion !== 0) {
    throw r.error(
      'unsupported-version',
      `expected KafkaPartitionSplitSerializer version 0 in the enumerator state, found version ${splitVersion}`,
      splitVersionAt,
    );
  }
  const assigned: KafkaTopicPartitionRef[] = [];
  const unassigned: KafkaTopicPartitionRef[] = [];
  const splits: KafkaEnumeratorSplitView[] = [];
  for (let i = 0; i < count; i++) {
    let topic: string;
    let partition: number;
    let split: Omit<KafkaSplitView, 'subtask'> | undefined;
    if (version === 3) {
      // a whole split (its offsets are where the enumerator would start a reader it assigns it to)
      const at = r.position;
      const length = r.readI32(`length of split #${i}`);
      if (length < 0 || length > r.remaining)
        throw r.error('invalid-value', `expected a length of split #${i} between 0 and the ${r.remaining} bytes left, found ${length}`, at);
      const { subtask: _none, ...rest } = readKafkaSplit(r.subReader(length, `split #${i}`), 0, -1);
      split = rest;
      topic = split.topic;
      partition = split.partition;
    } else {
      topic = r.readUtf(`topic of partition #${i}`);
      partition = r.readI32(`partition #${i}`);
    }
    if (version === 1) {
      assigned.push({ topic, partition });
      continue;
    }
    const at = r.position;
    const status = r.readI32(`assignment status of partition #${i}`);
    if (status === 0) assigned.push({ topic, partition });
    else if (status === 1) unassigned.push({ topic, partition });
    else throw r.error('invalid-value', `expected assignment status 0 (assigned) or 1 (unassigned initial) of ${topic}-${partition}, found ${status}`, at);
    if (split) splits.push({ ...split, status: status === 0 ? 'assigned' : 'unassigned-initial' });
  }
  let initialDiscoveryFinished: boolean | null = null;
  if (version >= 2) {
    const at = r.position;
    const flag = r.readU8('initial discovery finished flag');
    if (flag > 1) throw r.error('invalid-value', `expected the initial discovery flag 0 or 1, found ${flag}`, at);
    initialDiscoveryFinished = flag === 1;
  }
  expectEnd(r, `the Kafka enumerator state (version ${version})`);
  assigned.sort(compareTopicPartitions);
  unassigned.sort(compareTopicPartitions);
  return {
    coordinatorSerdeVersion,
    enumStateVersion: version,
    assignedPartitions: assigned,
    unassignedInitialPartitions: unassigned,
    initialDiscoveryFinished,
    ...(version === 3 ? { splits: splits.sort(compareTopicPartitions) } : {}),
  };
}

function compareTopicPartitions(a: KafkaTopicPartitionRef, b: KafkaTopicPartitionRef): number {
  return a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;
}

/** Whether the writer state has the shape of a KafkaWriterState (v1: one UTF string; v2: UTF, 3 ints, count, (UTF, long)*). */
export function hasKafkaWriterShape(payload: ByteReader, version: number): boolean {
  if (version !== 1 && version !== 2) return false;
  const start = payload.position;
  try {
    readKafkaWriterState(payload, version);
    return true;
  } catch (e) {
    if (e instanceof DecodeError) return false;
    throw e;
  } finally {
    payload.seek(start);
  }
}

export interface KafkaWriterStateView {
  transactionalIdPrefix: string;
  ownedSubtaskId?: number;
  totalNumberOfOwnedSubtasks?: number;
  transactionOwnership?: 'implicit-by-subtask-id' | 'explicit-by-writer-state';
  ongoingTransactions: { transactionalId: string; checkpointId: string }[];
}

const TRANSACTION_OWNERSHIP = ['implicit-by-subtask-id', 'explicit-by-writer-state'] as const;

/** KafkaWriterStateSerializer v1 (connector ≤ 3.x) and v2 (4.0.x and 5.0.x, as released). */
export function readKafkaWriterState(r: ByteReader, version: number): KafkaWriterStateView {
  if (version !== 1 && version !== 2) throw r.error('unsupported-version', `expected KafkaWriterStateSerializer version 1 or 2, found version ${version}`);
  const transactionalIdPrefix = r.readUtf('transactional id prefix');
  if (version === 1) {
    expectEnd(r, 'the Kafka writer state (version 1)');
    return { transactionalIdPrefix, ongoingTransactions: [] };
  }
  const ownedSubtaskId = r.readI32('owned subtask id');
  const totalNumberOfOwnedSubtasks = r.readI32('total number of owned subtasks');
  const at = r.position;
  const ordinal = r.readI32('transaction ownership');
  const transactionOwnership = TRANSACTION_OWNERSHIP[ordinal];
  if (transactionOwnership === undefined) {
    throw r.error('invalid-value', `expected transaction ownership 0 (implicit by subtask id) or 1 (explicit by writer state), found ${ordinal}`, at);
  }
  const ongoingTransactions: { transactionalId: string; checkpointId: string }[] = [];
  const count = r.readCount('precommitted transactions', 10);
  for (let i = 0; i < count; i++) {
    const transactionalId = r.readUtf(`transactional id #${i}`);
    ongoingTransactions.push({ transactionalId, checkpointId: r.readI64(`checkpoint id of transaction #${i}`).toString() });
  }
  expectEnd(r, 'the Kafka writer state (version 2)');
  return { transactionalIdPrefix, ownedSubtaskId, totalNumberOfOwnedSubtasks, transactionOwnership, ongoingTransactions };
}

/** The legacy consumer's offset sentinels (KafkaTopicPartitionStateSentinel). */
export function legacyOffsetMarker(offset: bigint): 'not-set' | 'earliest' | 'latest' | 'group-offsets' | undefined {
  if (offset === -915623761776n) return 'not-set';
  if (offset === -915623761775n) return 'earliest';
  if (offset === -915623761774n) return 'latest';
  if (offset === -915623761773n) return 'group-offsets';
  return undefined;
}
