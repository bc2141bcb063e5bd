/**
 * The serializer snapshots of Flink CEP's operator state (issue #36): the NFA's state (`nfaStateName`, a
 * ValueState of NFAState) and its shared buffer (`sharedBuffer-entries`: NodeId → Lockable<SharedBufferNode>,
 * `sharedBuffer-events`: EventId → Lockable<event>). Facts from Flink's sources (flink-cep, `org.apache.flink.cep.nfa`
 * and `….sharedbuffer`; docs/flink-formats.md):
 *
 * - `EventId$EventIdSerializer$EventIdSerializerSnapshot`, `DeweyNumber$DeweyNumberSerializer$DeweyNumberSerializerSnapshot`:
 *   simple snapshots (version 3 empty, version 2 the serializer class name). EventId values: `i32` id, `i64`
 *   timestamp. DeweyNumber values: `i32` digit count, the `i32` digits (shown `1.0.2`).
 * - composite snapshots (CompositeTypeSerializerSnapshot, no outer content): `NodeId$NodeIdSerializer$NodeIdSerializerSnapshot`
 *   (nested: EventId): values a byte (0: null, else present), the EventId, the page name (StringValue.writeString);
 *   `SharedBufferEdge$SharedBufferEdgeSerializer$SharedBufferEdgeSerializerSnapshot` (NodeId, DeweyNumber): the
 *   target NodeId, the DeweyNumber; `LockableTypeSerializerSnapshot` (the element): `i32` reference count, the
 *   element; `SharedBufferNodeSerializerSnapshotV2` (the edge): `i32` edge count, per edge its `i32` reference count
 *   and the edge; the older `SharedBufferNode$SharedBufferNodeSerializer$SharedBufferNodeSerializerSnapshot` nests the
 *   ListSerializer of Lockable edges, whose values are the same bytes;
 *   `NFAStateSerializerSnapshot` (DeweyNumber, NodeId, EventId): the partial matches, then the completed matches,
 *   each an `i32` count of ComputationStates: the state name (StringValue.writeString), the previous buffer entry
 *   (NodeId), the version (DeweyNumber), the `i64` start timestamp, (outer version 2 with its `bool` set, as Flink
 *   1.20 writes it) the `i64` previous timestamp, a byte (1: a start EventId follows, else none).
 *
 * The legacy config snapshots of Flink ≤ 1.6 (`NFAStateSerializerConfigSnapshot`, `LockableSerializerConfigSnapshot`,
 * Java-serialized) are not registered: they stay named as unknown snapshots.
 */
import type { ByteReader } from '../../io';
import type { DecodedValue, SerializerSnapshot, SnapshotReader, ValueCodec } from './snapshot-types';
import { makeComposite } from './make-composite';
import { expectNestedCount, readCompositeSnapshot } from './read-composite-snapshot';
import { stringCodec } from '../values/string-codecs';

const NFA = 'org.apache.flink.cep.nfa.';
const SB = `${NFA}sharedbuffer.`;
const EVENT_ID = `${SB}EventId$EventIdSerializer$EventIdSerializerSnapshot`;
const DEWEY = `${NFA}DeweyNumber$DeweyNumberSerializer$DeweyNumberSerializerSnapshot`;
const NODE_ID = `${SB}NodeId$NodeIdSerializer$NodeIdSerializerSnapshot`;
const EDGE = `${SB}SharedBufferEdge$SharedBufferEdgeSerializer$SharedBufferEdgeSerializerSnapshot`;
const LOCKABLE = `${SB}LockableTypeSerializerSnapshot`;
const NODE_V2 = `${SB}SharedBufferNodeSerializerSnapshotV2`;
const NODE_V1 = `${SB}SharedBufferNode$SharedBufferNodeSerializer$SharedBufferNodeSerializerSnapshot`;
const NFA_STATE = `${NFA}NFAStateSerializerSnapshot`;

