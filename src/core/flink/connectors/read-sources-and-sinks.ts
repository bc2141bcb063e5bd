/**
 * Builds the "Sources and sinks" views of a savepoint (connector-types.ts) from the states connectors keep:
 * - `SourceReaderState` (the FLIP-27 SourceOperator's operator list state of byte[]: each element one split
 *   in SimpleVersionedSerialization's envelope) and the operator's coordinator state in `_metadata` (the
 *   SourceCoordinator's checkpoint of its enumerator);
 * - `topic-partition-offset-states` (FlinkKafkaConsumer's union list state of Tuple2<KafkaTopicPartition, Long>,
 *   the partition written by Kryo);
 * - `writer_raw_states` (the sink writer operator's list state of byte[]: the writer's state in the envelope),
 *   and `streaming_committer_raw_states` (the committer's CommittableCollector: the pending KafkaCommittables).
 * Reads only these operator states (one scan of the operators that hold them). Which layout a source's bytes
 * follow is not written in the savepoint: an element is a Kafka split when it has exactly that shape, and an
 * operator with any Kafka element (or a Kafka enumerator) is a Kafka source, whose other bytes are then
 * `corrupt` where they break the layout; an operator without any is `not-recognised` and left out of the views (its
 * state stays listed with its serializer, as every state is): the views are Kafka's, and the savepoints of other
 * connectors show what they showed before.
 */
import { ByteReader, isDecodeError, type DecodeError } from '../../io';
import { connectorProblem } from './connector-problem';
import type { CancelSignal } from '../cancel-signal';
import type { OperatorState } from '../metadata/metadata-types';
import type { InspectedOperator, StateEntry } from '../savepoint/inspection-types';
import type { OpenedSavepoint } from '../savepoint/open-savepoint';
import { scanState } from '../scan/scan-state';
import type { SubtaskHeaderCache } from '../scan/scan-types';
import type { SnapshotRegistry } from '../snapshots/snapshot-types';
import { decodeBase64 } from '../values/decode-base64';
import type {
  ConnectorProblem,
  FileSourceView,
  KafkaPendingTransaction,
  KafkaSinkView,
  KafkaSplitView,
  LegacyKafkaConsumerView,
  SourceOperatorView,
  SourcesAndSinks,
} from '../savepoint/connector-types';
import {
  hasKafkaSplitShape,
  hasKafkaWriterShape,
  legacyOffsetMarker,
  readKafkaEnumState,
  readKafkaSplit,
  readKafkaWriterState,
  readSourceCoordinatorEnvelope,
  readVersionedEnvelope,
} from './kafka-layouts';
import { readLegacyKafkaOffset } from './read-legacy-kafka-offset';
import { buildFileSinkView, buildFileSourceView } from './read-file-connectors';
import { hasKafkaCommittableShape, readCommittableCollector, readKafkaCommittable, type CommitRequest } from './committer-layouts';

export const SOURCE_READER_STATE = 'SourceReaderState';
export const LEGACY_KAFKA_OFFSETS_STATE = 'topic-partition-offset-states';
export const SINK_WRITER_STATE = 'writer_raw_states';
export const SINK_COMMITTER_STATE = 'streaming_committer_raw_states';
const CONNECTOR_STATES = [SOURCE_READER_STATE, LEGACY_KAFKA_OFFSETS_STATE, SINK_WRITER_STATE, SINK_COMMITTER_STATE];

/** One element of a connector state, its bytes and where they lie (offset of the first byte, in `file`). */
export interface Element {
  subtask: number;
  index: number;
  bytes: Uint8Array;
  file: string;
  offset: number;
}

