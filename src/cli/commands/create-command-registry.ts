/**
 * The snapshot registry of `inspect` and `dump`: Flink's built-in readers, the Protobuf serializer's, and the
 * Kryo reader that recognises Protobuf behind Kryo; with `--descriptors FILE` (the user's schema: a Kryo
 * snapshot embeds none) the Kryo-held Protobuf values decode like native Protobuf state.
 */
import path from 'node:path';
import { loadDescriptorSet, registerKryoProtobufReaders } from '../../core/compat';
import { createSnapshotRegistry, type SnapshotRegistry } from '../../core/flink';
import { registerProtobufSnapshotReaders } from '../../core/protobuf';
import { readDescriptorSetFile } from '../sources';

export async function createCommandRegistry(descriptors: unknown): Promise<SnapshotRegistry> {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  if (typeof descriptors === 'string') {
    const bytes = await readDescriptorSetFile(descriptors);
    const name = path.basename(descriptors);
    registerKryoProtobufReaders(registry, { name, bytes, set: loadDescriptorSet(bytes, name).set });
  } else {
    registerKryoProtobufReaders(registry);
  }
  return registry;
}
