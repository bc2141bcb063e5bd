/**
 * The snapshot registry of `inspect` and `dump`: Flink's built-in readers, the Protobuf serializer's, and the
 * Kryo reader that recognises Protobuf behind Kryo and the inferrer of the peer serializer flink-protobuf-serde;
 * with `--descriptors FILE` or `--job-jar` (the user's schema: neither snapshot embeds one) their Protobuf values decode like
 * native Protobuf state.
 */
import { loadDescriptorSet, registerKryoProtobufReaders, registerPeerSerdeReaders } from '../../core/compat';
import { createSnapshotRegistry, type SnapshotRegistry } from '../../core/flink';
import { registerProtobufSnapshotReaders } from '../../core/protobuf';

/** `userSchema`: what readUserSchema read from `--descriptors` or `--job-jar`. */
export function createCommandRegistry(userSchema: { name: string; bytes: Uint8Array } | undefined): SnapshotRegistry {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  if (userSchema !== undefined) {
    const { name, bytes } = userSchema;
    const schema = { name, bytes, set: loadDescriptorSet(bytes, name).set };
    registerKryoProtobufReaders(registry, schema);
    registerPeerSerdeReaders(registry, schema);
  } else {
    registerKryoProtobufReaders(registry);
    registerPeerSerdeReaders(registry);
  }
  return registry;
}