export async function readSourcesAndSinks(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  inspected: readonly InspectedOperator[],
  options: { signal?: CancelSignal; headers?: SubtaskHeaderCache } = {},
): Promise<SourcesAndSinks> {
  const out: SourcesAndSinks = { sources: [], legacyKafkaConsumers: [], sinks: [] };
  for (const op of opened.metadata.operators) {
    const info = inspected.find((o) => o.id === op.id);
    const names = new Set((info?.states ?? []).filter((s) => s.scope === 'operator' && CONNECTOR_STATES.includes(s.name)).map((s) => s.name));
    const coordinator = op.coordinatorState?.kind === 'inline' ? op.coordinatorState : undefined;
    if (names.size === 0 && !coordinator) continue;
    const read =
      names.size === 0
        ? { elements: new Map<string, Element[]>(), problems: new Map<string, ConnectorProblem[]>() }
        : await readElements(opened, registry, op, [...names], options);
    const ref = { operatorId: op.id, uid: info?.uid ?? op.uid ?? null, name: info?.name ?? op.name ?? null, parallelism: op.parallelism };
    if (names.has(SOURCE_READER_STATE) || coordinator) {
      const source = buildSourceView(ref, read.elements.get(SOURCE_READER_STATE) ?? [], coordinator, read.problems.get(SOURCE_READER_STATE) ?? []);
      // only Kafka sources are views: another connector's source state stays listed with its serializer (byte[]) in the operators
      if (source?.connector === 'kafka') out.sources.push(source);
      else
        addFileSource(out, buildFileSourceView(ref, read.elements.get(SOURCE_READER_STATE) ?? [], coordinator, read.problems.get(SOURCE_READER_STATE) ?? []));
    }
    if (names.has(LEGACY_KAFKA_OFFSETS_STATE)) {
      const typeLabel = info?.states.find((s) => s.name === LEGACY_KAFKA_OFFSETS_STATE)?.valueSerializer?.typeLabel ?? 'unknown';
      out.legacyKafkaConsumers.push(
        buildLegacy(ref, read.elements.get(LEGACY_KAFKA_OFFSETS_STATE) ?? [], typeLabel, read.problems.get(LEGACY_KAFKA_OFFSETS_STATE) ?? []),
      );
    }
    const fileSink =
      names.has(SINK_WRITER_STATE) || names.has(SINK_COMMITTER_STATE)
        ? buildFileSinkView(ref, read.elements.get(SINK_WRITER_STATE) ?? [], read.elements.get(SINK_COMMITTER_STATE) ?? [], [
            ...(read.problems.get(SINK_WRITER_STATE) ?? []),
            ...(read.problems.get(SINK_COMMITTER_STATE) ?? []),
          ])
        : undefined;
    if (fileSink) (out.fileSinks ??= []).push(fileSink);
    else if (names.has(SINK_WRITER_STATE) || names.has(SINK_COMMITTER_STATE)) {
      out.sinks.push(
        buildSinkView(ref, read.elements.get(SINK_WRITER_STATE) ?? [], read.elements.get(SINK_COMMITTER_STATE), [
          ...(read.problems.get(SINK_WRITER_STATE) ?? []),
          ...(read.problems.get(SINK_COMMITTER_STATE) ?? []),
        ]),
      );
    }
  }
  // sink operators: Kafka writers; a committer (its state does not say whose) only beside a Kafka writer
  const kafkaWriter = out.sinks.some((k) => k.connector === 'kafka');
  out.sinks = out.sinks.filter((k) => k.connector === 'kafka' || (k.connector === 'committer' && kafkaWriter));
  return out;
}

function addFileSource(out: SourcesAndSinks, view: FileSourceView | undefined): void {
  if (view) (out.fileSources ??= []).push(view);
}

/** Whether a savepoint's views hold anything to show. */
export function hasSourcesAndSinks(s: SourcesAndSinks): boolean {
  return s.sources.length + s.legacyKafkaConsumers.length + s.sinks.length + (s.fileSources?.length ?? 0) + (s.fileSinks?.length ?? 0) > 0;
}

