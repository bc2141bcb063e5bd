/**
 * The verdicts a savepoint's serializer snapshots give alone, before any new schema is open: Protobuf held by
 * Kryo (chill-protobuf registered or defaulted) and Protobuf written by flink-protobuf-serde are not restorable
 * with flink-datastream-protobuf whatever the new schema (KRYO_PROTOBUF_NOT_RESTORABLE,
 * PEER_SERDE_STATE_NOT_SUPPORTED). The same core functions as `check` decide them, so the app says from the
 * snapshot what the CLI says with any schema, and never "nothing to check" for such a savepoint. The worker
 * evaluates them for both lines (the app shows the chosen one).
 */
import { evaluateKryoProtobufState, evaluatePeerSerdeState, findProtobufStates, type LibraryLine, type StateCompatibility } from '../compat';
import type { SavepointInspection } from '../flink';

export interface SnapshotStateVerdict {
  /** kryo: chill-protobuf's serializer; peer: flink-protobuf-serde */
  heldBy: 'kryo' | 'peer';
  operator: { id: string; uid?: string | undefined; name?: string | undefined };
  state: string;
  role: string;
  compatibility: StateCompatibility;
}

export interface SnapshotVerdicts {
  /** not-restorable: the states below cannot be restored in place, whichever line and schema */
  verdict: 'not-restorable';
  /** the line the messages name: the chosen one, else 1.x (0.x answers the same: `sameOnBothLines`) */
  target: LibraryLine;
  sameOnBothLines: boolean;
  states: SnapshotStateVerdict[];
  /** native Protobuf states (flink-datastream-protobuf's own snapshot): their verdicts need the new schema */
  nativeProtobufStates: number;
}

/** null when no state's snapshot decides a verdict alone (native Protobuf state, or none). */
export function evaluateSnapshotVerdicts(inspection: SavepointInspection, chosen: LibraryLine | null): SnapshotVerdicts | null {
  const found = findProtobufStates(inspection);
  const evaluate = (target: LibraryLine): SnapshotStateVerdict[] => [
    // a Kryo snapshot without the user's schema is recognised only when chill-protobuf holds the class (plain Kryo needs the schema to be told)
    ...found.kryo.map((k) => ({
      heldBy: 'kryo' as const,
      operator: k.operator,
      state: k.state.name,
      role: k.role,
      compatibility: evaluateKryoProtobufState(k.kryo.typeClass, k.recognition, target, undefined),
    })),
    ...found.peer.map((p) => ({
      heldBy: 'peer' as const,
      operator: p.operator,
      state: p.state.name,
      role: p.role,
      compatibility: evaluatePeerSerdeState(p.snapshot.className, p.peer, target, undefined),
    })),
  ];
  const target = chosen ?? '1.x';
  const states = evaluate(target);
  if (states.length === 0) return null;
  const other = evaluate(target === '1.x' ? '0.x' : '1.x');
  return {
    verdict: 'not-restorable',
    target,
    sameOnBothLines: other.every((s) => s.compatibility.verdict === 'not-restorable'),
    states: states.map((s) => ({ ...s, operator: { id: s.operator.id, uid: s.operator.uid, name: s.operator.name } })),
    nativeProtobufStates: found.protobuf.length,
  };
}
