/**
 * Finds every state whose serializers contain a Protobuf snapshot (at top level or nested in
 * Map/List/TTL composite snapshots), and every other state, from an inspection.
 */
import {
  getKryoSnapshotDetails,
  type InspectedOperator,
  type InspectedState,
  type KryoSnapshotDetails,
  type SavepointInspection,
  type SerializerSnapshot,
} from '../../flink';
import { getKryoProtobufCodec, getProtobufSnapshotContent, type ProtobufSnapshotContent } from '../../protobuf';
import type { KryoProtobufRecognition } from './recognize-kryo-protobuf';
import type { PeerSerdeDetails } from './register-peer-serde-readers';

/** A state whose values are Protobuf written by the peer serializer flink-protobuf-serde (its snapshot read by structure). */
export interface FoundPeerSerdeState {
  operator: InspectedOperator;
  state: InspectedState;
  role: string;
  snapshot: SerializerSnapshot;
  peer: PeerSerdeDetails;
  /** the values decode with the user's schema (the snapshot's class maps to a message of it) */
  decodable: boolean;
}

export interface FoundProtobufState {
  operator: InspectedOperator;
  state: InspectedState;
  /** KEY_SERIALIZER, NAMESPACE_SERIALIZER or VALUE_SERIALIZER, plus the nesting path for composites */
  role: string;
  snapshot: SerializerSnapshot;
  content: ProtobufSnapshotContent;
}

/** A state whose values are Protobuf messages held by Kryo (chill-protobuf, or plain Kryo on a Protobuf class). */
export interface FoundKryoProtobufState {
  operator: InspectedOperator;
  state: InspectedState;
  role: string;
  snapshot: SerializerSnapshot;
  kryo: KryoSnapshotDetails;
  recognition: KryoProtobufRecognition;
  /** the values decode with the user's schema (the snapshot has a Kryo Protobuf codec) */
  decodable: boolean;
}

export interface FoundOtherState {
  operator: InspectedOperator;
  state: InspectedState;
  role: string;
  snapshotClass: string;
  reason: string;
  /**
   * Set when the state's values are Protobuf but could not be checked: a snapshot class of a Protobuf serializer
   * this inspector cannot read (flink-datastream-protobuf's package, the peer flink-protobuf-serde). `check` never
   * passes such a state.
   */
  uncheckedProtobuf?: true;
  /** Set when the state's header could not be read (no value serializer known): whether it holds Protobuf is not known, so `check` never passes it. */
  headerNotRead?: true;
}

/** Snapshot class packages of Protobuf serializers: an unreadable snapshot of theirs holds Protobuf values. */
const PROTOBUF_SERIALIZER_PACKAGES: readonly { prefix: string; what: string }[] = [
  { prefix: 'io.github.flink.gcp.protobuf.', what: 'a flink-datastream-protobuf snapshot class this inspector does not know (its layout is not published)' },
  {
    prefix: 'com.michalklempa.flink.protobuf.',
    what: "the peer serializer flink-protobuf-serde, whose project declares keyed and operator state out of its scope ('Do not use Protobuf for Flink state'); its snapshot is not read here",
  },
];

function findUncheckedProtobuf(s: SerializerSnapshot, depth = 0): string | undefined {
  const known = PROTOBUF_SERIALIZER_PACKAGES.find((p) => s.className.startsWith(p.prefix));
  if (known && getProtobufSnapshotContent(s) === undefined) return `Protobuf state not checked: ${s.className} is ${known.what}`;
  if (depth >= MAX_NESTING) return undefined;
  for (const n of s.nested) {
    const found = findUncheckedProtobuf(n, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const MAX_NESTING = 64;

export function findProtobufStates(inspection: SavepointInspection): {
  protobuf: FoundProtobufState[];
  kryo: FoundKryoProtobufState[];
  peer: FoundPeerSerdeState[];
  other: FoundOtherState[];
} {
  const protobuf: FoundProtobufState[] = [];
  const kryo: FoundKryoProtobufState[] = [];
  const peer: FoundPeerSerdeState[] = [];
  const other: FoundOtherState[] = [];
  for (const operator of inspection.operators) {
    for (const state of operator.states) {
      const roles: [string, SerializerSnapshot | undefined][] = [
        ['KEY_SERIALIZER', state.keySerializer],
        ['NAMESPACE_SERIALIZER', state.namespaceSerializer],
        ['VALUE_SERIALIZER', state.valueSerializer],
      ];
      let found = false;
      for (const [role, snapshot] of roles) {
        if (!snapshot) continue;
        visit(snapshot, role, 0, (s, path) => {
          const peerSerde = s.details?.['peerSerde'] as PeerSerdeDetails | undefined;
          if (peerSerde) {
            peer.push({ operator, state, role: path, snapshot: s, peer: peerSerde, decodable: s.codec !== undefined });
            found = true;
            return;
          }
          const content = getProtobufSnapshotContent(s);
          if (content) {
            protobuf.push({ operator, state, role: path, snapshot: s, content });
            found = true;
            return;
          }
          const details = getKryoSnapshotDetails(s);
          const recognition = s.details?.['protobuf'] as KryoProtobufRecognition | undefined;
          if (details && recognition) {
            kryo.push({ operator, state, role: path, snapshot: s, kryo: details, recognition, decodable: getKryoProtobufCodec(s) !== undefined });
            found = true;
          }
        });
      }
      if (!found) {
        const snapshotClass = state.valueSerializer?.className ?? '(unreadable)';
        const unchecked = state.valueSerializer ? findUncheckedProtobuf(state.valueSerializer) : undefined;
        if (unchecked) {
          other.push({ operator, state, role: 'VALUE_SERIALIZER', snapshotClass, reason: unchecked, uncheckedProtobuf: true });
          continue;
        }
        const reason =
          state.status !== 'ok'
            ? `state header not decided: ${state.statusReason ?? state.status}`
            : state.valueSerializer && holdsAvro(state.valueSerializer)
              ? `an Avro state (${state.valueSerializer.typeLabel}): not checked: Avro schema evolution (a new Avro schema) is out of scope of the compatibility rules`
              : `not a Protobuf state: ${state.valueSerializer?.typeLabel ?? 'no value serializer'}`;
        other.push({
          operator,
          state,
          role: 'VALUE_SERIALIZER',
          snapshotClass,
          reason,
          ...(state.valueSerializer === undefined && state.status !== 'ok' ? { headerNotRead: true as const } : {}),
        });
      }
    }
  }
  return { protobuf, kryo, peer, other };
}

function visit(s: SerializerSnapshot, path: string, depth: number, fn: (s: SerializerSnapshot, path: string) => void): void {
  if (depth > MAX_NESTING) return;
  fn(s, path);
  s.nested.forEach((n, i) => visit(n, `${path}/${i}`, depth + 1, fn));
}

/** Whether a value serializer is, or holds, flink-avro's AvroSerializerSnapshot (its details say `format: 'avro'`). */
function holdsAvro(s: SerializerSnapshot): boolean {
  return s.details?.['format'] === 'avro' || s.nested.some(holdsAvro);
}
