/**
 * The verdict of a Kryo-held Protobuf state restored with flink-datastream-protobuf: not-restorable. The new
 * serializer's snapshot never resolves against the saved KryoSerializerSnapshot (its
 * resolveSchemaCompatibility answers incompatible for any serializer that is not a KryoSerializer), so the
 * keyed backends throw StateMigrationException; no rule of the schema applies until the state is migrated.
 */
import { createFinding } from './create-finding';
import type { StateCompatibility } from './evaluate-state-compatibility';
import type { KryoProtobufRecognition } from '../serializers/recognize-kryo-protobuf';
import type { LibraryLine } from '../types';

export function evaluateKryoProtobufState(
  javaClass: string,
  found: KryoProtobufRecognition,
  target: LibraryLine,
  newRoot: string | undefined,
): StateCompatibility {
  const finding =
    found.kind === 'chill'
      ? createFinding('KRYO_PROTOBUF_NOT_RESTORABLE', 'snapshot', { javaClass, how: found.how, target })
      : createFinding('KRYO_PLAIN_PROTOBUF_HAZARD', 'snapshot', {
          javaClass,
          messageType: found.messageType ?? '(not in the descriptor set)',
          how: found.how,
          target,
        });
  const savedRoot = found.messageType ?? javaClass;
  return {
    verdict: 'not-restorable',
    target,
    ruleSet: 'none',
    savedRoot,
    newRoot: newRoot ?? savedRoot,
    savedJavaClass: javaClass,
    findings: [finding],
    firstIncompatibility: finding,
    // the keyed backends' message (HeapKeyedStateBackend / RocksDBKeyedStateBackend), serializers by class
    failureText:
      `StateMigrationException: The new state serializer (io.github.flink.gcp.protobuf serializer for ${javaClass}) must not be incompatible with the old state serializer ` +
      `(org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializer for ${javaClass}): KryoSerializerSnapshot answers incompatible for every serializer that is not a KryoSerializer`,
  };
}