/** Most digits a DeweyNumber may have (a count above this is corruption, not a pattern's version). */
const MAX_DEWEY_DIGITS = 65_536;

function pojo(className: string, fields: [string, DecodedValue][]): DecodedValue {
  return { kind: 'pojo', className, fields: fields.map(([name, value]) => ({ name, value })) };
}

const eventIdCodec: ValueCodec = {
  decode: (r) =>
    pojo(`${SB}EventId`, [
      ['id', { kind: 'int', type: 'Int', value: r.readI32('EventId id') }],
      ['timestamp', { kind: 'long', value: r.readI64('EventId timestamp').toString() }],
    ]),
};

const deweyCodec: ValueCodec = {
  decode(r) {
    const n = r.readCount('DeweyNumber digits', 4, MAX_DEWEY_DIGITS);
    const digits: number[] = [];
    for (let i = 0; i < n; i++) digits.push(r.readI32('DeweyNumber digit'));
    return { kind: 'other', type: 'DeweyNumber', text: digits.join('.') };
  },
};

/** EventId and DeweyNumber: SimpleTypeSerializerSnapshot (version 3 empty, 2 the serializer class name). */
function simple(className: string, typeLabel: string, fixedLength: number, codec: ValueCodec): SnapshotReader {
  return {
    classNames: [className],
    read(r, version): SerializerSnapshot {
      const details: Record<string, unknown> = {};
      if (version === 2) details.serializerClass = r.readUtf('serializer class name');
      else if (version !== 3) throw r.error('unsupported-version', `expected ${className} version 2 or 3, found ${version}`);
      return { className, version, typeLabel, status: 'known', nested: [], fixedLength, codec, ...(version === 2 ? { details } : {}) };
    },
  };
}

export const eventIdSnapshotReader = simple(EVENT_ID, 'EventId', 12, eventIdCodec);
export const deweyNumberSnapshotReader = simple(DEWEY, 'DeweyNumber', -1, deweyCodec);

/** A composite snapshot without outer content, `count` nested snapshots, values read by `decode`. */
function composite(
  classNames: string[],
  count: number,
  label: (nested: SerializerSnapshot[]) => string,
  decode: (r: ByteReader, codecs: ValueCodec[]) => DecodedValue,
): SnapshotReader {
  return {
    classNames,
    read(r, version, className, ctx) {
      const at = r.position;
      const { nested } = readCompositeSnapshot(r, version, ctx, () => undefined);
      expectNestedCount(r, className, nested, count, at);
      return makeComposite(className, version, nested, label(nested), -1, (vr, codecs) => decode(vr, codecs));
    },
  };
}

function readNodeId(r: ByteReader, eventId: ValueCodec): DecodedValue {
  if (r.readU8('NodeId present flag') === 0) return { kind: 'null' };
  const id = eventId.decode(r);
  return pojo(`${SB}NodeId`, [
    ['eventId', id],
    ['pageName', stringCodec.decode(r)],
  ]);
}

export const nodeIdSnapshotReader = composite(
  [NODE_ID],
  1,
  () => 'NodeId',
  (r, [eventId]) => readNodeId(r, eventId!),
);

export const sharedBufferEdgeSnapshotReader = composite(
  [EDGE],
  2,
  () => 'SharedBufferEdge',
  (r, [nodeId, dewey]) =>
    pojo(`${SB}SharedBufferEdge`, [
      ['target', nodeId!.decode(r)],
      ['deweyNumber', dewey!.decode(r)],
    ]),
);

function lockable(r: ByteReader, element: ValueCodec): DecodedValue {
  const refCounter = r.readI32('Lockable reference count');
  return pojo(`${SB}Lockable`, [
    ['refCounter', { kind: 'int', type: 'Int', value: refCounter }],
    ['element', element.decode(r)],
  ]);
}

