/**
 * Byte layouts of a Sink V2 committer's state and the Kafka sink's committable, read from Flink's and the
 * connector's sources and checked against the released classes (Flink 1.20.5 flink-streaming-java, Flink 2.2.0
 * flink-runtime; flink-connector-kafka 3.4.0-1.20, 4.0.1-2.0 and 5.0.0-2.2):
 * - one element of `streaming_committer_raw_states`: SimpleVersionedSerialization's envelope around
 *   CommittableCollectorSerializer version 2: int32 magic 0xB91F252C, then a versioned list of checkpoints
 *   (version 1 is the Sink V1 committer's list of Flink ≤ 1.14, not decoded);
 * - a versioned list (SimpleVersionedSerialization.writeVersionAndSerializeList): int32 item version, int32 count,
 *   then per item int32 length and that many bytes;
 * - a checkpoint (CheckpointSimpleVersionedSerializer) v0: int64 checkpoint id, versioned list of subtasks;
 *   v1 (Flink 1.19+): int64 checkpoint id, int32 number of subtasks, versioned list of subtasks;
 * - a subtask (SubtaskSimpleVersionedSerializer) v0: versioned list of requests, int32 committables, int32 drained,
 *   int32 failed; v1: int32 subtask id first; v2 (Flink 2.x): int32 subtask id, requests, int32 committables,
 *   int32 failed (no drained count);
 * - a request v0: the committable in SimpleVersionedSerialization's envelope, int32 retries, int32 state
 *   (CommitRequestState ordinal: RECEIVED, RETRY, FAILED, COMMITTED);
 * - KafkaCommittableSerializer v1: int16 producer epoch, int64 producer id, modified-UTF transactional id.
 * Every reader reads exactly its bytes: a layout that ends early or leaves bytes over is an error.
 */
import type { ByteReader } from '../../io';

const COMMITTABLE_COLLECTOR_MAGIC = 0xb91f252c | 0;
const REQUEST_STATES = ['received', 'retry', 'failed', 'committed'] as const;
export type CommitRequestState = (typeof REQUEST_STATES)[number];

export interface CommitRequest {
  checkpointId: string;
  /** the subtask id the committer recorded (subtask layout v1 and v2), else null */
  subtaskId: number | null;
  committableVersion: number;
  /** the committable's serialized bytes (exactly them) */
  committable: ByteReader;
  retries: number;
  state: CommitRequestState;
}

function expectEnd(r: ByteReader, what: string): void {
  if (r.remaining !== 0) throw r.error('invalid-value', `expected ${what} to end here, found ${r.remaining} more bytes`);
}

/** SimpleVersionedSerialization's versioned list: every item read by `item` from exactly its bytes. */
function readVersionedList<T>(r: ByteReader, what: string, item: (version: number, bytes: ByteReader, index: number) => T): T[] {
  const version = r.readI32(`serializer version of the ${what}`);
  const count = r.readCount(what, 4);
  const out: T[] = [];
  for (let i = 0; i < count; i++) {
    const at = r.position;
    const length = r.readI32(`length of ${what} #${i}`);
    if (length < 0 || length > r.remaining) {
      throw r.error('invalid-value', `expected a length of ${what} #${i} between 0 and the ${r.remaining} bytes left, found ${length}`, at);
    }
    const bytes = r.subReader(length, `${what} #${i}`);
    out.push(item(version, bytes, i));
    expectEnd(bytes, `${what} #${i}`);
  }
  return out;
}

/** CommittableCollectorSerializer (version 2): every commit request of every checkpoint, in the order written. */
export function readCommittableCollector(r: ByteReader, version: number): CommitRequest[] {
  if (version !== 2) {
    throw r.error(
      'unsupported-version',
      `expected CommittableCollectorSerializer version 2, found version ${version}${version === 1 ? ' (the Sink V1 committer state of Flink ≤ 1.14)' : ''}`,
    );
  }
  const at = r.position;
  const magic = r.readI32('magic number of the committer state');
  if (magic !== COMMITTABLE_COLLECTOR_MAGIC) {
    throw r.error(
      'invalid-value',
      `expected the committer state's magic number B91F252C, found ${(magic >>> 0).toString(16).toUpperCase().padStart(8, '0')}`,
      at,
    );
  }
  const requests: CommitRequest[] = [];
  readVersionedList(r, 'checkpoint', (cpVersion, cp) => {
    if (cpVersion !== 0 && cpVersion !== 1)
      throw cp.error('unsupported-version', `expected checkpoint committables version 0 or 1, found version ${cpVersion}`);
    const checkpointId = cp.readI64('checkpoint id').toString();
    if (cpVersion === 1) cp.readI32('number of subtasks');
    readVersionedList(cp, 'subtask', (stVersion, st) => {
      if (stVersion < 0 || stVersion > 2) throw st.error('unsupported-version', `expected subtask committables version 0, 1 or 2, found version ${stVersion}`);
      const subtaskId = stVersion >= 1 ? st.readI32('subtask id') : null;
      readVersionedList(st, 'commit request', (rqVersion, rq) => {
        if (rqVersion !== 0) throw rq.error('unsupported-version', `expected commit request version 0, found version ${rqVersion}`);
        const env = readCommittableEnvelope(rq);
        const retries = rq.readI32('number of retries');
        const stateAt = rq.position;
        const ordinal = rq.readI32('commit request state');
        const state = REQUEST_STATES[ordinal];
        if (state === undefined) {
          throw rq.error('invalid-value', `expected a commit request state 0–3 (received, retry, failed, committed), found ${ordinal}`, stateAt);
        }
        requests.push({ checkpointId, subtaskId, committableVersion: env.version, committable: env.payload, retries, state });
      });
      st.readI32('number of committables');
      if (stVersion < 2) st.readI32('number of drained committables');
      st.readI32('number of failed committables');
    });
  });
  expectEnd(r, 'the committer state');
  return requests;
}

/** The committable's SimpleVersionedSerialization envelope inside a request (version, length, bytes), not the rest of the request. */
function readCommittableEnvelope(r: ByteReader): { version: number; payload: ByteReader } {
  const version = r.readI32('committable serializer version');
  const at = r.position;
  const length = r.readI32('length of the committable');
  if (length < 0 || length > r.remaining)
    throw r.error('invalid-value', `expected a committable length between 0 and the ${r.remaining} bytes left, found ${length}`, at);
  return { version, payload: r.subReader(length, 'committable') };
}

/** Whether a committable has exactly KafkaCommittable v1's shape (int16, int64, UTF and nothing more). */
export function hasKafkaCommittableShape(payload: ByteReader, version: number): boolean {
  if (version !== 1 || payload.remaining < 12) return false;
  const start = payload.position;
  payload.seek(start + 10);
  const n = payload.readU16();
  payload.seek(start);
  return payload.remaining === 12 + n;
}

/** KafkaCommittableSerializer version 1 (its only version, connector 1.14 to 5.x). */
export function readKafkaCommittable(payload: ByteReader, version: number): { producerId: string; epoch: number; transactionalId: string } {
  if (version !== 1) throw payload.error('unsupported-version', `expected KafkaCommittableSerializer version 1, found version ${version}`);
  const epoch = payload.readI16('producer epoch');
  const producerId = payload.readI64('producer id').toString();
  const transactionalId = payload.readUtf('transactional id');
  expectEnd(payload, `the Kafka committable of ${transactionalId}`);
  return { producerId, epoch, transactionalId };
}