async function readElements(
  opened: OpenedSavepoint,
  registry: SnapshotRegistry,
  op: OperatorState,
  states: string[],
  options: { signal?: CancelSignal; headers?: SubtaskHeaderCache },
): Promise<{ elements: Map<string, Element[]>; problems: Map<string, ConnectorProblem[]> }> {
  const elements = new Map<string, Element[]>();
  const problems = new Map<string, ConnectorProblem[]>();
  const addProblem = (state: string, p: ConnectorProblem) => problems.set(state, [...(problems.get(state) ?? []), p]);
  await scanState(
    opened,
    registry,
    { operatorId: op.id, states, scopes: ['operator'] },
    {
      entry(e: StateEntry) {
        const list = elements.get(e.state) ?? [];
        const index = list.filter((x) => x.subtask === e.subtask).length;
        const bytes = rawBytes(e);
        if (!bytes) {
          addProblem(
            e.state,
            connectorProblem('not-recognised', e.state, e.subtask, index, `expected a byte array element, found a ${e.value?.kind ?? 'null'} value`),
          );
          return;
        }
        // a byte[] element carries BytePrimitiveArraySerializer's int32 length before its bytes
        const offset = e.value?.kind === 'bytes' ? e.valueRange.offset + 4 : e.valueRange.offset;
        list.push({ subtask: e.subtask, index, bytes, file: e.file, offset });
        elements.set(e.state, list);
      },
      streamError(error, where) {
        for (const s of states)
          addProblem(s, connectorProblem('corrupt', s, where.subtask, null, `the operator state stream could not be read: ${error.message}`, error));
      },
    },
    { values: { mode: 'decode' }, ...(options.signal ? { signal: options.signal } : {}), ...(options.headers ? { headers: options.headers } : {}) },
  );
  return { elements, problems };
}

function rawBytes(e: StateEntry): Uint8Array | undefined {
  const v = e.value;
  if (v?.kind === 'bytes' || v?.kind === 'opaque') return decodeBase64(v.base64);
  return undefined;
}

function readerOf(el: Element): ByteReader {
  return new ByteReader(el.bytes, { file: el.file, baseOffset: el.offset });
}

export type OperatorRef = Pick<SourceOperatorView, 'operatorId' | 'uid' | 'name' | 'parallelism'>;

