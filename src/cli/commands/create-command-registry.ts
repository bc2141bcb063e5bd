/**
 * The snapshot registry of `inspect` and `dump`: Flink's built-in readers, the Protobuf serializer's, and the
 * Kryo reader that recognises Protobuf behind Kryo and the inferrer of the peer serializer flink-protobuf-serde;
 * with `--descriptors FILE` (the user's schema: neither snapshot embeds one) their Protobuf values decode like
 * native Protobuf state.
 */
import path from 'node:path';
import { loadDescriptorSet, registerKryoProtobufReaders, registerPeerSerdeReaders } from '../../core/compat';
import { createSnapshotRegistry, type SnapshotRegistry } from '../../core/flink';
import { registerProtobufSnapshotReaders } from '../../core/protobuf';
import { readDescriptorSetFile } from '../sources';

export async function createCommandRegistry(descriptors: unknown): Promise<SnapshotRegistry> {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  if (typeof descriptors === 'string') {
    const bytes = await readDescriptorSetFile(descriptors);
    const name = path.basename(descriptors);
    const schema = { name, bytes, set: loadDescriptorSet(bytes, name).set };
    registerKryoProtobufReaders(registry, schema);
    registerPeerSerdeReaders(registry, schema);
  } else {
    registerKryoProtobufReaders(registry);
    registerPeerSerdeReaders(registry);
  }
  return registry;
}
