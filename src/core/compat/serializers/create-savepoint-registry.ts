/**
 * The one snapshot registry factory: Flink's built-in readers, the Protobuf serializer's, and (unless
 * `serializers: 'protobuf'`) the Kryo reader that recognises Protobuf behind Kryo and the inferrer of the
 * peer serializer flink-protobuf-serde. With `schema` (the user's descriptor set: `--descriptors`,
 * `--job-jar`, the check's new schema; neither snapshot embeds one) their Protobuf values decode like
 * native Protobuf state; without it they are recognised only.
 */
import type { FileDescriptorSet } from '@bufbuild/protobuf/wkt';
import { createSnapshotRegistry, type SnapshotRegistry } from '../../flink';
import { registerProtobufSnapshotReaders } from '../../protobuf';
import { loadDescriptorSet } from '../descriptors/load-descriptor-set';
import { registerKryoProtobufReaders } from './register-kryo-protobuf-readers';
import { registerPeerSerdeReaders } from './register-peer-serde-readers';

export interface SavepointRegistryOptions {
  /** the user's descriptor set; `set` is loaded from `bytes` when not given */
  schema?: { name: string; bytes: Uint8Array; set?: FileDescriptorSet } | undefined;
  /** `all` (default): Protobuf, Protobuf behind Kryo and flink-protobuf-serde; `protobuf`: the Protobuf serializer's readers only */
  serializers?: 'all' | 'protobuf';
}

export function createSavepointRegistry(options: SavepointRegistryOptions = {}): SnapshotRegistry {
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  if (options.serializers === 'protobuf') return registry;
  const given = options.schema;
  const schema = given === undefined ? undefined : { name: given.name, bytes: given.bytes, set: given.set ?? loadDescriptorSet(given.bytes, given.name).set };
  registerKryoProtobufReaders(registry, schema);
  registerPeerSerdeReaders(registry, schema);
  return registry;
}
