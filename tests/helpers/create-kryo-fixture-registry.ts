/**
 * The snapshot registry the Kryo fixtures are read with: the serializer's own snapshots, and Protobuf
 * behind Kryo decoded with the fixtures' schema (fixtures/kryo-savepoints/events.binpb), as `--descriptors`
 * gives it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadDescriptorSet } from '../../src/core/compat';
import { registerKryoProtobufReaders } from '../../src/core/compat/serializers/register-kryo-protobuf-readers';
import { createSnapshotRegistry, type SnapshotRegistry } from '../../src/core/flink';
import { registerProtobufSnapshotReaders } from '../../src/core/protobuf';

export const KRYO_FIXTURE_SCHEMA = path.resolve('fixtures/kryo-savepoints/events.binpb');

export function createKryoFixtureRegistry(): SnapshotRegistry {
  const bytes = new Uint8Array(readFileSync(KRYO_FIXTURE_SCHEMA));
  const registry = createSnapshotRegistry();
  registerProtobufSnapshotReaders(registry);
  registerKryoProtobufReaders(registry, { name: 'events.binpb', bytes, set: loadDescriptorSet(bytes, 'events.binpb').set });
  return registry;
}