/** The view of one source operator from its reader state's elements and its coordinator state (exported for byte-level tests). */
export function buildSourceView(
  ref: OperatorRef,
  elements: Element[],
  coordinator: Extract<OperatorState['coordinatorState'], { kind: 'inline' }> | undefined,
  readProblems: ConnectorProblem[],
): SourceOperatorView | undefined {
  const problems = [...readProblems];
  // the splits: the envelope is Flink's (always recognised); the payload is Kafka's when it has exactly its shape
  const parsed = elements.map((el) => {
    try {
      const env = readVersionedEnvelope(readerOf(el), `split #${el.index} of subtask ${el.subtask}`);
      return { el, env, kafkaShaped: env.version === 0 && hasKafkaSplitShape(env.payload) };
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      return { el, error: e };
    }
  });
  // the coordinator: a source coordinator's envelope, then a Kafka enumerator state when it decodes as one
  let enumerator: SourceOperatorView['enumerator'] = null;
  let enumFailure: DecodeError | undefined;
  let coordinatorIsSource = false;
  if (coordinator) {
    try {
      const env = readSourceCoordinatorEnvelope(new ByteReader(coordinator.data, { file: '_metadata', baseOffset: coordinator.offset }));
      coordinatorIsSource = true;
      try {
        enumerator = readKafkaEnumState(env.enumerator, env.enumVersion, env.coordinatorSerdeVersion);
      } catch (e) {
        if (!isDecodeError(e)) throw e;
        enumFailure = e;
      }
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      if (elements.length === 0) return undefined; // another kind of coordinator, of an operator without reader state: not a source
      problems.push(connectorProblem(e.code === 'not-recognised' ? 'not-recognised' : 'corrupt', 'coordinator state', null, null, e.message, e));
    }
  }
  if (elements.length === 0 && !coordinatorIsSource) return undefined;
  const isKafka = enumerator !== null || parsed.some((p) => p.kafkaShaped === true);
  if (enumFailure) {
    const kind = !isKafka ? 'not-recognised' : enumFailure.code === 'unsupported-version' ? 'unsupported-version' : 'corrupt';
    const message = isKafka ? `Kafka enumerator state: ${enumFailure.message}` : `the enumerator state is not a Kafka enumerator's: ${enumFailure.message}`;
    problems.push(connectorProblem(kind, 'coordinator state', null, null, message, enumFailure));
  }
  const splits: KafkaSplitView[] = [];
  for (const p of parsed) {
    const where = `split #${p.el.index} of subtask ${p.el.subtask}`;
    if (p.error) {
      problems.push(connectorProblem('corrupt', SOURCE_READER_STATE, p.el.subtask, p.el.index, p.error.message, p.error));
      continue;
    }
    if (!isKafka) {
      problems.push(
        connectorProblem(
          'not-recognised',
          SOURCE_READER_STATE,
          p.el.subtask,
          p.el.index,
          `${where} (split serializer version ${p.env!.version}, ${p.env!.payload.remaining} bytes) is not a Kafka split (expected version 0: UTF topic, int32 partition, two int64 offsets): a source this reader does not decode`,
        ),
      );
      continue;
    }
    try {
      splits.push(readKafkaSplit(p.env!.payload, p.env!.version, p.el.subtask));
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      problems.push(
        connectorProblem(
          e.code === 'unsupported-version' ? 'unsupported-version' : 'corrupt',
          SOURCE_READER_STATE,
          p.el.subtask,
          p.el.index,
          `${where}: ${e.message}`,
          e,
        ),
      );
    }
  }
  splits.sort((a, b) => a.subtask - b.subtask || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
  return { ...ref, connector: isKafka ? 'kafka' : 'not-recognised', splits, splitElements: elements.length, enumerator, problems };
}

function buildLegacy(ref: OperatorRef, elements: Element[], typeLabel: string, readProblems: ConnectorProblem[]): LegacyKafkaConsumerView {
  const problems = [...readProblems];
  const offsets: LegacyKafkaConsumerView['offsets'] = [];
  if (typeLabel !== 'Tuple2<Kryo KafkaTopicPartition, Long>') {
    problems.push(
      connectorProblem(
        'not-recognised',
        LEGACY_KAFKA_OFFSETS_STATE,
        null,
        null,
        `expected FlinkKafkaConsumer's Tuple2<Kryo KafkaTopicPartition, Long> elements, found serializer ${typeLabel}: ${elements.length} elements not decoded`,
      ),
    );
    return { ...ref, offsets, problems };
  }
  for (const el of elements) {
    try {
      const o = readLegacyKafkaOffset(readerOf(el));
      const marker = legacyOffsetMarker(o.offset);
      offsets.push({ topic: o.topic, partition: o.partition, subtask: el.subtask, offset: o.offset.toString(), ...(marker ? { offsetMarker: marker } : {}) });
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      problems.push(
        connectorProblem('corrupt', LEGACY_KAFKA_OFFSETS_STATE, el.subtask, el.index, `element #${el.index} of subtask ${el.subtask}: ${e.message}`, e),
      );
    }
  }
  offsets.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition || a.subtask - b.subtask));
  return { ...ref, offsets, problems };
}