export const lockableSnapshotReader = composite(
  [LOCKABLE],
  1,
  ([e]) => `Lockable<${e!.typeLabel}>`,
  (r, [element]) => lockable(r, element!),
);

export const sharedBufferNodeV2SnapshotReader = composite(
  [NODE_V2],
  1,
  () => 'SharedBufferNode',
  (r, [edge]) => {
    const n = r.readCount('SharedBufferNode edges', 4);
    const edges: DecodedValue[] = [];
    for (let i = 0; i < n; i++) edges.push(lockable(r, edge!));
    return pojo(`${SB}SharedBufferNode`, [['edges', { kind: 'list', items: edges }]]);
  },
);

/** The older SharedBufferNode snapshot: its one nested serializer is the ListSerializer of Lockable edges (the same bytes). */
export const sharedBufferNodeV1SnapshotReader = composite(
  [NODE_V1],
  1,
  () => 'SharedBufferNode',
  (r, [edges]) => pojo(`${SB}SharedBufferNode`, [['edges', edges!.decode(r)]]),
);

function readComputationStates(r: ByteReader, what: string, [dewey, nodeId, eventId]: ValueCodec[], previousTimestamp: boolean): DecodedValue {
  const n = r.readCount(what, previousTimestamp ? 23 : 15);
  const items: DecodedValue[] = [];
  for (let i = 0; i < n; i++) {
    const name = stringCodec.decode(r);
    const previous = nodeId!.decode(r);
    const version = dewey!.decode(r);
    const startTimestamp = r.readI64('ComputationState start timestamp').toString();
    const previousTs = previousTimestamp ? r.readI64('ComputationState previous timestamp').toString() : undefined;
    // Flink reads a start event only when the flag is 1
    const start = r.readU8('ComputationState start event flag') === 1 ? eventId!.decode(r) : { kind: 'null' as const };
    items.push(
      pojo(`${NFA}ComputationState`, [
        ['currentStateName', name],
        ['previousBufferEntry', previous],
        ['version', version],
        ['startTimestamp', { kind: 'long', value: startTimestamp }],
        ...(previousTs === undefined ? [] : [['previousTimestamp', { kind: 'long', value: previousTs }] as [string, DecodedValue]]),
        ['startEventId', start],
      ]),
    );
  }
  return { kind: 'list', items };
}

/** NFAStateSerializer: outer version 1 has no outer content; version 2 a `bool` (whether each ComputationState holds its previous timestamp). */
export const nfaStateSnapshotReader: SnapshotReader = {
  classNames: [NFA_STATE],
  read(r, version, className, ctx) {
    const at = r.position;
    const { outer: previousTimestamp, nested } = readCompositeSnapshot(r, version, ctx, (o, outerVersion) => {
      if (outerVersion < 1 || outerVersion > 2)
        throw o.error('unsupported-version', `expected NFAStateSerializerSnapshot outer version 1 or 2, found ${outerVersion}`);
      return outerVersion >= 2 && o.readBool('supports previous timestamp');
    });
    expectNestedCount(r, className, nested, 3, at);
    return makeComposite(
      className,
      version,
      nested,
      'NFAState',
      -1,
      (vr, codecs) =>
        pojo(`${NFA}NFAState`, [
          ['partialMatches', readComputationStates(vr, 'partial matches', codecs, previousTimestamp)],
          ['completedMatches', readComputationStates(vr, 'completed matches', codecs, previousTimestamp)],
        ]),
      { supportsPreviousTimestamp: previousTimestamp },
    );
  },
};

export const CEP_SNAPSHOT_READERS: readonly SnapshotReader[] = [
  eventIdSnapshotReader,
  deweyNumberSnapshotReader,
  nodeIdSnapshotReader,
  sharedBufferEdgeSnapshotReader,
  lockableSnapshotReader,
  sharedBufferNodeV2SnapshotReader,
  sharedBufferNodeV1SnapshotReader,
  nfaStateSnapshotReader,
];
