/**
 * The verdict of a state written by the peer serializer flink-protobuf-serde, restored with
 * flink-datastream-protobuf: not-restorable. Its project declares keyed and operator state out of its scope, and
 * the saved snapshot is not the native serializer's: a restore with another serializer is not a compatible one
 * (the keyed backends throw StateMigrationException); the state must be rewritten (State Processor API).
 */
import { createFinding } from './create-finding';
import type { StateCompatibility } from './evaluate-state-compatibility';
import type { PeerSerdeDetails } from '../serializers/register-peer-serde-readers';
import type { LibraryLine } from '../types';

export function evaluatePeerSerdeState(snapshotClass: string, peer: PeerSerdeDetails, target: LibraryLine, newRoot: string | undefined): StateCompatibility {
  const javaClass = peer.javaClass ?? peer.classesFound[0] ?? '(message class not found in the snapshot)';
  const finding = createFinding('PEER_SERDE_STATE_NOT_SUPPORTED', 'snapshot', { javaClass, snapshotClass, target });
  const savedRoot = peer.messageType ?? javaClass;
  return {
    verdict: 'not-restorable',
    target,
    ruleSet: 'none',
    savedRoot,
    newRoot: newRoot ?? savedRoot,
    ...(peer.javaClass ? { savedJavaClass: peer.javaClass } : {}),
    findings: [finding],
    firstIncompatibility: finding,
    failureText: `StateMigrationException: The new state serializer (io.github.flink.gcp.protobuf serializer for ${javaClass}) must not be incompatible with the old state serializer (com.michalklempa.flink.protobuf.ProtoSerializer for ${javaClass})`,
  };
}