/** The view of one Sink V2 operator from its writer (and committer) state elements (exported for byte-level tests). */
export function buildSinkView(
  ref: OperatorRef,
  writerElements: Element[],
  committerElements: Element[] | undefined,
  readProblems: ConnectorProblem[],
): KafkaSinkView {
  const problems = [...readProblems];
  const parsed = writerElements.map((el) => {
    try {
      const env = readVersionedEnvelope(readerOf(el), `writer state #${el.index} of subtask ${el.subtask}`);
      return { el, env, kafkaShaped: hasKafkaWriterShape(env.payload, env.version) };
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      return { el, error: e };
    }
  });
  const isKafka = parsed.some((p) => p.kafkaShaped === true);
  const writers: KafkaSinkView['writers'] = [];
  for (const p of parsed) {
    const where = `writer state #${p.el.index} of subtask ${p.el.subtask}`;
    if (p.error) {
      problems.push(connectorProblem('corrupt', SINK_WRITER_STATE, p.el.subtask, p.el.index, p.error.message, p.error));
      continue;
    }
    if (!isKafka) {
      problems.push(
        connectorProblem(
          'not-recognised',
          SINK_WRITER_STATE,
          p.el.subtask,
          p.el.index,
          `${where} (serializer version ${p.env!.version}, ${p.env!.payload.remaining} bytes) is not a KafkaWriterState (expected version 1 or 2 starting with a UTF transactional id prefix): a sink this reader does not decode`,
        ),
      );
      continue;
    }
    try {
      const w = readKafkaWriterState(p.env!.payload, p.env!.version);
      writers.push({ subtask: p.el.subtask, stateVersion: p.env!.version, ...w });
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      problems.push(
        connectorProblem(
          e.code === 'unsupported-version' ? 'unsupported-version' : 'corrupt',
          SINK_WRITER_STATE,
          p.el.subtask,
          p.el.index,
          `${where}: ${e.message}`,
          e,
        ),
      );
    }
  }
  writers.sort((a, b) => a.subtask - b.subtask);
  const pendingTransactions = readPendingTransactions(committerElements ?? [], problems);
  return { ...ref, connector: writerElements.length === 0 ? 'committer' : isKafka ? 'kafka' : 'not-recognised', writers, pendingTransactions, problems };
}

/**
 * The committer's pending committables: each element is one subtask's CommittableCollector; each of its commit
 * requests a KafkaCommittable when it has exactly that shape. A committable of another shape makes the element's
 * requests `not-recognised` (another sink's committer); a layout that breaks is `corrupt`.
 */
function readPendingTransactions(elements: Element[], problems: ConnectorProblem[]): KafkaPendingTransaction[] {
  const out: KafkaPendingTransaction[] = [];
  for (const el of elements) {
    const where = `committer state #${el.index} of subtask ${el.subtask}`;
    let requests: CommitRequest[];
    try {
      const env = readVersionedEnvelope(readerOf(el), where);
      requests = readCommittableCollector(env.payload, env.version);
    } catch (e) {
      if (!isDecodeError(e)) throw e;
      problems.push(
        connectorProblem(
          e.code === 'unsupported-version' ? 'unsupported-version' : 'corrupt',
          SINK_COMMITTER_STATE,
          el.subtask,
          el.index,
          `${where}: ${e.message}`,
          e,
        ),
      );
      continue;
    }
    const foreign = requests.filter((rq) => !hasKafkaCommittableShape(rq.committable, rq.committableVersion));
    if (foreign.length > 0) {
      const f = foreign[0]!;
      problems.push(
        connectorProblem(
          'not-recognised',
          SINK_COMMITTER_STATE,
          el.subtask,
          el.index,
          `${where}: ${foreign.length} of ${requests.length} committables (serializer version ${f.committableVersion}, ${f.committable.remaining} bytes) are not KafkaCommittables (expected version 1: int16 epoch, int64 producer id, UTF transactional id): not decoded`,
        ),
      );
      continue;
    }
    for (const rq of requests) {
      const c = readKafkaCommittable(rq.committable, rq.committableVersion);
      out.push({
        subtask: el.subtask,
        recordedSubtaskId: rq.subtaskId,
        checkpointId: rq.checkpointId,
        transactionalId: c.transactionalId,
        producerId: c.producerId,
        epoch: c.epoch,
        state: rq.state,
        retries: rq.retries,
      });
    }
  }
  return out.sort(
    (a, b) =>
      a.subtask - b.subtask ||
      Number(BigInt(a.checkpointId) - BigInt(b.checkpointId)) ||
      (a.transactionalId < b.transactionalId ? -1 : a.transactionalId > b.transactionalId ? 1 : 0),
  );
}
